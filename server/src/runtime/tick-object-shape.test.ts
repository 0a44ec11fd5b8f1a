import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tick-object-shape-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
/** The module as plain JavaScript, for a Node process started outside Vitest. */
const modulePath = path.join(dir, 'tick-object-shape.mjs');
buildSync({
  entryPoints: [path.join(here, 'tick-object-shape.ts')],
  outfile: modulePath,
  format: 'esm',
  platform: 'node',
  logLevel: 'silent',
});

/**
 * Runs a fresh Node process that queues ticks between full GCs (each GC runs with no tick queued),
 * then reports whether the inline cache adding the second key of a tick entry is still monomorphic,
 * read from V8's own description of `process.nextTick`'s feedback.
 */
function secondKeyCacheAfterGcs(withModule: boolean): 'monomorphic' | 'megamorphic' {
  const script = `
    ${withModule ? `await import(${JSON.stringify(modulePath)});` : ''}
    const tick = () => new Promise((resolve) => process.nextTick(resolve));
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 50; i++) await tick();
      await new Promise((resolve) => setTimeout(resolve, 10));
      gc();
    }
    for (let i = 0; i < 50; i++) await tick();
    new Function('f', '%DebugPrint(f)')(process.nextTick);`;
  const printed = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  if (/DefineKeyedOwnPropertyInLiteral MONOMORPHIC \{\n[^\n]*\n[^\n]*Symbol: trigger_async_id_symbol/.test(printed))
    return 'monomorphic';
  if (/DefineKeyedOwnPropertyInLiteral MEGAMORPHIC/.test(printed)) return 'megamorphic';
  throw new Error(`unexpected description of process.nextTick:\n${printed.slice(0, 2000)}`);
}

describe('keeping a tick entry alive', () => {
  it('keeps the cache that builds nextTick entries monomorphic across full GCs', () => {
    expect(secondKeyCacheAfterGcs(true)).toBe('monomorphic');
  });

  it('is needed on this Node: without it the cache goes megamorphic (if this fails, the module can go)', () => {
    expect(secondKeyCacheAfterGcs(false)).toBe('megamorphic');
  });
});

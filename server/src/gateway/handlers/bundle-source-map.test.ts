import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleSourceMap } from './bundle-source-map.js';
import { compileHandler, type CompiledHandler } from './handler-compiler.js';

let dir: string;
let compiled: CompiledHandler;
const bundlePath = path.join(os.tmpdir(), 'bundle-under-test.mjs');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-map-'));
  fs.mkdirSync(path.join(dir, 'lib'));
  fs.writeFileSync(
    path.join(dir, 'lib/fail.ts'),
    `export function fail(): never {\n  throw new Error('from the helper');\n}\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'map_handler.ts'),
    `import { fail } from './lib/fail.js';\n\nexport const router = { run: () => fail() };\n`,
  );
  compiled = await compileHandler(path.join(dir, 'map_handler.ts'), 'file:///sdk.js');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The 1-based line and column of `needle` in the bundle. */
function bundlePosition(needle: string): { line: number; column: number } {
  const lines = compiled.code.split('\n');
  const index = lines.findIndex((l) => l.includes(needle));
  return { line: index + 1, column: lines[index].indexOf(needle) + 1 };
}

describe('BundleSourceMap', () => {
  it('lists the handler and its helpers as inputs', () => {
    expect(compiled.entry).toBe(fs.realpathSync(path.join(dir, 'map_handler.ts')));
    expect(compiled.inputs.sort()).toEqual([fs.realpathSync(path.join(dir, 'lib/fail.ts')), compiled.entry].sort());
  });

  it('maps bundle positions back to the original file and line', () => {
    const map = new BundleSourceMap(bundlePath, compiled.map);
    const at = bundlePosition('throw new Error("from the helper")');
    expect(map.original(at.line, at.column)).toEqual({
      file: fs.realpathSync(path.join(dir, 'lib/fail.ts')),
      line: 2,
      column: 3,
    });
  });

  it('rewrites bundle frames of a stack, as file URLs or paths, and leaves other frames alone', () => {
    const map = new BundleSourceMap(bundlePath, compiled.map);
    const at = bundlePosition('throw new Error("from the helper")');
    const stack = [
      'Error: from the helper',
      `    at fail (${pathToFileURL(bundlePath).href}:${at.line}:${at.column})`,
      `    at ${bundlePath}:${at.line}:${at.column}`,
      '    at handle (/srv/server/route.js:10:5)',
      '    at node:internal/process/task_queues:95:5',
    ].join('\n');
    const helper = fs.realpathSync(path.join(dir, 'lib/fail.ts'));
    expect(map.mapStack(stack).split('\n')).toEqual([
      'Error: from the helper',
      `    at fail (${helper}:2:3)`,
      `    at ${helper}:2:3`,
      '    at handle (/srv/server/route.js:10:5)',
      '    at node:internal/process/task_queues:95:5',
    ]);
    expect(map.firstFrameIn(stack, [compiled.entry])).toBeUndefined();
    expect(map.firstFrameIn(stack, compiled.inputs)).toEqual({ file: helper, line: 2, column: 3 });
  });

  it('writes sources relative to the bundle folder in the inline comment', () => {
    const map = new BundleSourceMap(bundlePath, compiled.map);
    const payload = JSON.parse(Buffer.from(map.comment.split('base64,')[1], 'base64').toString()) as {
      sources: string[];
    };
    expect(payload.sources.every((s) => !path.isAbsolute(s) && !s.includes('\\'))).toBe(true);
  });
});

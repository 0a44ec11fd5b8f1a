import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import type { GuardEvent } from './access-guard.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'guard-test-'));
// Worker threads cannot load TypeScript here: preload the guard compiled to plain JavaScript.
const guard = path.join(scratch, 'access-guard.mjs');
fs.writeFileSync(
  guard,
  transformSync(fs.readFileSync(fileURLToPath(new URL('./access-guard.ts', import.meta.url)), 'utf8'), {
    loader: 'ts',
    format: 'esm',
  }).code,
);
const specsDir = path.join(scratch, 'specs');
const outsideDir = path.join(scratch, 'outside');
fs.mkdirSync(specsDir);
fs.mkdirSync(outsideDir);
fs.writeFileSync(path.join(specsDir, 'inside.yaml'), 'inside');
fs.writeFileSync(path.join(outsideDir, 'secret.txt'), 'secret');

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs `workerCode` (an ES module) in a worker thread of a process started with the guard preloaded; returns the
 * worker's report and the guard's events. */
function runGuarded(workerCode: string, mainCode = ''): { report: Record<string, unknown>; events: GuardEvent[] } {
  const log = path.join(scratch, `events-${Math.random().toString(36).slice(2)}.jsonl`);
  const script = `
    import { Worker } from 'node:worker_threads';
    ${mainCode}
    const worker = new Worker(${JSON.stringify(workerCode)}, { eval: true });
    worker.on('message', (report) => { console.log(JSON.stringify(report)); });
  `;
  const stdout = execFileSync(process.execPath, ['--import', guard, '--input-type=module', '-e', script], {
    env: { ...process.env, CORPUS_GUARD_LOG: log, CORPUS_GUARD_ROOT: specsDir, CORPUS_GUARD_ALLOW: process.cwd() },
    encoding: 'utf8',
    timeout: 20_000,
  });
  const events = fs.existsSync(log)
    ? fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as GuardEvent)
    : [];
  return { report: JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>, events };
}

describe('access guard', () => {
  it('lets a worker read inside the specs folder, refuses and records reads outside it', () => {
    const { report, events } = runGuarded(
      `
      import fs, { readFileSync } from 'node:fs';
      import { parentPort } from 'node:worker_threads';
      const attempt = (fn) => { try { return fn(); } catch (e) { return 'refused:' + e.code; } };
      parentPort.postMessage({
        inside: attempt(() => fs.readFileSync(${JSON.stringify(path.join(specsDir, 'inside.yaml'))}, 'utf8')),
        outside: attempt(() => fs.readFileSync(${JSON.stringify(path.join(outsideDir, 'secret.txt'))}, 'utf8')),
        traversal: attempt(() => ` +
        `fs.readFileSync(${JSON.stringify(path.join(specsDir, '..', 'outside', 'secret.txt'))}, 'utf8')),
        named: attempt(() => readFileSync(${JSON.stringify(path.join(outsideDir, 'secret.txt'))}, 'utf8')),
        probe: attempt(() => fs.existsSync(${JSON.stringify(path.join(outsideDir, 'secret.txt'))})),
      });
    `,
    );
    expect(report).toEqual({
      inside: 'inside',
      outside: 'refused:EACCES',
      traversal: 'refused:EACCES',
      named: 'refused:EACCES',
      probe: true,
    });
    expect(events.filter((e) => e.kind === 'read').map((e) => e.blocked)).toEqual([true, true, true]);
    expect(events.find((e) => e.kind === 'probe')).toMatchObject({
      target: path.join(outsideDir, 'secret.txt'),
      via: 'fs.existsSync',
      blocked: false,
    });
  });

  it('refuses and records network attempts from a worker', () => {
    const { report, events } = runGuarded(`
      import net from 'node:net';
      import dns from 'node:dns';
      import { parentPort } from 'node:worker_threads';
      const attempt = (fn) => { try { fn(); return 'allowed'; } catch (e) { return 'refused'; } };
      parentPort.postMessage({
        socket: attempt(() => net.connect({ host: '169.254.169.254', port: 80 })),
        dns: attempt(() => dns.lookup('example.com', () => {})),
      });
    `);
    expect(report).toEqual({ socket: 'refused', dns: 'refused' });
    expect(events.map((e) => e.kind)).toEqual(['network', 'network']);
  });

  it('does not watch the main thread', () => {
    const { events } = runGuarded(
      `import { parentPort } from 'node:worker_threads'; parentPort.postMessage({});`,
      `import fs from 'node:fs'; fs.readFileSync(${JSON.stringify(path.join(outsideDir, 'secret.txt'))});`,
    );
    expect(events).toEqual([]);
  });
});

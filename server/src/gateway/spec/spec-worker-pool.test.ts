import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSpecLimits } from '../../core/settings.js';
import { SpecWorkerPool } from './spec-worker-pool.js';

const specsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-pool-'));
afterAll(() => fs.rmSync(specsDir, { recursive: true, force: true }));

const spec = (title: string) => {
  const file = path.join(specsDir, `${title}.json`);
  const get = { responses: { '200': { description: 'ok', content: { 'application/json': { example: { title } } } } } };
  fs.writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title, version: '1' }, paths: { '/x': { get } } }));
  return file;
};

const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SpecWorkerPool', () => {
  it('keeps a worker for the next spec while it is idle for less than idleMs, then ends it', async () => {
    const pool = new SpecWorkerPool(defaultSpecLimits.maxHeapMb, 400);
    expect((await pool.compile(spec('first'), specsDir, defaultSpecLimits)).title).toBe('first');
    expect(pool.workerCount).toBe(1);
    await idle(100);
    // Within idleMs: the same worker takes the next job, and its idle time starts again after it.
    expect((await pool.compile(spec('second'), specsDir, defaultSpecLimits)).title).toBe('second');
    expect(pool.workerCount).toBe(1);
    await idle(1000);
    expect(pool.workerCount).toBe(0);
    // A load after that starts a new worker.
    expect((await pool.compile(spec('third'), specsDir, defaultSpecLimits)).title).toBe('third');
    expect(pool.workerCount).toBe(1);
    pool.close();
    expect(pool.workerCount).toBe(0);
  });

  it('prestarts one worker that takes the first spec, and ends it when no spec comes within idleMs', async () => {
    const pool = new SpecWorkerPool(defaultSpecLimits.maxHeapMb, 400);
    pool.prestart(['3.0']);
    pool.prestart(['3.0']);
    expect(pool.workerCount).toBe(1);
    expect((await pool.compile(spec('prestarted'), specsDir, defaultSpecLimits)).title).toBe('prestarted');
    expect(pool.workerCount).toBe(1);
    pool.close();

    const unused = new SpecWorkerPool(defaultSpecLimits.maxHeapMb, 200);
    unused.prestart([]);
    await idle(800);
    expect(unused.workerCount).toBe(0);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { LOWERED_NICE, LowPriorityThreads } from './low-priority-threads.js';

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((f) => fs.rmSync(f, { recursive: true, force: true })));

/** A stand-in for /proc/self/task holding `tids`; adding a file is a thread starting. */
function taskFolder(...tids: number[]): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-tasks-'));
  folders.push(folder);
  for (const tid of tids) fs.writeFileSync(path.join(folder, String(tid)), '');
  return folder;
}

const start = (folder: string, tid: number) => fs.writeFileSync(path.join(folder, String(tid)), '');
const systemError = (code: string) => Object.assign(new Error(code), { info: { code } });

describe('LowPriorityThreads', () => {
  it('lowers the threads that appear while the work runs, and none that were there before', async () => {
    const folder = taskFolder(1, 2);
    const reniced: Array<[number, number]> = [];
    const threads = new LowPriorityThreads(
      () => expect.unreachable(),
      folder,
      (tid, nice) => reniced.push([tid, nice]),
      'linux',
    );
    const answer = await threads.around(async () => {
      start(folder, 7);
      start(folder, 8);
      return 'answer';
    });
    expect(answer).toBe('answer');
    expect(reniced.sort()).toEqual([
      [7, LOWERED_NICE],
      [8, LOWERED_NICE],
    ]);
  });

  it('lowers the threads a failed work started, and rethrows its error', async () => {
    const folder = taskFolder(1);
    const reniced: number[] = [];
    const threads = new LowPriorityThreads(
      () => undefined,
      folder,
      (tid) => reniced.push(tid),
      'linux',
    );
    await expect(
      threads.around(async () => {
        start(folder, 5);
        throw new Error('instance failed');
      }),
    ).rejects.toThrow('instance failed');
    expect(reniced).toEqual([5]);
  });

  it('reports a refusal once and then runs the work without lowering anything', async () => {
    const folder = taskFolder(1);
    const refusals: Error[] = [];
    let attempts = 0;
    const threads = new LowPriorityThreads(
      (error) => refusals.push(error),
      folder,
      () => {
        attempts++;
        throw systemError('EACCES');
      },
      'linux',
    );
    await threads.around(async () => start(folder, 2));
    expect(await threads.around(async () => (start(folder, 3), 'still runs'))).toBe('still runs');
    expect(attempts).toBe(1);
    expect(refusals.map((e) => e.message)).toEqual(['EACCES']);
  });

  it('takes a thread that ended before it was lowered for no refusal', async () => {
    const folder = taskFolder(1);
    const refusals: Error[] = [];
    const reniced: number[] = [];
    const threads = new LowPriorityThreads(
      (error) => refusals.push(error),
      folder,
      (tid) => {
        if (tid === 2) throw systemError('ESRCH');
        reniced.push(tid);
      },
      'linux',
    );
    await threads.around(async () => start(folder, 2));
    await threads.around(async () => start(folder, 3));
    expect(refusals).toEqual([]);
    expect(reniced).toEqual([3]);
  });

  it('lowers nothing, and reports once, where there is no thread listing', async () => {
    const refusals: Error[] = [];
    const threads = new LowPriorityThreads(
      (error) => refusals.push(error),
      path.join(os.tmpdir(), 'aw-no-such-task-folder'),
      () => expect.unreachable(),
      'linux',
    );
    expect(await threads.around(async () => 1)).toBe(1);
    expect(await threads.around(async () => 2)).toBe(2);
    expect(refusals).toHaveLength(1);
  });

  it('touches no thread off Linux, where setPriority would take a thread id for a process', async () => {
    const folder = taskFolder(1);
    const threads = new LowPriorityThreads(
      () => expect.unreachable(),
      folder,
      () => expect.unreachable(),
      'darwin',
    );
    expect(await threads.around(async () => (start(folder, 2), 'ran'))).toBe('ran');
  });

  it.runIf(process.platform === 'linux')('lowers the worker threads of a real DuckDB instance', async () => {
    const niceOf = (tid: string) => {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const before = new Set(fs.readdirSync('/proc/self/task'));
    const refusals: Error[] = [];
    const threads = new LowPriorityThreads((error) => refusals.push(error));
    const instance = await threads.around(() => DuckDBInstance.create(':memory:', { threads: '3' }));
    try {
      const workers = fs.readdirSync('/proc/self/task').filter((tid) => !before.has(tid));
      // Where this machine refuses renicing, the refusal is what must show.
      if (refusals.length > 0) return expect(workers.map(niceOf)).not.toContain(LOWERED_NICE);
      expect(workers).toHaveLength(2);
      expect(workers.map(niceOf)).toEqual([LOWERED_NICE, LOWERED_NICE]);
      expect(niceOf(String(process.pid))).toBe(0);
    } finally {
      instance.closeSync();
    }
  });
});

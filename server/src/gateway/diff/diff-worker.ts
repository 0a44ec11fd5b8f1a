import { parentPort } from 'node:worker_threads';
import type { WorkerReply } from '../bounded-worker.js';
import type { DiffJob } from './diff-pool.js';
import { diffSpecs, type SpecChange } from './spec-diff.js';

function reply(job: DiffJob & { id: number }): WorkerReply<SpecChange[]> {
  try {
    return { id: job.id, ok: true, value: diffSpecs(JSON.parse(job.oldJson), JSON.parse(job.newJson)) };
  } catch (error) {
    const message = error instanceof RangeError ? 'document is nested too deeply to compare' : (error as Error).message;
    return { id: job.id, ok: false, message };
  }
}

/** Worker entry: compares the pairs of documents it is sent, one at a time, and posts the changes back. */
parentPort!.on('message', (job: DiffJob & { id: number }) => parentPort!.postMessage(reply(job)));

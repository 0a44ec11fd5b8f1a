import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../runtime/module-entry.js';

/** Bounds of one job of a {@link BoundedWorker}. */
export interface WorkerLimits {
  timeoutMs: number;
  maxHeapMb: number;
}

/** What a bounded worker answers for one job. */
export type WorkerReply<Value> = { id: number; ok: true; value: Value } | { id: number; ok: false; message: string };

interface Pending<Job, Value> {
  job: Job & { id: number };
  resolve(value: Value): void;
  reject(error: Error): void;
}

/**
 * One worker thread that runs jobs one at a time, off the request path (lint, the breaking-change comparison).
 * One, not one per core: this is background work and must not take the cores that serve requests and load specs.
 * A job past its time or heap bound ends the worker (the next job starts a new one) and is rejected: a hostile
 * document never hangs it. The worker is started on the first job.
 */
export class BoundedWorker<Job, Value> {
  private worker?: Worker;
  private current?: Pending<Job, Value> & { timer: NodeJS.Timeout };
  private readonly queue: Array<Pending<Job, Value>> = [];
  private nextId = 1;

  /** `entry` is the worker module relative to `callerUrl`; `name` starts the messages of its failures. */
  constructor(
    private readonly callerUrl: string,
    private readonly entry: string,
    private readonly name: string,
    private readonly limits: WorkerLimits,
  ) {}

  /** The worker's answer to `job`, after the jobs queued before it. */
  run(job: Job): Promise<Value> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { ...job, id: this.nextId++ }, resolve, reject });
      this.dispatch();
    });
  }

  /** Ends the worker; queued jobs are rejected. */
  close(): void {
    for (const pending of this.queue.splice(0)) pending.reject(new Error(`${this.name} stopped`));
    this.end(`${this.name} stopped`);
  }

  private dispatch(): void {
    if (this.current || this.queue.length === 0) return;
    const pending = this.queue.shift()!;
    const timer = setTimeout(
      () => this.end(`${this.name} took longer than ${this.limits.timeoutMs} ms`),
      this.limits.timeoutMs,
    );
    this.current = { ...pending, timer };
    (this.worker ??= this.spawn()).postMessage(pending.job);
  }

  private spawn(): Worker {
    const worker = startModuleWorker(this.callerUrl, this.entry, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb, stackSizeMb: 8 },
      // Piped, never read: nothing a document or a ruleset prints reaches the server's output.
      stdout: true,
      stderr: true,
    });
    worker.on('message', (reply: WorkerReply<Value>) => this.settle(reply));
    worker.once('error', (error: Error & { code?: string }) =>
      this.end(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `${this.name} needed more than ${this.limits.maxHeapMb} MB of memory`
          : `${this.name} failed: ${error.message}`,
      ),
    );
    worker.once('exit', (code) => this.end(`${this.name} stopped unexpectedly (exit code ${code})`));
    worker.unref();
    return worker;
  }

  private settle(reply: WorkerReply<Value>): void {
    const current = this.current;
    if (!current || current.job.id !== reply.id) return;
    clearTimeout(current.timer);
    this.current = undefined;
    if (reply.ok) current.resolve(reply.value);
    else current.reject(new Error(reply.message));
    this.dispatch();
  }

  /** Rejects the running job with `message`, ends the worker and moves on to the queue. */
  private end(message: string): void {
    const current = this.current;
    this.current = undefined;
    if (current) clearTimeout(current.timer);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) {
      worker.removeAllListeners();
      worker.on('error', () => undefined);
      void worker.terminate();
    }
    current?.reject(new Error(message));
    this.dispatch();
  }
}

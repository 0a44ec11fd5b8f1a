import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../runtime/module-entry.js';
import { LoadError, NotOpenApiError } from '../load-error.js';
import type { SpecLimits } from '../../core/settings.js';
import type { CompiledSpec } from '../model/spec-types.js';
import type { OpenApiVersion } from './structure.js';

/** What a prestarted worker is sent first: the OpenAPI versions of the specs it will be given, if known. */
export interface WarmUp {
  versions: readonly OpenApiVersion[];
}

/** What a spec worker answers for one job. */
export type SpecWorkerReply =
  | { id: number; ok: true; spec: CompiledSpec; documentJson?: string }
  | { id: number; ok: false; error: { message: string; line?: number; column?: number; notOpenApi: boolean } };

interface Job {
  id: number;
  file: string;
  specsDir: string;
  limits: SpecLimits;
  resolve(spec: CompiledSpec): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  /** The running job's deadline, or the idle worker's retirement. */
  timer?: NodeJS.Timeout;
}

/**
 * Worker threads that compile specs, one spec at a time each, as many as the machine has cores (at
 * most four). A worker lives on after a job: the modules it loaded, the JIT-compiled parser and the
 * compiled OpenAPI meta-schema serve the next spec, which a fresh worker per spec paid for every time
 * (most of a spec's load cost). Each job is still bounded: past `timeoutMs` or over `maxHeapMb` of heap
 * the worker is ended and the spec rejected with a {@link LoadError}; the next job starts a new worker.
 * Only one spec's data is alive in a worker at a time, so the heap bound is a bound per spec. A worker idle for
 * `idleMs` is ended, returning its memory (a one-file mock server idles at about 24 MB less).
 */
export class SpecWorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(
    private readonly maxHeapMb: number,
    private readonly idleMs: number,
    private readonly size = Math.max(1, Math.min(os.availableParallelism(), 4)),
  ) {}

  /** Compiles `file` in a worker once one is free. */
  compile(file: string, specsDir: string, limits: SpecLimits): Promise<CompiledSpec> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, file, specsDir, limits, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Starts a worker before any job, so that it loads its modules, and compiles the meta-schemas of `versions`, while
   * the server loads its own (two cores at work rather than one after the other). Ended like any idle worker. Only
   * the versions expected: compiling both, whichever the spec, left the first answer as slow as no warm-up.
   */
  prestart(versions: readonly OpenApiVersion[]): void {
    if (this.slots.size > 0) return;
    const slot = this.spawn();
    if (versions.length > 0) slot.worker.postMessage({ versions } satisfies WarmUp);
    this.retireWhenIdle(slot);
  }

  /** Workers alive now, busy or idle. */
  get workerCount(): number {
    return this.slots.size;
  }

  /** Ends the idle workers (a later job starts new ones). */
  close(): void {
    for (const slot of this.slots) if (!slot.job) this.retire(slot);
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((s) => !s.job);
      if (!slot && this.slots.size < this.size) slot = this.spawn();
      if (!slot) return;
      this.assign(slot, this.queue.shift()!);
    }
  }

  private assign(slot: Slot, job: Job): void {
    clearTimeout(slot.timer);
    slot.job = job;
    slot.timer = setTimeout(
      () => this.fail(slot, `loading took longer than ${job.limits.timeoutMs} ms (reference explosion?); rejected`),
      job.limits.timeoutMs,
    );
    slot.worker.postMessage({ id: job.id, file: job.file, specsDir: job.specsDir, limits: job.limits });
  }

  private spawn(): Slot {
    const worker = startModuleWorker(import.meta.url, './spec-worker', {
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, stackSizeMb: 8 },
      // Piped, never read: nothing a document holds reaches the server's output.
      stdout: true,
      stderr: true,
    });
    const slot: Slot = { worker };
    worker.on('message', (reply: SpecWorkerReply) => this.settle(slot, reply));
    worker.once('error', (error: Error & { code?: string }) =>
      this.fail(
        slot,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `loading needed more than ${this.maxHeapMb} MB of memory; rejected`
          : `loading failed: ${error.message}`,
      ),
    );
    worker.once('exit', (code) => this.fail(slot, `loader stopped unexpectedly (exit code ${code})`));
    // Idle workers do not keep the process alive; a running job's timer does. (After the listeners: adding a
    // 'message' listener refs the worker's port again.)
    worker.unref();
    this.slots.add(slot);
    return slot;
  }

  private settle(slot: Slot, reply: SpecWorkerReply): void {
    const job = slot.job;
    if (!job || reply.id !== job.id) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    if (reply.ok)
      job.resolve(
        reply.documentJson === undefined
          ? reply.spec
          : {
              ...reply.spec,
              document: JSON.parse(reply.documentJson) as CompiledSpec['document'],
              documentJson: reply.documentJson,
            },
      );
    else {
      const name = path.basename(job.file);
      const { message, line, column, notOpenApi } = reply.error;
      job.reject(
        notOpenApi ? new NotOpenApiError(name, message, line, column) : new LoadError(name, message, line, column),
      );
    }
    this.dispatch();
    if (!slot.job) this.retireWhenIdle(slot);
  }

  /** Ends `slot`'s worker after `idleMs` unless a job comes first (`assign` clears the timer). */
  private retireWhenIdle(slot: Slot): void {
    slot.timer = setTimeout(() => this.retire(slot), this.idleMs).unref();
  }

  /** Rejects the worker's job (if any) with `message`, ends the worker and moves on to the queue. */
  private fail(slot: Slot, message: string): void {
    if (!this.slots.has(slot)) return;
    const job = slot.job;
    this.retire(slot);
    job?.reject(new LoadError(path.basename(job.file), message));
    this.dispatch();
  }

  private retire(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.job = undefined;
    this.slots.delete(slot);
    slot.worker.removeAllListeners();
    // An ended worker may still report an error: one listener keeps it from becoming an uncaught exception.
    slot.worker.on('error', () => undefined);
    void slot.worker.terminate();
  }
}

import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../runtime/module-entry.js';
import type { LintFinding } from './spectral-linter.js';

/** One file to lint: its text when the caller has it, else the worker reads `file`. */
export interface LintJob {
  id: number;
  file: string;
  text?: string;
  /** Referenced files are read only under this folder. */
  root: string;
  rulesetFile?: string;
}

/** What the lint worker answers for one job. */
export type LintReply = { id: number; ok: true; findings: LintFinding[] } | { id: number; ok: false; message: string };

/** Bounds of one lint job. */
export interface LintLimits {
  timeoutMs: number;
  maxHeapMb: number;
}

/** Lint bounds by default: generous for a 3 MB vendor spec, short for a reference bomb. */
export const defaultLintLimits: LintLimits = { timeoutMs: 30_000, maxHeapMb: 512 };

interface Pending {
  job: LintJob;
  resolve(findings: LintFinding[]): void;
  reject(error: Error): void;
}

/**
 * One worker thread that lints files one at a time, off the request path. One, not one per core: lint is
 * background work and must not take the cores that serve requests and load specs. A job past its time or
 * heap bound ends the worker (the next job starts a new one) and is rejected: a hostile document never
 * hangs lint.
 */
export class LintPool {
  private worker?: Worker;
  private current?: Pending & { timer: NodeJS.Timeout };
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly limits: LintLimits = defaultLintLimits) {}

  /** The findings of `file` (of `text` when given), with references read only under `root`. */
  lint(file: string, root: string, rulesetFile?: string, text?: string): Promise<LintFinding[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, file, text, root, rulesetFile }, resolve, reject });
      this.dispatch();
    });
  }

  /** Ends the worker; queued jobs are rejected. */
  close(): void {
    for (const pending of this.queue.splice(0)) pending.reject(new Error('lint stopped'));
    this.end('lint stopped');
  }

  private dispatch(): void {
    if (this.current || this.queue.length === 0) return;
    const pending = this.queue.shift()!;
    const timer = setTimeout(
      () => this.end(`lint took longer than ${this.limits.timeoutMs} ms`),
      this.limits.timeoutMs,
    );
    this.current = { ...pending, timer };
    (this.worker ??= this.spawn()).postMessage(pending.job);
  }

  private spawn(): Worker {
    const worker = startModuleWorker(import.meta.url, './lint-worker', {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb, stackSizeMb: 8 },
      // Piped, never read: nothing a document or a ruleset prints reaches the server's output.
      stdout: true,
      stderr: true,
    });
    worker.on('message', (reply: LintReply) => this.settle(reply));
    worker.once('error', (error: Error & { code?: string }) =>
      this.end(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `lint needed more than ${this.limits.maxHeapMb} MB of memory`
          : `lint failed: ${error.message}`,
      ),
    );
    worker.once('exit', (code) => this.end(`lint stopped unexpectedly (exit code ${code})`));
    worker.unref();
    return worker;
  }

  private settle(reply: LintReply): void {
    const current = this.current;
    if (!current || current.job.id !== reply.id) return;
    clearTimeout(current.timer);
    this.current = undefined;
    if (reply.ok) current.resolve(reply.findings);
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

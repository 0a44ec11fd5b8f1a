import { randomUUID } from 'node:crypto';
import { HttpError } from '../../errors.js';
import type { QueryEngine } from '../engine/query-engine.js';
import { QueryCancelled } from '../engine/query-engine.js';
import { queryErrors } from '../query-errors.js';
import type { AsyncSettings } from '../sources.js';
import type { JobRecord, JobStore, ResultPage } from './job-store.js';

/** Where unexpected job failures are logged. */
export interface JobLog {
  error(details: object, message: string): void;
}

/** The status fields served by `GET /async/{id}/status`. */
export type JobStatusView = Omit<JobRecord, 'query'>;

const view = ({ query: _query, ...status }: JobRecord): JobStatusView => status;

/**
 * Runs async queries on a bounded pool of workers: at most `workers` at once, at most `maxQueued`
 * waiting. Job state lives in the {@link JobStore}, so it survives restarts; jobs that were running
 * when the process stopped are marked FAILED at the next start. Finished jobs expire after the
 * retention period.
 */
export class JobRunner {
  private readonly queue: JobRecord[] = [];
  private readonly running = new Map<string, AbortController>();
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly store: JobStore,
    private readonly engine: QueryEngine,
    private readonly settings: AsyncSettings,
    private readonly log: JobLog,
  ) {}

  /** Recovers from the previous run and starts expiring old jobs. */
  start(): void {
    const now = new Date().toISOString();
    for (const job of this.store.all()) {
      if (job.status === 'RUNNING') this.store.save({ ...job, status: 'FAILED', error: 'interrupted by restart', completed_at: now });
    }
    this.sweep();
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.settings.retentionMs / 4, 600_000));
    this.sweeper.unref();
  }

  /** Removes jobs whose result is older than the retention period. */
  sweep(now = Date.now()): void {
    for (const job of this.store.all()) {
      if (job.status === 'RUNNING') continue;
      const finished = Date.parse(job.completed_at ?? job.submitted_at);
      if (now - finished > this.settings.retentionMs) this.store.remove(job.query_id);
    }
  }

  /** Accepts a query (already checked to parse) and queues it; 503 when the queue is full. */
  submit(query: string): JobStatusView {
    if (this.queue.length >= this.settings.maxQueued && this.running.size >= this.settings.workers) {
      throw queryErrors.busy(`${this.settings.maxQueued} async queries are already waiting; try again later`);
    }
    const job: JobRecord = { query_id: randomUUID(), status: 'RUNNING', submitted_at: new Date().toISOString(), started_at: null, completed_at: null, error: null, query };
    this.store.save(job);
    this.queue.push(job);
    this.pump();
    return view(job);
  }

  status(id: string): JobStatusView {
    const job = this.store.get(id);
    if (!job) throw queryErrors.notFound(`No async query with id "${id}" (unknown or expired)`);
    return view(job);
  }

  /** A page of a completed job's result; 409 with the status while it is not COMPLETED. */
  async results(id: string, offset: number, limit: number): Promise<ResultPage> {
    const job = this.status(id);
    if (job.status !== 'COMPLETED') {
      const why = job.status === 'RUNNING' ? 'is still running' : `is ${job.status}${job.error ? `: ${job.error}` : ''}`;
      throw queryErrors.conflict(`Async query ${id} ${why}; results exist only once it is COMPLETED`, job.status);
    }
    const page = await this.store.page(id, offset, limit);
    if (!page) throw queryErrors.notFound(`The results of async query ${id} are gone`);
    return page;
  }

  /** Cancels a waiting or running job; 409 when it has already finished. */
  cancel(id: string): JobStatusView {
    const job = this.store.get(id);
    if (!job) throw queryErrors.notFound(`No async query with id "${id}" (unknown or expired)`);
    if (job.status !== 'RUNNING') throw queryErrors.conflict(`Async query ${id} has already finished (${job.status})`, job.status);
    const cancelled: JobRecord = { ...job, status: 'CANCELLED', completed_at: new Date().toISOString(), error: 'cancelled by request' };
    this.store.save(cancelled);
    const queued = this.queue.findIndex((j) => j.query_id === id);
    if (queued >= 0) this.queue.splice(queued, 1);
    this.running.get(id)?.abort(new QueryCancelled());
    return view(cancelled);
  }

  private pump(): void {
    while (this.running.size < this.settings.workers && this.queue.length > 0) {
      const job = this.queue.shift()!;
      const controller = new AbortController();
      this.running.set(job.query_id, controller);
      void this.execute(job, controller).finally(() => {
        this.running.delete(job.query_id);
        this.pump();
      });
    }
  }

  private async execute(job: JobRecord, controller: AbortController): Promise<void> {
    const started: JobRecord = { ...job, started_at: new Date().toISOString() };
    this.store.save(started);
    try {
      const outcome = await this.engine.run(job.query, { maxRows: this.settings.maxRows, timeoutMs: this.settings.timeoutMs, signal: controller.signal });
      if (controller.signal.aborted) return;
      const { scans: _scans, ...result } = outcome;
      this.store.saveResult(job.query_id, result);
      this.finish(started, 'COMPLETED', null);
    } catch (error) {
      // A cancelled job already has its final status.
      if (controller.signal.aborted) return;
      if (error instanceof HttpError) this.finish(started, 'FAILED', error.detail);
      else {
        this.log.error({ err: error, queryId: job.query_id }, 'async query failed');
        this.finish(started, 'FAILED', 'internal error');
      }
    }
  }

  private finish(job: JobRecord, status: JobRecord['status'], error: string | null): void {
    // The job may have been cancelled meanwhile: that status wins.
    if (this.store.get(job.query_id)?.status !== 'RUNNING') return;
    this.store.save({ ...job, status, error, completed_at: new Date().toISOString() });
  }

  /** Stops the workers; jobs still running stay RUNNING on disk and become FAILED at the next start. */
  close(): void {
    clearInterval(this.sweeper);
    this.queue.length = 0;
    for (const controller of this.running.values()) controller.abort(new Error('the server is shutting down'));
  }
}

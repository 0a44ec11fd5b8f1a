import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { HttpError, httpError } from '../../core/errors.js';
import { toHttpError, QueryCancelled } from '../../core/domain-errors.js';
import type { QueryEngine } from '../engine/query-engine.js';
import type { AsyncSettings } from '../sources.js';
import type { JobStatusView, ResultPage } from '../../contract/index.js';
import { statusView, waitingJob, type JobRecord } from './job-record.js';
import type { JobStore } from './job-store.js';
import { passesGuard, renewLease, settleJob, updateJob, type Settlement } from './job-updates.js';
import { encodeResult, readPage } from './result-chunks.js';
import { watchJobs } from '../../observability/job-metrics.js';

/** Where unexpected job failures are logged. */
export interface JobLog {
  error(details: object, message: string): void;
}

/**
 * Who asks about a job: the owner string of an authenticated caller, or null when authentication is
 * off (then every caller sees every job).
 */
export type Principal = string | null;

/** How often at most a failing store is logged. */
const storeErrorLogIntervalMs = 30_000;
/** Finished jobs removed per store round trip by the retention sweep. */
const sweepBatch = 100;

/**
 * Runs async queries on a bounded pool of workers: at most `workers` at once on this replica, at
 * most `maxQueued` waiting across every replica of the store. Each running job holds a lease that a
 * heartbeat renews every third of `leaseMs`; the same heartbeat marks FAILED the jobs of any replica
 * whose lease lapsed (it stopped), stops the local jobs that another replica cancelled, and takes
 * jobs submitted elsewhere. Finished jobs expire after the retention period; results are bounded
 * per job and in total, the oldest removed first.
 */
export class JobRunner {
  /** This replica's name in the leases it holds. */
  readonly replica = `${os.hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, AbortController>();
  private claiming?: Promise<void>;
  private claimAgain = false;
  private heartbeat?: NodeJS.Timeout;
  private sweeper?: NodeJS.Timeout;
  private beating = false;
  private lastStoreErrorAt = 0;
  private closed = false;
  private unwatch?: () => void;

  constructor(
    private readonly store: JobStore,
    private readonly engine: QueryEngine,
    private readonly settings: AsyncSettings,
    private readonly leaseMs: number,
    private readonly log: JobLog,
  ) {}

  /**
   * Recovers from the previous run and starts the heartbeat and the retention sweep. A store this
   * process owns alone fails the jobs it was running at once; a shared one leaves them to their
   * leases, since another replica may be running them.
   */
  async start(): Promise<void> {
    if (!this.store.shared)
      await this.failLapsed(Infinity, 'interrupted by restart').catch((error: unknown) => this.storeFailed(error));
    await this.sweep().catch((error: unknown) => this.storeFailed(error));
    this.heartbeat = setInterval(() => void this.beat(), Math.max(250, Math.floor(this.leaseMs / 3)));
    this.heartbeat.unref();
    this.sweeper = setInterval(
      () => void this.sweep().catch((error: unknown) => this.storeFailed(error)),
      Math.min(this.settings.retentionMs / 4, 600_000),
    );
    this.sweeper.unref();
    this.unwatch = watchJobs({ waiting: () => this.store.waiting(), running: () => this.running.size });
    this.pump();
  }

  /** One heartbeat: renew the local leases, fail the lapsed ones, take waiting jobs. */
  private async beat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      const leaseUntil = Date.now() + this.leaseMs;
      for (const [id, controller] of this.running) {
        if (!(await renewLease(this.store, id, this.replica, leaseUntil))) controller.abort(new QueryCancelled());
      }
      await this.failLapsed(
        Date.now(),
        `interrupted: the replica running it stopped (no heartbeat for ${this.leaseMs} ms)`,
      );
      this.pump();
    } catch (error) {
      this.storeFailed(error);
    } finally {
      this.beating = false;
    }
  }

  private async failLapsed(now: number, message: string): Promise<void> {
    for (const id of await this.store.lapsed(now)) {
      if (await settleJob(this.store, id, { status: 'FAILED', error: message }, { leaseEndedBefore: now }))
        await this.store.discardResult(id);
    }
  }

  /** Removes finished jobs older than the retention period. */
  async sweep(now = Date.now()): Promise<void> {
    for (;;) {
      const expired = await this.store.finished(now - this.settings.retentionMs, sweepBatch);
      for (const id of expired) await this.store.remove(id);
      if (expired.length < sweepBatch) return;
    }
  }

  /** Queues a query (already checked) for `owner`; 503 when the queue is full. */
  async submit(query: string, owner: Principal): Promise<JobStatusView> {
    return this.storeCall(async () => {
      const idle = this.settings.workers - this.running.size;
      if ((await this.store.waiting()) >= this.settings.maxQueued + idle) {
        throw httpError('QUERY_BUSY', [this.settings.maxQueued]);
      }
      const job = waitingJob(randomUUID(), query, owner, new Date());
      await this.store.enqueue(job);
      this.pump();
      return statusView(job);
    });
  }

  /** The job `id` as `principal` may see it; 404 for an unknown, expired or someone else's job. */
  private async visibleJob(id: string, principal: Principal): Promise<JobRecord> {
    const job = (await this.store.read(id))?.job;
    if (!job || (principal !== null && job.owner !== principal)) throw httpError('QUERY_JOB_NOT_FOUND', [id]);
    return job;
  }

  async status(id: string, principal: Principal): Promise<JobStatusView> {
    return this.storeCall(async () => statusView(await this.visibleJob(id, principal)));
  }

  /** A page of a completed job's result; 409 with the status while it is not COMPLETED. */
  async results(id: string, principal: Principal, offset: number, limit: number): Promise<ResultPage> {
    return this.storeCall(async () => {
      const job = await this.visibleJob(id, principal);
      if (job.status !== 'COMPLETED') {
        const why =
          job.status === 'RUNNING' ? 'is still running' : `is ${job.status}${job.error ? `: ${job.error}` : ''}`;
        throw httpError('QUERY_NOT_COMPLETED', [id, why], { status: job.status });
      }
      const header = await this.store.header(id);
      if (!header) throw httpError('QUERY_RESULTS_GONE', [id]);
      return readPage(header, offset, limit, this.store.chunks(id));
    });
  }

  /**
   * `DELETE /async/{id}`: cancels a waiting or running job (on whichever replica runs it), or removes a
   * finished one with its results. Answers the job's last status.
   */
  async delete(id: string, principal: Principal): Promise<JobStatusView> {
    return this.storeCall(async () => {
      const job = await this.visibleJob(id, principal);
      if (job.status !== 'RUNNING') {
        await this.store.remove(id);
        return statusView(job);
      }
      const cancelled = await settleJob(this.store, id, { status: 'CANCELLED', error: 'cancelled by request' }, {});
      // It finished meanwhile: remove it as a finished job.
      if (!cancelled) return this.delete(id, principal);
      const local = this.running.get(id);
      local?.abort(new QueryCancelled());
      // Another replica runs it: the cluster stops it now, before that replica sees the cancel at its next renewal.
      if (!local && cancelled.engine_query_id) void this.engine.cancelQuery?.(cancelled.engine_query_id);
      await this.store.discardResult(id);
      return statusView(cancelled);
    });
  }

  /** Stores the cluster's id of a job's query, so its status shows it and any replica can cancel it there. */
  private async recordEngineQuery(id: string, engineQueryId: string): Promise<void> {
    await updateJob(this.store, id, (job) =>
      passesGuard(job, { replica: this.replica }) ? { ...job, engine_query_id: engineQueryId } : undefined,
    ).catch((error: unknown) => this.log.error({ err: error, queryId: id }, 'could not store the Trino query id'));
  }

  /** Takes waiting jobs while this replica has idle workers. Calls that arrive meanwhile run once more after. */
  private pump(): void {
    if (this.closed) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = this.claimWhileIdle()
      .catch((error: unknown) => this.storeFailed(error))
      .finally(() => {
        this.claiming = undefined;
        if (this.claimAgain) {
          this.claimAgain = false;
          this.pump();
        }
      });
  }

  private async claimWhileIdle(): Promise<void> {
    while (!this.closed && this.running.size < this.settings.workers) {
      const job = await this.store.claim(this.replica, Date.now() + this.leaseMs, new Date().toISOString());
      if (!job) return;
      const controller = new AbortController();
      this.running.set(job.query_id, controller);
      void this.execute(job, controller)
        .catch((error: unknown) => this.storeFailed(error))
        .finally(() => {
          this.running.delete(job.query_id);
          this.pump();
        });
    }
  }

  private async execute(job: JobRecord, controller: AbortController): Promise<void> {
    const id = job.query_id;
    let settlement: Settlement;
    try {
      const {
        scans: _scans,
        bytes: _bytes,
        ...result
      } = await this.engine.run(job.query, {
        kind: 'async',
        maxRows: this.settings.maxRows,
        // Bounds the rows while they are converted, as for a synchronous query; encodeResult then measures
        // exactly what the store keeps.
        maxBytes: this.settings.maxResultBytes,
        timeoutMs: this.settings.timeoutMs,
        signal: controller.signal,
        onQueryId: (engineQueryId) => void this.recordEngineQuery(id, engineQueryId),
      });
      if (controller.signal.aborted) return;
      const { header, chunks } = encodeResult(result, {
        maxBytes: this.settings.maxResultBytes,
        maxRows: this.settings.maxRows,
      });
      await this.makeRoom(id, header.bytes);
      await this.store.writeChunks(id, chunks);
      if (!(await settleJob(this.store, id, { status: 'COMPLETED', error: null }, { replica: this.replica }, header)))
        await this.store.discardResult(id);
      return;
    } catch (error) {
      // A cancelled job already has its final status.
      if (controller.signal.aborted) return;
      const known = toHttpError(error);
      if (known?.code === 'RESULT_TOO_LARGE')
        settlement = {
          status: 'FAILED',
          error: `One row of the result is larger than async.max_result_size (${this.settings.maxResultBytes} bytes)`,
        };
      else if (known) settlement = { status: 'FAILED', error: known.detail };
      else {
        this.log.error({ err: error, queryId: id }, 'async query failed');
        settlement = { status: 'FAILED', error: 'internal error' };
      }
    }
    await this.store.discardResult(id);
    await settleJob(this.store, id, settlement, { replica: this.replica });
  }

  /**
   * Counts `bytes` for job `id`'s result within `max_stored_size` (store.reserve: atomic, so concurrent workers
   * and replicas never exceed it together), removing the oldest stored results until it fits. A job whose
   * result was removed stays, and its results answer QUERY_RESULTS_GONE.
   */
  private async makeRoom(id: string, bytes: number): Promise<void> {
    const max = this.settings.maxStoredBytes;
    while (!(await this.store.reserve(id, bytes, max))) {
      const [oldest] = await this.store.finished(Infinity, 1, true);
      if (!oldest) throw httpError('QUERY_RESULT_STORE_FULL', [bytes, await this.store.storedBytes(), max]);
      await this.store.discardResult(oldest);
    }
  }

  /** Runs a request's store work; a store that fails or does not answer is a 503 naming it. */
  private async storeCall<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.storeFailed(error);
      throw httpError('QUERY_JOB_STORE_UNAVAILABLE', [this.store.kind, (error as Error).message]);
    }
  }

  private storeFailed(error: unknown): void {
    if (Date.now() - this.lastStoreErrorAt < storeErrorLogIntervalMs) return;
    this.lastStoreErrorAt = Date.now();
    this.log.error({ reason: (error as Error).message, store: this.store.kind }, 'async job store failed');
  }

  /**
   * Stops the heartbeat and the workers and closes the store. Jobs running here are FAILED at once
   * ("interrupted by restart"), so no replica waits for their leases; waiting jobs stay queued and
   * run later.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.unwatch?.();
    clearInterval(this.heartbeat);
    clearInterval(this.sweeper);
    await this.claiming;
    const interrupted = [...this.running.keys()];
    for (const controller of this.running.values()) controller.abort(new Error('the server is shutting down'));
    try {
      for (const id of interrupted) {
        if (
          await settleJob(
            this.store,
            id,
            { status: 'FAILED', error: 'interrupted by restart' },
            { replica: this.replica },
          )
        )
          await this.store.discardResult(id);
      }
    } catch (error) {
      // Their leases lapse instead.
      this.storeFailed(error);
    }
    await this.store.close();
  }
}

import client from 'prom-client';
import { registry } from './metrics.js';

/** What a job runner tells the `query_jobs` gauge at a scrape. */
export interface JobCounts {
  /** Jobs waiting in the store for a worker (of every replica when the store is shared). */
  waiting(): Promise<number>;
  /** Jobs this replica's workers run now. */
  running(): number;
}

const sources = new Set<JobCounts>();
/** How long a scrape waits for the store's count of waiting jobs before it reports without it. */
const waitingTimeoutMs = 1000;

async function countWaiting(source: JobCounts): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitingTimeoutMs)));
  try {
    return await Promise.race([source.waiting(), late]);
  } catch {
    // A store that cannot be reached leaves the queued figure out of this scrape; the alerts see it absent.
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** Store operation buckets in seconds: a folder write to a slow shared store. */
const storeBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Async query jobs and their store. */
export const jobMetrics = {
  /**
   * Jobs by state from this replica's view, read at each scrape: `queued` is the store's count of waiting
   * jobs (shared by the replicas of a shared store), `running` the jobs this replica's workers run.
   */
  jobs: new client.Gauge({
    name: 'query_jobs',
    help: 'Async jobs by state (queued: waiting in the store; running: on this replica)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      let queued: number | undefined = 0;
      let running = 0;
      for (const source of sources) {
        const waiting = await countWaiting(source);
        queued = waiting === undefined || queued === undefined ? undefined : queued + waiting;
        running += source.running();
      }
      this.reset();
      if (queued !== undefined) this.set({ state: 'queued' }, queued);
      this.set({ state: 'running' }, running);
    },
  }),
  /** Jobs this replica moved to a final state: succeeded, failed, cancelled. */
  finished: new client.Counter({
    name: 'query_jobs_finished_total',
    help: 'Async jobs this replica moved to a final state, by state',
    labelNames: ['state'],
    registers: [registry],
  }),
  /** Job store calls by store kind (folder, redis, postgres) and operation (the store method). */
  storeLatency: new client.Histogram({
    name: 'query_job_store_seconds',
    help: 'Time one job store operation took, by store and operation',
    labelNames: ['store', 'operation'],
    buckets: storeBuckets,
    registers: [registry],
  }),
};

const finalStates: Record<string, string> = { COMPLETED: 'succeeded', FAILED: 'failed', CANCELLED: 'cancelled' };

/** Counts a job this replica moved to its final `status` (COMPLETED, FAILED or CANCELLED). */
export function countFinishedJob(status: string): void {
  const state = finalStates[status];
  if (state !== undefined) jobMetrics.finished.inc({ state });
}

/** Adds a job runner's counts to the `query_jobs` gauge; the returned function takes them out again. */
export function watchJobs(source: JobCounts): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/** Runs one job store operation and records its time, failed or not. */
export async function timeStoreCall<T>(store: string, operation: string, call: () => Promise<T>): Promise<T> {
  const end = jobMetrics.storeLatency.startTimer({ store, operation });
  try {
    return await call();
  } finally {
    end();
  }
}

import { countFinishedJob } from '../../observability/job-metrics.js';
import type { JobStatus } from '../../contract/index.js';
import type { JobRecord, ResultHeader } from './job-record.js';
import type { JobStore } from './job-store.js';

/** The final state a running job moves to. */
export interface Settlement {
  status: Exclude<JobStatus, 'RUNNING'>;
  error: string | null;
}

/**
 * Which running job a settlement applies to: one `replica` still holds, one whose lease ended
 * before `leaseEndedBefore`, or (no guard) any running job: a cancel.
 */
export interface SettleGuard {
  replica?: string;
  leaseEndedBefore?: number;
}

/** Whether a job may still settle under `guard`. */
export function passesGuard(job: JobRecord, guard: SettleGuard): boolean {
  if (job.status !== 'RUNNING') return false;
  if (guard.replica !== undefined && job.replica !== guard.replica) return false;
  if (guard.leaseEndedBefore !== undefined && (job.lease_until === null || job.lease_until >= guard.leaseEndedBefore))
    return false;
  return true;
}

/**
 * Applies `change` to a stored job atomically: reads it, computes the new record, and replaces it
 * only if nobody changed it meanwhile, else starts over. `change` answering undefined leaves the job
 * as it is; the answer is the record written, or undefined.
 */
export async function updateJob(
  store: JobStore,
  id: string,
  change: (job: JobRecord) => JobRecord | undefined,
  header?: ResultHeader,
): Promise<JobRecord | undefined> {
  for (;;) {
    const current = await store.read(id);
    const next = current && change(current.job);
    if (!current || !next) return undefined;
    if (await store.replace(id, current.version, next, header)) return next;
  }
}

/** Moves a running job that passes `guard` to its final state (counted in `query_jobs_finished_total`); undefined
 * when it had settled already or fails the guard. */
export async function settleJob(
  store: JobStore,
  id: string,
  settlement: Settlement,
  guard: SettleGuard,
  header?: ResultHeader,
): Promise<JobRecord | undefined> {
  const completed_at = new Date().toISOString();
  const settled = await updateJob(
    store,
    id,
    (job) => (passesGuard(job, guard) ? { ...job, ...settlement, completed_at, lease_until: null } : undefined),
    header,
  );
  if (settled) countFinishedJob(settlement.status);
  return settled;
}

/** Extends `replica`'s lease on a job; false when the replica no longer holds it (cancelled, or failed elsewhere). */
export async function renewLease(store: JobStore, id: string, replica: string, leaseUntil: number): Promise<boolean> {
  return (
    (await updateJob(store, id, (job) =>
      passesGuard(job, { replica }) ? { ...job, lease_until: leaseUntil } : undefined,
    )) !== undefined
  );
}

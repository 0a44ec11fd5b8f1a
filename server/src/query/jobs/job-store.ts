import type { JobRecord, ResultHeader } from './job-record.js';
import type { ChunkReader } from './result-chunks.js';

/** A job record with the version a {@link JobStore.replace} must name to change it. */
export interface VersionedJob {
  job: JobRecord;
  version: number;
}

/**
 * Where async jobs and their results live. The store offers atomic steps only: taking the next
 * waiting job, and replacing a record if nobody changed it since it was read (compare and set).
 * What a change means (settle once, renew a lease) is decided in one place, `job-updates.ts`, on top
 * of them; so several replicas sharing a store never both run a job, and a job settles once.
 */
export interface JobStore {
  /** `folder`, `redis` or `postgres`. */
  readonly kind: string;
  /** True when other replicas may share the store; false when this process owns it alone. */
  readonly shared: boolean;
  /** Stores a new waiting job at the end of the queue. */
  enqueue(job: JobRecord): Promise<void>;
  /** How many jobs wait for a worker, across every replica. */
  waiting(): Promise<number>;
  /** Takes the oldest waiting job for `replica`, in one atomic step: started now, held until `leaseUntil`. */
  claim(replica: string, leaseUntil: number, startedAt: string): Promise<JobRecord | undefined>;
  read(id: string): Promise<VersionedJob | undefined>;
  /**
   * Replaces a record if its version is still `version`; `header` is stored with a COMPLETED job.
   * False when someone else changed (or removed) it first.
   */
  replace(id: string, version: number, job: JobRecord, header?: ResultHeader): Promise<boolean>;
  /** Running jobs whose lease ended before `now`. */
  lapsed(now: number): Promise<string[]>;
  /**
   * Counts `bytes` as job `id`'s stored result if, with every other job's, they stay within `maxStored`, in one
   * atomic step against every other writer (replicas included); false, and nothing counted, when they do not.
   * The job's result then counts from before its chunks are written until it is discarded or removed.
   */
  reserve(id: string, bytes: number, maxStored: number): Promise<boolean>;
  /** Stores the chunks of a result (before the job settles with its header). */
  writeChunks(id: string, chunks: readonly string[]): Promise<void>;
  /** Removes the chunks and header of a job that did not complete. */
  discardResult(id: string): Promise<void>;
  /** The header of a COMPLETED job's result. */
  header(id: string): Promise<ResultHeader | undefined>;
  /** Reads a range of a result's chunks. */
  chunks(id: string): ChunkReader;
  /**
   * Finished jobs that completed before `before`, oldest first, at most `limit`; with `withResult`,
   * only those that still hold a stored result of at least one byte.
   */
  finished(before: number, limit: number, withResult?: boolean): Promise<string[]>;
  /** Bytes of every stored result together. */
  storedBytes(): Promise<number>;
  /** Removes a job and its result (nothing happens when it is gone already). */
  remove(id: string): Promise<void>;
  close(): Promise<void>;
}

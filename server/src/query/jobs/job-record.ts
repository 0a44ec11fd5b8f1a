import type { JobStatusView, ResultColumn } from '../../contract/index.js';

/**
 * One async query as a store keeps it: the status document ({@link JobStatusView}) plus the query, who
 * owns it and, once a worker has claimed it, which replica runs it and until when its lease holds.
 */
export interface JobRecord extends JobStatusView {
  query: string;
  /** The authenticated subject that submitted the job; null when authentication is off. */
  owner: string | null;
  /** The replica running the job; null while it waits. */
  replica: string | null;
  /** Milliseconds since the epoch until which `replica` holds the job; null while it waits. */
  lease_until: number | null;
}

/** The served part of a record: never the query text, the owner or the lease. */
export const statusView = ({
  query_id,
  status,
  submitted_at,
  started_at,
  completed_at,
  error,
  engine_query_id,
}: JobRecord): JobStatusView => ({
  query_id,
  status,
  submitted_at,
  started_at,
  completed_at,
  error,
  ...(engine_query_id ? { engine_query_id } : {}),
});

/** A new job, waiting for a worker. */
export function waitingJob(query_id: string, query: string, owner: string | null, now: Date): JobRecord {
  return {
    query_id,
    status: 'RUNNING',
    submitted_at: now.toISOString(),
    started_at: null,
    completed_at: null,
    error: null,
    query,
    owner,
    replica: null,
    lease_until: null,
  };
}

/**
 * What is stored beside a result's rows. The rows are kept in chunks (a JSON array of rows each);
 * `chunk_starts[i]` is the index of chunk i's first row and `chunk_bytes[i]` its size, so a page
 * reads only the chunks it covers.
 */
export interface ResultHeader {
  columns: ResultColumn[];
  /** Rows stored. */
  row_count: number;
  truncated: boolean;
  /** Which limit cut the result short, when `truncated`. */
  truncated_reason?: string;
  elapsed_ms: number;
  chunk_starts: number[];
  chunk_bytes: number[];
  /** Bytes of all chunks together: what counts against the async byte limits. */
  bytes: number;
}

const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `id` has the form of a job id: anything else never reaches a store. */
export const isJobId = (id: string): boolean => idPattern.test(id);

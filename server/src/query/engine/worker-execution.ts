import duckdb from '@duckdb/node-bindings';
import type { DuckDBConnection, DuckDBPendingResult, DuckDBResult } from '@duckdb/node-api';

/** The longest pause between two looks at a query's state: what a large query may answer later than it could. */
const MAX_POLL_MS = 8;

/** States in which DuckDB's workers are still computing and this thread has nothing to do. */
const COMPUTING = new Set([duckdb.PendingState.RESULT_NOT_READY, duckdb.PendingState.NO_TASKS_AVAILABLE]);

/**
 * Starts `sql` on `connection` and waits, without computing any of it on this thread or libuv's pool, until
 * DuckDB's own worker threads have its result ready to stream (or have failed); then the streaming result.
 * The connection's instance must have worker threads (`external_threads = 0`, `threads` at least 1), or nothing
 * computes: the wait also ends when `signal` aborts. Large queries run this way so that all their work runs on
 * threads of their own, whose priority is lowered when the query reads no source (low-priority-threads.ts; a
 * source's rows flow through these workers, and lowered they would lose to the source's own processes), while the
 * steps of a short query still run on the pool at normal priority. Reading the rows afterwards may compute the
 * last pipeline's rows on the pool again (DuckDB refills a streaming result's buffer on the reading thread).
 */
export async function resultFromWorkers(
  connection: DuckDBConnection,
  sql: string,
  signal: AbortSignal,
): Promise<DuckDBResult> {
  const pending = await connection.startStream(sql);
  const handle = (pending as unknown as { pending_result: duckdb.PendingResult }).pending_result;
  let pause = 0;
  let state = duckdb.pending_execute_check_state(handle);
  while (COMPUTING.has(state)) {
    if (signal.aborted) throw signal.reason;
    await new Promise((resolve) => setTimeout(resolve, pause));
    // Small queries answer on the first looks; a long one is looked at every few ms, not thousands of times.
    pause = Math.min(MAX_POLL_MS, Math.max(1, pause * 2));
    state = duckdb.pending_execute_check_state(handle);
  }
  // The C API reports a query its workers finished (not only one that failed) as ERROR; only a failure has a message.
  const failure = state === duckdb.PendingState.ERROR ? duckdb.pending_error(handle) : '';
  if (failure) throw new Error(failure);
  return (pending as DuckDBPendingResult).getResult();
}

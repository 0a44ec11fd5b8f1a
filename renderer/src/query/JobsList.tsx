import { useEffect, useRef } from 'react';
import type { AsyncSubmission, JobStatusView } from '../../../server/src/contract/index.js';
import { queryApi } from './query-api.js';

/**
 * An async job submitted from this console, with the query it runs: what `POST /async` answered, and
 * the rest of the status document once a status or cancel answer has arrived.
 */
export type TrackedJob = AsyncSubmission & Partial<JobStatusView> & { query: string };

const pollMs = 1000;

type JobsUpdate = (update: (jobs: TrackedJob[]) => TrackedJob[]) => void;

/** Polls the status of the running jobs (while the console is open, whichever sidebar tab shows). */
export function useJobPolling(jobs: TrackedJob[], onChange: JobsUpdate): void {
  const running = jobs.filter((j) => j.status === 'RUNNING').map((j) => j.query_id);
  const key = running.join(',');
  const change = useRef(onChange);
  change.current = onChange;

  useEffect(() => {
    if (!key) return;
    const ids = key.split(',');
    const timer = setInterval(() => {
      for (const id of ids) {
        queryApi.status(id).then(
          (state) => change.current((list) => list.map((j) => (j.query_id === id ? { ...j, ...state } : j))),
          (e: Error) =>
            change.current((list) =>
              list.map((j) => (j.query_id === id ? { ...j, status: 'FAILED', error: e.message } : j)),
            ),
        );
      }
    }, pollMs);
    return () => clearInterval(timer);
  }, [key]);
}

/** The async jobs of this console: cancel a running one, open the results of a finished one. */
export function JobsList({
  jobs,
  onChange,
  onOpen,
}: {
  jobs: TrackedJob[];
  onChange: JobsUpdate;
  onOpen(job: TrackedJob): void;
}) {
  const cancel = (job: TrackedJob) =>
    queryApi.cancel(job.query_id).then(
      (state) => onChange((list) => list.map((j) => (j.query_id === job.query_id ? { ...j, ...state } : j))),
      (e: Error) => onChange((list) => list.map((j) => (j.query_id === job.query_id ? { ...j, error: e.message } : j))),
    );

  if (jobs.length === 0) return <div className="placeholder">Tick Async and run a query to submit a job.</div>;
  return (
    <ul className="query-jobs" aria-label="Async jobs">
      {jobs.map((job) => (
        <li key={job.query_id} data-status={job.status}>
          <div className="job-head">
            <span className={`job-status ${job.status.toLowerCase()}`}>{job.status}</span>
            <code title={job.query_id}>{job.query_id.slice(0, 8)}</code>
            <span className="spacer" />
            {job.status === 'RUNNING' && (
              <button type="button" onClick={() => void cancel(job)}>
                Cancel
              </button>
            )}
            {job.status === 'COMPLETED' && (
              <button type="button" onClick={() => onOpen(job)}>
                Open results
              </button>
            )}
          </div>
          <div className="history-query">{job.query}</div>
          {job.error && <div className="error-text">{job.error}</div>}
        </li>
      ))}
    </ul>
  );
}

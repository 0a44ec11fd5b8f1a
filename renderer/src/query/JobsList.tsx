import { useEffect, useEffectEvent } from 'react';
import type { AsyncSubmission, JobStatusView } from '../../../server/src/contract/index.js';
import { queryApi } from './query-api.js';

/**
 * An async job submitted from this console, with the query it runs: what `POST /async` answered, and
 * the rest of the status document once a status or cancel answer has arrived.
 */
export type TrackedJob = AsyncSubmission & Partial<JobStatusView> & { query: string };

const pollMs = 1000;

type JobsUpdate = (update: (jobs: TrackedJob[]) => TrackedJob[]) => void;

/** The jobs with what the server said about job `id` merged into its entry. */
function withChange(jobs: TrackedJob[], id: string, change: Partial<TrackedJob>): TrackedJob[] {
  return jobs.map((j) => (j.query_id === id ? { ...j, ...change } : j));
}

/** Polls the status of the running jobs (while the console is open, whichever sidebar tab shows). */
export function useJobPolling(jobs: TrackedJob[], onChange: JobsUpdate): void {
  const running = jobs.filter((j) => j.status === 'RUNNING').map((j) => j.query_id);
  const key = running.join(',');
  const update = useEffectEvent((id: string, change: Partial<TrackedJob>) =>
    onChange((list) => withChange(list, id, change)),
  );

  useEffect(() => {
    if (!key) return;
    const ids = key.split(',');
    const timer = setInterval(() => {
      for (const id of ids) {
        queryApi.status(id).then(
          (state) => update(id, state),
          (e: Error) => update(id, { status: 'FAILED', error: e.message }),
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
  const update = (id: string, change: Partial<TrackedJob>) => onChange((list) => withChange(list, id, change));
  const cancel = (job: TrackedJob) =>
    queryApi.cancel(job.query_id).then(
      (state) => update(job.query_id, state),
      (e: Error) => update(job.query_id, { error: e.message }),
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

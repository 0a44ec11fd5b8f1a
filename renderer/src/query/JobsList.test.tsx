// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../platform/workbench.test-support.js';
import { JobsList, useJobPolling, type TrackedJob } from './JobsList.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const job = (id: string, over: Partial<TrackedJob> = {}): TrackedJob => ({
  query_id: `${id}-0000-0000`,
  status: 'RUNNING',
  submitted_at: '2026-11-29T00:00:00Z',
  query: `SELECT ${id}`,
  ...over,
});

/** The console's jobs: listed, polled while running, with `onOpen` spied. */
function renderJobs(jobs: TrackedJob[]) {
  const onOpen = vi.fn();
  function Harness() {
    const [list, setList] = useState(jobs);
    useJobPolling(list, setList);
    return <JobsList jobs={list} onChange={setList} onOpen={onOpen} />;
  }
  render(<Harness />);
  return onOpen;
}

const statuses = () => screen.getAllByRole('listitem').map((item) => item.getAttribute('data-status'));

describe('JobsList', () => {
  it('says how to submit a job when there is none', () => {
    renderJobs([]);
    expect(screen.getByText('Tick Async and run a query to submit a job.')).toBeTruthy();
  });

  it('polls the running jobs every second until they finish, and opens a finished one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let done = false;
    const { calls } = fakeServer({
      'GET /api/v1/query/async/a-0000-0000/status': () => ({
        query_id: 'a-0000-0000',
        status: done ? 'COMPLETED' : 'RUNNING',
        error: null,
      }),
      'GET /api/v1/query/async/b-0000-0000/status': () => ({
        status: 404,
        body: { detail: 'no such job', code: 'QUERY_JOB_NOT_FOUND' },
      }),
    });
    const onOpen = renderJobs([job('a'), job('b'), job('c', { status: 'COMPLETED' })]);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(statuses()).toEqual(['RUNNING', 'FAILED', 'COMPLETED']);
    expect(screen.getByText('no such job')).toBeTruthy();
    done = true;
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(statuses()).toEqual(['COMPLETED', 'FAILED', 'COMPLETED']);
    // Nothing runs any more: no more polls.
    const polls = calls.length;
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(calls.length).toBe(polls);
    fireEvent.click(screen.getAllByRole('button', { name: 'Open results' })[0]);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ query_id: 'a-0000-0000', query: 'SELECT a' }));
  });

  it('cancels a running job and shows what the server said', async () => {
    fakeServer({
      'DELETE /api/v1/query/async/a-0000-0000': () => ({ query_id: 'a-0000-0000', status: 'CANCELLED', error: null }),
    });
    renderJobs([job('a')]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('CANCELLED')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});

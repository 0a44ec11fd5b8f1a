// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SqlResult } from '../../../server/src/contract/index.js';
import { WorkbenchContext } from '../platform/workbench-context.js';
import { fakeServer, testWorkbench, type FakeCall } from '../platform/workbench.test-support.js';
import { cancelRun, useQueryRuns, type QueryRunsOptions } from './query-runs.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const one = (n: number): SqlResult => ({
  columns: [{ name: 'n', type: 'INTEGER' }],
  rows: [{ n }],
  row_count: 1,
  truncated: false,
  elapsed_ms: 2,
});

/**
 * The console's runs of `text`, over a server that answers `SELECT <n>` and refuses anything else at line 1, column 8
 * (`routes` add to it or replace its answers).
 */
function renderRuns(
  text: string,
  options: Partial<QueryRunsOptions> = {},
  routes: Parameters<typeof fakeServer>[0] = {},
) {
  const server = fakeServer({
    'POST /api/v1/query/sql': ({ body }: FakeCall) => {
      const match = /^SELECT (\d+)$/.exec((body as { query: string }).query);
      return match
        ? one(Number(match[1]))
        : { status: 400, body: { detail: 'column "x" not found', code: 'QUERY_INVALID', line: 1, column: 8 } };
    },
    'POST /api/v1/query/async': ({ body }: FakeCall) => ({
      query_id: `job-${(body as { query: string }).query.slice(-1)}`,
      status: 'RUNNING',
      submitted_at: '',
    }),
    ...routes,
  });
  const workbench = testWorkbench();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <WorkbenchContext.Provider value={workbench}>{children}</WorkbenchContext.Provider>
  );
  const all: QueryRunsOptions = {
    mode: 'sql',
    text,
    runAsync: false,
    catalog: { sources: [], tables: {}, columns: {} },
    learn: vi.fn(() => Promise.resolve(undefined)),
    onSubmitted: vi.fn(),
    ...options,
  };
  const hook = renderHook(() => useQueryRuns(all), { wrapper });
  return { ...server, ...hook, options: all, workbench };
}

describe('useQueryRuns', () => {
  it('runs one statement, shows its result and records it in the history', async () => {
    const { result } = renderRuns('SELECT 1');
    await act(() => result.current.run());
    expect(result.current.outcome.result?.rows).toEqual([{ n: 1 }]);
    expect(result.current.outcome.ranText).toBe('SELECT 1');
    expect(result.current.history.map((h) => [h.query, h.ok, h.rowCount])).toEqual([['SELECT 1', true, 1]]);
  });

  it('runs a script statement by statement, stopping at the first that fails, marked in the whole text', async () => {
    const { result, calls } = renderRuns('SELECT 1;\nSELECT x;\nSELECT 3');
    await act(() => result.current.run());
    const { script, errorAt } = result.current.outcome;
    expect(script?.map((s) => [s.statement, s.outcome.result?.row_count ?? s.outcome.error ?? 'not run'])).toEqual([
      ['SELECT 1', 1],
      ['SELECT x', 'column "x" not found'],
      ['SELECT 3', 'not run'],
    ]);
    // Line 1, column 8 of the second statement is line 2 of the text.
    expect(errorAt).toMatchObject({ line: 2, column: 8, mode: 'sql' });
    expect(calls.length).toBe(2);
  });

  it('runs only the statement at the cursor when asked', async () => {
    const { result, calls } = renderRuns('SELECT 1;\nSELECT 2');
    await act(() => result.current.run({ cursor: 12, script: false }));
    expect(result.current.outcome.result?.rows).toEqual([{ n: 2 }]);
    expect(calls.map((c) => c.body)).toEqual([{ query: 'SELECT 2' }]);
  });

  it('submits each statement as an async job when asked, and says so', async () => {
    const { result, options, workbench } = renderRuns('SELECT 1;\nSELECT 2', { runAsync: true });
    await act(() => result.current.run());
    expect(result.current.jobs.map((j) => [j.query_id, j.query])).toEqual([
      ['job-2', 'SELECT 2'],
      ['job-1', 'SELECT 1'],
    ]);
    expect(options.onSubmitted).toHaveBeenCalledTimes(2);
    expect(workbench.notify).toHaveBeenCalledWith('Query job-2 submitted');
  });

  it('shows a cancelled run as cancelled', async () => {
    const { result } = renderRuns('SELECT 1', {}, { 'POST /api/v1/query/sql': () => new Promise(() => undefined) });
    let done: Promise<void> | undefined;
    act(() => {
      done = result.current.run();
    });
    await waitFor(() => expect(result.current.outcome.running).toBe(true));
    act(() => {
      expect(cancelRun(result.current.outcome.runId!)).toBe(true);
    });
    await act(() => done!);
    expect(result.current.outcome.cancelled).toBe(true);
    expect(cancelRun(result.current.outcome.runId ?? '1')).toBe(false);
  });

  it('keeps the candidates of an ambiguous question and asks again with the one picked', async () => {
    const routes = {
      'POST /api/v1/query/natural-language': ({ body }: FakeCall) =>
        (body as { prefer?: string[] }).prefer
          ? {
              answer: 'Aarhus has 3 customers.',
              generated_query: 'SELECT 3',
              results: [{ n: 3 }],
              columns: [{ name: 'n', type: 'INTEGER' }],
            }
          : {
              status: 422,
              body: { detail: 'Which town?', code: 'NL_AMBIGUOUS', candidates: ['customers.town', 'stores.town'] },
            },
    };
    const { result, calls } = renderRuns('customers in Aarhus', { mode: 'nl' }, routes);
    await act(() => result.current.run());
    expect(result.current.outcome).toMatchObject({
      error: 'Which town?',
      candidates: ['customers.town', 'stores.town'],
    });
    await act(() => result.current.pick('stores.town'));
    expect(result.current.outcome.answer).toBe('Aarhus has 3 customers.');
    expect(calls.at(-1)?.body).toEqual({ question: 'customers in Aarhus', prefer: ['stores.town'] });
  });
});

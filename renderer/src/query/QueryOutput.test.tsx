// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SqlResult } from '../../../server/src/contract/index.js';
import { fakeServer } from '../platform/workbench.test-support.js';
import { QueryOutput, shownStep, type QueryOutputProps } from './QueryOutput.js';
import type { Outcome, ScriptStep } from './query-runs.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const rows = (count: number, offset = 0): SqlResult => ({
  columns: [{ name: 'n', type: 'INTEGER' }],
  rows: Array.from({ length: count }, (_, i) => ({ n: offset + i + 1 })),
  row_count: count,
  truncated: false,
  elapsed_ms: 1,
});

function renderOutput(outcome: Outcome, props: Partial<QueryOutputProps> = {}) {
  render(<QueryOutput outcome={outcome} view="grid" onNotify={vi.fn()} {...props} />);
}

const step = (statement: string, outcome: Outcome): ScriptStep => ({ statement, outcome });

describe('QueryOutput of one run', () => {
  it('invites a first run, and shows a run in progress with its elapsed time', () => {
    vi.useFakeTimers({ now: 10_000 });
    renderOutput({});
    expect(screen.getByText('Run a query to see its rows here.')).toBeTruthy();
    cleanup();
    renderOutput({ running: true, startedAt: 8_500, runId: 'r1' });
    act(() => vi.advanceTimersByTime(300));
    expect(screen.getByRole('status').textContent).toBe('Running… 1.8 s Cancel');
  });

  it("marks an error of text changed since it ran as stale, and asks an ambiguous question's pick again", () => {
    const onPick = vi.fn();
    renderOutput(
      { error: 'column "regon" not found', candidates: ['shop.region', 'crm.region'] },
      { stale: true, onPick },
    );
    const alert = screen.getByRole('alert');
    expect(alert.className).toContain('stale');
    expect(alert.textContent).toMatch(/^Stale \(the query changed since it ran\): column "regon" not found/);
    fireEvent.click(screen.getByRole('button', { name: 'crm.region' }));
    expect(onPick).toHaveBeenCalledWith('crm.region');
  });

  it("shows a question's answer with its SQL, offered for editing", () => {
    const onEditSql = vi.fn();
    renderOutput(
      { answer: 'There are 3 orders.', generatedQuery: 'SELECT count(*) FROM shop.orders', result: rows(1) },
      { onEditSql },
    );
    expect(screen.getByRole('note').textContent).toContain('There are 3 orders.SELECT count(*) FROM shop.orders');
    fireEvent.click(screen.getByRole('button', { name: 'Edit in SQL' }));
    expect(onEditSql).toHaveBeenCalledWith('SELECT count(*) FROM shop.orders');
    expect(screen.getByRole('grid')).toBeTruthy();
  });

  it("reads an EXPLAIN's answer as a plan", () => {
    const explain: SqlResult = {
      columns: [
        { name: 'explain_key', type: 'VARCHAR' },
        { name: 'explain_value', type: 'VARCHAR' },
      ],
      rows: [
        {
          explain_key: 'physical_plan',
          explain_value: JSON.stringify([{ name: 'PROJECTION', children: [], extra_info: {} }]),
        },
      ],
      row_count: 1,
      truncated: false,
      elapsed_ms: 1,
    };
    renderOutput({ result: explain });
    expect(screen.getByRole('tree', { name: 'Query plan' })).toBeTruthy();
    expect(screen.queryByRole('grid')).toBeNull();
  });
});

describe('QueryOutput of a script or a job', () => {
  it('gives a script one tab per statement, opening on the one that failed, moved with the arrow keys', () => {
    const script = [
      step('SELECT 1', { result: rows(1) }),
      step('SELECT nope', { error: 'column nope not found' }),
      step('SELECT 3', {}),
    ];
    expect(shownStep(script, undefined)).toBe(1);
    function Harness() {
      const [chosen, setChosen] = useState<number>();
      return (
        <QueryOutput
          outcome={{ script }}
          step={shownStep(script, chosen)}
          onStep={setChosen}
          view="grid"
          onNotify={vi.fn()}
        />
      );
    }
    render(<Harness />);
    const tabs = () =>
      screen.getAllByRole('tab').map((t) => `${t.textContent}${t.getAttribute('aria-selected') === 'true' ? '*' : ''}`);
    expect(tabs()).toEqual(['1. 1 row', '2. Error*', '3. Not run']);
    expect(screen.getByRole('alert').textContent).toBe('column nope not found');
    fireEvent.keyDown(screen.getByRole('tab', { name: '2. Error' }), { key: 'ArrowRight' });
    expect(screen.getByText('Not run: an earlier statement failed or the script was cancelled.')).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('tab', { name: '3. Not run' }), { key: 'ArrowRight' });
    expect(tabs()[0]).toBe('1. 1 row*');
  });

  it("reads the other pages of an async job's stored result from the server", async () => {
    const { calls } = fakeServer({
      'GET /api/v1/query/async/job-1/results': () => ({ ...rows(1000, 1000), offset: 1000, total_row_count: 2500 }),
    });
    renderOutput({ jobId: 'job-1', result: { ...rows(1000), offset: 0, total_row_count: 2500 } as SqlResult });
    fireEvent.click(screen.getByLabelText('Next page'));
    expect(await screen.findByText('Page 2 of 3 · rows 1001–2000 of 2500')).toBeTruthy();
    expect(calls[0].url).toBe('/api/v1/query/async/job-1/results?offset=1000&limit=1000');
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuerySidebar, type QuerySidebarProps } from './QuerySidebar.js';

afterEach(cleanup);

function renderSidebar(props: Partial<QuerySidebarProps>) {
  const all: QuerySidebarProps = {
    tab: 'sources',
    onTab: vi.fn(),
    sources: [],
    catalog: { sources: [], tables: {}, columns: {} },
    onRefreshSources: vi.fn(),
    onLearn: vi.fn(),
    onInsert: vi.fn(),
    history: [],
    onOpenQuery: vi.fn(),
    jobs: [],
    onJobsChange: vi.fn(),
    onOpenJob: vi.fn(),
    ...props,
  };
  render(<QuerySidebar {...all} />);
  return all;
}

describe('QuerySidebar', () => {
  it('switches tabs, and counts the jobs on their tab', () => {
    const props = renderSidebar({
      jobs: [{ query_id: 'a', status: 'RUNNING', submitted_at: '', query: 'SELECT 1' }],
    });
    expect(screen.getByRole('tab', { name: 'Sources' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: /^Jobs/ }).textContent).toBe('Jobs1');
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    expect(props.onTab).toHaveBeenCalledWith('history');
    expect(screen.getByText('0 sources')).toBeTruthy();
  });

  it('lists what was run, newest first, with its kind and rows, and puts a query back in its editor', () => {
    const at = Date.UTC(2026, 10, 29, 1, 2, 3);
    const props = renderSidebar({
      tab: 'history',
      history: [
        { kind: 'sparql', query: 'SELECT ?s WHERE { ?s ?p ?o }', at, ok: false },
        { kind: 'sql', query: 'SELECT 1', at: at - 1000, ok: true, rowCount: 1 },
      ],
    });
    const entries = screen.getAllByRole('button', { name: /SELECT/ });
    expect(entries[0].querySelector('.dot')?.className).toBe('dot error');
    expect(entries[1].textContent).toMatch(/^SELECT 1SQL · \d\d:\d\d:\d\d · 1 rows$/);
    fireEvent.click(entries[0]);
    expect(props.onOpenQuery).toHaveBeenCalledWith('sparql', 'SELECT ?s WHERE { ?s ?p ?o }');
  });

  it('says when nothing has been run', () => {
    renderSidebar({ tab: 'history' });
    expect(screen.getByText('Nothing run yet.')).toBeTruthy();
  });
});

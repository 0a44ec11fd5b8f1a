// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryToolbar, type QueryToolbarProps } from './QueryToolbar.js';

afterEach(cleanup);

function renderToolbar(props: Partial<QueryToolbarProps> = {}) {
  const all: QueryToolbarProps = {
    mode: 'sql',
    modes: ['sql', 'sparql', 'nl'],
    onMode: vi.fn(),
    hasQuery: true,
    outcome: {},
    onRun: vi.fn(),
    onExplain: vi.fn(),
    runAsync: false,
    onRunAsync: vi.fn(),
    view: 'grid',
    onView: vi.fn(),
    wrap: false,
    onWrap: vi.fn(),
    maximised: false,
    onMaximise: vi.fn(),
    onSaveAs: vi.fn(),
    ...props,
  };
  render(<QueryToolbar {...all} />);
  return all;
}

const tabs = (label: string) => screen.getAllByRole('tab').filter((tab) => tab.closest(`[aria-label="${label}"]`));

describe('QueryToolbar', () => {
  it("offers the tab's kinds with the chosen one selected, and the SQL-only Async switch", () => {
    const props = renderToolbar({ modes: ['sql', 'sparql'] });
    expect(tabs('Query language').map((t) => `${t.textContent}:${t.getAttribute('aria-selected')}`)).toEqual([
      'SQL:true',
      'SPARQL:false',
    ]);
    fireEvent.click(screen.getByRole('tab', { name: 'SPARQL' }));
    expect(props.onMode).toHaveBeenCalledWith('sparql');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Async' }));
    expect(props.onRunAsync).toHaveBeenCalledWith(true);
    expect(screen.queryByRole('button', { name: 'Show SQL' })).toBeNull();
  });

  it('shows SPARQL its translation, and keeps a question from being saved', () => {
    const sparql = renderToolbar({ mode: 'sparql' });
    fireEvent.click(screen.getByRole('button', { name: 'Show SQL' }));
    expect(sparql.onExplain).toHaveBeenCalled();
    expect(screen.queryByRole('checkbox')).toBeNull();
    cleanup();
    renderToolbar({ mode: 'nl' });
    const save = screen.getByRole('button', { name: 'Save query as…' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(save.title).toBe('A question is not saved; its SQL can be');
  });

  it('cannot run while running or with nothing to run, and gives the statistics of a result', () => {
    renderToolbar({ outcome: { running: true } });
    expect((screen.getByRole('button', { name: 'Running…' }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    renderToolbar({ hasQuery: false });
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    renderToolbar({
      outcome: {
        source: 'shop',
        result: { columns: [], rows: [], row_count: 430, truncated: true, elapsed_ms: 12 },
      },
    });
    expect(screen.getByLabelText('Result statistics').textContent).toBe('shop · 430 rows (truncated) · 12 ms');
  });

  it('toggles wrap and maximise with their pressed state, and switches the result view', () => {
    const props = renderToolbar({ wrap: true, maximised: true, view: 'chart' });
    expect(screen.getByRole('button', { name: 'Wrap' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
    expect(props.onMaximise).toHaveBeenCalled();
    expect(screen.getByRole('tab', { name: 'Chart' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Grid' }));
    expect(props.onView).toHaveBeenCalledWith('grid');
  });
});

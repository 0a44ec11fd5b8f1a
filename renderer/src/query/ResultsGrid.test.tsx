// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SqlResult } from '../../../server/src/contract/index.js';
import { ResultsGrid, type StoredPages } from './ResultsGrid.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A result of `count` rows: `id` 1..count and a `name` that sorts the other way. */
const result = (count: number): SqlResult => ({
  columns: [
    { name: 'id', type: 'INTEGER' },
    { name: 'name', type: 'VARCHAR' },
  ],
  rows: Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: i === 1 ? null : `n${String(count - i).padStart(4, '0')}`,
  })),
  row_count: count,
  truncated: false,
  elapsed_ms: 1,
});

/** The text of each row in view: its number, then its cells. */
const shownRows = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.children].map((cell) => cell.textContent).join('|'));

const position = () =>
  screen.getByRole('navigation', { name: 'Result pages' }).querySelector('.page-position')?.textContent;

describe('ResultsGrid', () => {
  it('shows NULL in its own style, and sorts by a header (NULLs last): up, down, then as it came', () => {
    render(<ResultsGrid result={result(3)} onNotify={vi.fn()} />);
    expect(shownRows()).toEqual(['1|1|n0003', '2|2|NULL', '3|3|n0001']);
    expect(screen.getByText('NULL').className).toContain('null');
    const name = screen.getByRole('columnheader', { name: /^name/ });
    fireEvent.click(name);
    expect(name.getAttribute('aria-sort')).toBe('ascending');
    expect(shownRows().map((r) => r.split('|')[2])).toEqual(['n0001', 'n0003', 'NULL']);
    fireEvent.click(name);
    expect(name.getAttribute('aria-sort')).toBe('descending');
    expect(shownRows().map((r) => r.split('|')[2])).toEqual(['n0003', 'n0001', 'NULL']);
    fireEvent.click(name);
    expect(shownRows()).toEqual(['1|1|n0003', '2|2|NULL', '3|3|n0001']);
  });

  it('pages a result held whole, and keeps the row numbers of the whole result', () => {
    render(<ResultsGrid result={result(250)} onNotify={vi.fn()} />);
    expect(position()).toBe('Page 1 of 3 · rows 1–100 of 250');
    expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe('251');
    fireEvent.click(screen.getByLabelText('Last page'));
    expect(position()).toBe('Page 3 of 3 · rows 201–250 of 250');
    expect(shownRows()[0]).toBe('201|201|n0050');
    expect((screen.getByLabelText('Next page') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '500' } });
    expect(position()).toBe('Page 1 of 1 · rows 1–250 of 250');
  });

  it("reads a stored result's other pages from the server", () => {
    const onPage = vi.fn();
    const stored: StoredPages = { offset: 100, limit: 100, total: 1000, loading: false, onPage };
    render(<ResultsGrid result={result(100)} onNotify={vi.fn()} stored={stored} />);
    expect(position()).toBe('Page 2 of 10 · rows 101–200 of 1000');
    expect(shownRows()[0]).toBe('101|1|n0100');
    fireEvent.click(screen.getByLabelText('Next page'));
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '1000' } });
    expect(onPage.mock.calls).toEqual([
      [200, 100],
      [0, 1000],
    ]);
  });

  it('copies every row as sorted, or the selected one, as tab-separated text', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    const onNotify = vi.fn();
    render(<ResultsGrid result={result(3)} onNotify={onNotify} />);
    const toolbar = within(screen.getAllByRole('button', { name: 'Copy' })[0].parentElement!);
    expect((toolbar.getByRole('button', { name: 'Copy row' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getAllByRole('row')[3]);
    fireEvent.click(toolbar.getByRole('button', { name: 'Copy row' }));
    fireEvent.click(toolbar.getByRole('button', { name: 'Copy' }));
    await vi.waitFor(() => expect(onNotify).toHaveBeenCalledTimes(2));
    expect(writeText.mock.calls).toEqual([['3\tn0001'], ['id\tname\n1\tn0003\n2\t\n3\tn0001']]);
    expect(onNotify.mock.calls).toEqual([['Copied the row'], ['Copied 3 rows']]);
  });
});

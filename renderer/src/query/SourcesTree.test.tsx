// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, type FakeCall } from '../platform/workbench.test-support.js';
import { useCatalog } from './catalog-store.js';
import { SourcesTree } from './SourcesTree.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The tree over the catalog store, as the query sidebar puts them together. */
function Sources({ onInsert }: { onInsert(text: string): void }) {
  const { sources, error, catalog, refresh, learn } = useCatalog();
  return (
    <SourcesTree
      sources={sources}
      error={error}
      catalog={catalog}
      onRefresh={refresh}
      onLearn={learn}
      onInsert={onInsert}
    />
  );
}

/**
 * The tree over the catalog of a server with two sources: `shop` lists its `orders` table, `lake` lists
 * nothing (its tables are learnt by name: `events` exists, anything else does not).
 */
function renderSources() {
  const server = fakeServer({
    'GET /api/v1/query/sources': () => ({
      sources: [
        { name: 'shop', type: 'relational', description: 'The shop database' },
        { name: 'lake', type: 'object-storage', description: 'Parquet files' },
      ],
    }),
    'GET /api/v1/query/sources/shop/tables': () => ({
      tables: [{ name: 'orders', columns: [{ name: 'id', type: 'INTEGER' }] }],
    }),
    'GET /api/v1/query/sources/lake/tables': () => ({ status: 502, body: { detail: 'listing failed', code: 'X' } }),
    'POST /api/v1/query/sql': ({ body }: FakeCall) =>
      (body as { query: string }).query === 'SELECT * FROM lake.events LIMIT 0'
        ? { columns: [{ name: 'at', type: 'TIMESTAMP' }], rows: [], row_count: 0, truncated: false, elapsed_ms: 1 }
        : { status: 400, body: { detail: 'Table lake.nope does not exist', code: 'QUERY_UNKNOWN_TABLE' } },
  });
  const onInsert = vi.fn();
  render(<Sources onInsert={onInsert} />);
  return { ...server, onInsert };
}

const item = (name: string) => screen.getByRole('treeitem', { name });

describe('SourcesTree', () => {
  it('lists the sources, their listed tables and the columns with their types', async () => {
    const { onInsert } = renderSources();
    await screen.findByText('2 sources');
    fireEvent.click(item('shop'));
    expect(screen.getByText('The shop database')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('treeitem', { name: 'shop.orders' })).toBeTruthy());
    fireEvent.click(item('shop.orders'));
    expect(screen.getByText('id').parentElement?.textContent).toBe('id INTEGER');
    fireEvent.doubleClick(item('shop.orders'));
    fireEvent.doubleClick(screen.getByText('id'));
    expect(onInsert.mock.calls).toEqual([['shop.orders'], ['id']]);
  });

  it('learns a table the source does not list by name, and says why one cannot be found', async () => {
    renderSources();
    fireEvent.click(await screen.findByRole('treeitem', { name: 'lake' }));
    fireEvent.click(screen.getByRole('button', { name: '+ table by name' }));
    const table = screen.getByLabelText('Table of lake');
    fireEvent.change(table, { target: { value: 'nope' } });
    fireEvent.submit(table);
    expect(await screen.findByText('Table lake.nope does not exist')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Table of lake'), { target: { value: ' events ' } });
    fireEvent.submit(screen.getByLabelText('Table of lake'));
    fireEvent.click(await screen.findByRole('treeitem', { name: 'lake.events' }));
    expect(screen.getByText('at').parentElement?.textContent).toBe('at TIMESTAMP');
    expect(screen.queryByLabelText('Table of lake')).toBeNull();
  });

  it('shows why the sources cannot be listed, and lists them again on Refresh', async () => {
    let up = false;
    const { calls } = fakeServer({
      'GET /api/v1/query/sources': () =>
        up ? { sources: [] } : { status: 503, body: { detail: 'query service starting', code: 'X' } },
    });
    render(<Sources onInsert={vi.fn()} />);
    expect(await screen.findByText('query service starting')).toBeTruthy();
    up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.queryByText('query service starting')).toBeNull());
    expect(screen.getByText('0 sources')).toBeTruthy();
    expect(calls.length).toBe(2);
  });
});

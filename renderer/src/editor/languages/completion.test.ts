import { describe, expect, it } from 'vitest';
import { aliases, suggestions, type Catalog } from './completion.js';

const catalog: Catalog = {
  sources: ['shop', 'crm'],
  tables: { shop: ['orders', 'items'], crm: ['customers'] },
  columns: {
    'shop.orders': [
      { name: 'id', type: 'INTEGER' },
      { name: 'total', type: 'DOUBLE' },
    ],
    'crm.customers': [
      { name: 'id', type: 'VARCHAR' },
      { name: 'name', type: 'VARCHAR' },
    ],
  },
};

describe('aliases', () => {
  it('maps aliases, with or without AS, of tables of known sources', () => {
    const sql = 'select * from shop.orders o join crm.customers AS c on o.id = c.id';
    expect(Object.fromEntries(aliases(sql, catalog))).toEqual({ o: 'shop.orders', c: 'crm.customers' });
  });

  it('takes no keyword for an alias and no unknown source', () => {
    const sql = 'select * from shop.orders where 1=1 join other.t x on true; select * from shop.items join y';
    expect(Object.fromEntries(aliases(sql, catalog))).toEqual({});
  });
});

describe('suggestions', () => {
  it('after a source, its tables', () => {
    expect(suggestions(catalog, 'shop.', '')).toEqual([
      { label: 'orders', kind: 'table', detail: 'table of shop' },
      { label: 'items', kind: 'table', detail: 'table of shop' },
    ]);
  });

  it('after a table or an alias of one, its columns', () => {
    expect(suggestions(catalog, 'shop.orders.', '').map((s) => s.label)).toEqual(['id', 'total']);
    const viaAlias = suggestions(catalog, 'c.', 'select c. from crm.customers c');
    expect(viaAlias).toEqual([
      { label: 'id', kind: 'column', detail: 'VARCHAR · crm.customers' },
      { label: 'name', kind: 'column', detail: 'VARCHAR · crm.customers' },
    ]);
  });

  it('nothing after an unknown chain, or a table whose columns are not known yet', () => {
    expect(suggestions(catalog, 'nope.', '')).toEqual([]);
    expect(suggestions(catalog, 'shop.items.', '')).toEqual([]);
  });

  it('without a prefix: sources, qualified tables, each column name once, then keywords', () => {
    const all = suggestions(catalog, '', '');
    const kinds = all.map((s) => s.kind);
    expect(kinds.indexOf('keyword')).toBeGreaterThan(kinds.lastIndexOf('column'));
    expect(all.filter((s) => s.kind === 'source').map((s) => s.label)).toEqual(['shop', 'crm']);
    expect(all.filter((s) => s.kind === 'table').map((s) => s.label)).toEqual([
      'shop.orders',
      'shop.items',
      'crm.customers',
    ]);
    expect(all.filter((s) => s.kind === 'column').map((s) => s.label)).toEqual(['id', 'total', 'name']);
    expect(all.some((s) => s.label === 'SELECT' && s.kind === 'keyword')).toBe(true);
  });

  it('with an empty catalog, only keywords', () => {
    const all = suggestions({ sources: [], tables: {}, columns: {} }, '', '');
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((s) => s.kind === 'keyword')).toBe(true);
  });
});

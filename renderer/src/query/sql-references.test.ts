import { describe, expect, it } from 'vitest';
import { quoteIdentifier, tableReferences } from './sql-references.js';

describe('tableReferences', () => {
  const sources = ['Shop', 'crm'];

  it('finds <source>.<table> of known sources, source names case-insensitive, each pair once', () => {
    const sql = 'select * from shop.orders o join CRM.customers c on o.c = c.id join shop.ORDERS x on 1=1';
    expect(tableReferences(sql, sources)).toEqual([
      { source: 'Shop', table: 'ORDERS' },
      { source: 'crm', table: 'customers' },
    ]);
  });

  it('reads <source>.main.<table> and quoted identifiers', () => {
    expect(tableReferences('select * from shop.main.items, "crm"."Odd ""name"""', sources)).toEqual([
      { source: 'Shop', table: 'items' },
      { source: 'crm', table: 'Odd "name"' },
    ]);
  });

  it('ignores strings, comments, unknown sources and column references', () => {
    const sql = `select o.id, 'shop.fake' from other.t o -- shop.commented
      /* crm.blocked
         shop.too */ where x = 'it''s shop.quoted'`;
    expect(tableReferences(sql, sources)).toEqual([]);
  });

  it('does not take the tail of a longer dotted name', () => {
    expect(tableReferences('select * from db.shop.orders', sources)).toEqual([]);
  });

  it('copes with empty input and no sources', () => {
    expect(tableReferences('', sources)).toEqual([]);
    expect(tableReferences('select * from shop.orders', [])).toEqual([]);
  });
});

describe('quoteIdentifier', () => {
  it('leaves plain lower-case names and quotes the rest, doubling quotes', () => {
    expect(quoteIdentifier('orders_2024')).toBe('orders_2024');
    expect(quoteIdentifier('Orders')).toBe('"Orders"');
    expect(quoteIdentifier('1st')).toBe('"1st"');
    expect(quoteIdentifier('a "b"')).toBe('"a ""b"""');
    expect(quoteIdentifier('日本')).toBe('"日本"');
    expect(quoteIdentifier('')).toBe('""');
  });
});

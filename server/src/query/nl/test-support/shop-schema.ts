import type { SchemaContext, SchemaTable } from '../schema-context.js';

/** Customers of a small shop: text columns with sampled values, one with a quote inside. */
export const customers: SchemaTable = {
  source: 'shop',
  name: 'customers',
  key: 'shop.customers',
  columns: [
    { name: 'id', type: 'INTEGER', kind: 'number', values: [] },
    { name: 'name', type: 'VARCHAR', kind: 'text', values: ["O'Brien", 'Ada'] },
    { name: 'region', type: 'VARCHAR', kind: 'text', values: ['EU', 'NA'] },
    { name: 'signup_date', type: 'DATE', kind: 'date', values: [] },
  ],
};
/** Orders of the shop: a decimal amount, a timestamp, a status value that looks like SQL. */
export const orders: SchemaTable = {
  source: 'shop',
  name: 'orders',
  key: 'shop.orders',
  columns: [
    { name: 'id', type: 'INTEGER', kind: 'number', values: [] },
    { name: 'customer_id', type: 'INTEGER', kind: 'number', values: [] },
    { name: 'amount', type: 'DECIMAL(10,2)', kind: 'number', values: [] },
    { name: 'status', type: 'VARCHAR', kind: 'text', values: ['paid', 'shipped', "it's; DROP TABLE x"] },
    { name: 'ordered_at', type: 'TIMESTAMP', kind: 'date', values: [] },
  ],
};
/** The shop's two tables and the key between them, as the natural-language schema gives them. */
export const shopSchema: SchemaContext = {
  tables: [customers, orders],
  relationships: [
    { from: { table: 'shop.orders', column: 'customer_id' }, to: { table: 'shop.customers', column: 'id' } },
  ],
  synonyms: [],
};

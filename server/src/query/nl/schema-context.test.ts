import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineFor, setupFromText } from '../test-support/query-fixtures.js';
import { nlSettingsOf } from './nl-settings.js';
import type { SourceCatalog } from '../source-catalog.js';
import { buildSchemaContext, type SchemaContext } from './schema-context.js';

// A schema that prefixes every column with its table's abbreviation, and declares no foreign keys.
const ddl = `
CREATE TABLE sbCustomer (sbCustId VARCHAR, sbCustName VARCHAR, sbCustJoinDate DATE);
CREATE TABLE sbTicker (sbTickerId VARCHAR, sbTickerSymbol VARCHAR);
CREATE TABLE sbTransaction (sbTxId VARCHAR, sbTxCustId VARCHAR, sbTxTickerId VARCHAR, sbTxAmount DECIMAL(10, 2));
CREATE TABLE sbDailyPrice (sbDpTickerId VARCHAR, sbDpDate DATE, sbDpClose DECIMAL(10, 2));
CREATE TABLE notes (name VARCHAR, nationality VARCHAR);
CREATE TABLE customers (customer_id INTEGER, customer_name VARCHAR);
CREATE TABLE orders (order_id INTEGER, order_customer_id INTEGER, order_date DATE);
CREATE TABLE crew (crew_id INTEGER, name VARCHAR);
CREATE TABLE crew_vessel (crew_id INTEGER, vessel VARCHAR, tonnage INTEGER);
CREATE TABLE sailor (sailor_id INTEGER, name VARCHAR, crew_id INTEGER);
`;

describe('relationships inferred from names', () => {
  let dir: string;
  let schema: SchemaContext;
  let close: () => Promise<void>;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-nl-schema-'));
    const instance = await DuckDBInstance.create(path.join(dir, 'broker.duckdb'));
    const connection = await instance.connect();
    await connection.run(ddl);
    connection.closeSync();
    instance.closeSync();
    const setup = setupFromText(
      dir,
      'sources:\n  - name: broker\n    type: relational\n    connector: duckdb\n    path: broker.duckdb\n',
    );
    const opened = await engineFor(setup);
    close = opened.close;
    schema = await buildSchemaContext(
      opened.catalog,
      nlSettingsOf(undefined),
      (sql) => opened.engine.run(sql, { maxRows: 1000, timeoutMs: 5000 }),
      5000,
    );
  });
  afterAll(async () => {
    await close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'links a column named by its table prefix and another table leading identifier (sbTxCustId -> sbCustId, ' +
      'order_customer_id -> customer_id)',
    () => {
      const pairs = schema.relationships.map((r) => `${r.from.table}.${r.from.column} -> ${r.to.table}.${r.to.column}`);
      expect(pairs).toEqual(
        expect.arrayContaining([
          'broker.sbtransaction.sbTxCustId -> broker.sbcustomer.sbCustId',
          'broker.sbtransaction.sbTxTickerId -> broker.sbticker.sbTickerId',
          'broker.sbdailyprice.sbDpTickerId -> broker.sbticker.sbTickerId',
          'broker.orders.order_customer_id -> broker.customers.customer_id',
        ]),
      );
    },
  );

  it('reads a leading column named for another table as a reference to it, not as its own table key', () => {
    const touching = (table: string) =>
      schema.relationships
        .filter((r) => r.from.table === table || r.to.table === table)
        .map((r) => `${r.from.table}.${r.from.column} -> ${r.to.table}.${r.to.column}`);
    expect(touching('broker.crew_vessel')).toEqual(['broker.crew_vessel.crew_id -> broker.crew.crew_id']);
    expect(touching('broker.sailor')).toEqual(['broker.sailor.crew_id -> broker.crew.crew_id']);
  });

  it('reads no prefix into names that merely share letters (name, nationality)', () => {
    expect(
      schema.relationships.filter((r) => r.from.table === 'broker.notes' || r.to.table === 'broker.notes'),
    ).toEqual([]);
  });
});

describe('a source that does not list its tables', () => {
  it('is left out of the schema, with a warning naming it', async () => {
    const down = {
      definition: { name: 'crm' },
      connector: { listTables: () => Promise.reject(new Error('connection refused')) },
    };
    const catalog = { list: () => [down] } as unknown as SourceCatalog;
    const warnings: { details: object; message: string }[] = [];
    const log = { warn: (details: object, message: string) => warnings.push({ details, message }) };
    const schema = await buildSchemaContext(catalog, nlSettingsOf(undefined), () => Promise.reject(), 1000, log);
    expect(schema.tables).toEqual([]);
    expect(warnings).toEqual([
      { details: { source: 'crm', err: 'connection refused' }, message: expect.stringContaining('did not list') },
    ]);
  });
});

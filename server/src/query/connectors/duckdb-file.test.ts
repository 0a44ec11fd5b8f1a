import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnknownTable } from '../../core/domain-errors.js';
import { engineFor, setupFromText, testDeadline } from '../test-support/query-fixtures.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-duckdb-file-'));
const engines: Awaited<ReturnType<typeof engineFor>>[] = [];

beforeAll(async () => {
  const instance = await DuckDBInstance.create(path.join(dir, 'shop.duckdb'));
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE notes (id INTEGER, text VARCHAR); INSERT INTO notes VALUES (1, 'main schema')`);
  await connection.run(
    `CREATE SCHEMA sales; CREATE TABLE sales.orders (id INTEGER, amount DECIMAL(10,2)); INSERT INTO ` +
      `sales.orders VALUES (1, 10.50), (2, 4.25)`,
  );
  connection.closeSync();
  instance.closeSync();
});

afterAll(async () => {
  for (const e of engines) await e.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function engineWith(settings: string) {
  const e = await engineFor(
    setupFromText(
      dir,
      `sources:\n  - { name: shop, type: relational, connector: duckdb, path: shop.duckdb${settings} }\n`,
    ),
  );
  engines.push(e);
  return e;
}

describe('DuckDB file source', () => {
  it('offers the main schema by default', async () => {
    const { engine, catalog } = await engineWith('');
    expect((await catalog.get('shop')!.connector.listTables(testDeadline())).map((t) => t.name)).toEqual(['notes']);
    expect((await engine.run('SELECT text FROM shop.notes', { maxRows: 10, timeoutMs: 5000 })).rows).toEqual([
      { text: 'main schema' },
    ]);
  });

  it('offers the tables of the configured schema, and only those', async () => {
    const { engine, catalog } = await engineWith(', schema: sales');
    expect((await catalog.get('shop')!.connector.listTables(testDeadline())).map((t) => t.name)).toEqual(['orders']);
    const result = await engine.run('SELECT count(*) AS n, sum(amount) AS total FROM shop.orders WHERE amount > 5', {
      maxRows: 10,
      timeoutMs: 5000,
    });
    expect(result.rows).toEqual([{ n: 1, total: '10.50' }]);
    const error = await engine
      .run('SELECT * FROM shop.notes', { maxRows: 10, timeoutMs: 5000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownTable);
  });

  it('lists nothing for a schema the file does not have', async () => {
    const { catalog } = await engineWith(', schema: "no_such_schema"');
    expect(await catalog.get('shop')!.connector.listTables(testDeadline())).toEqual([]);
  });
});

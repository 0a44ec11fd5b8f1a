import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceUnavailableError } from '../../core/domain-errors.js';
import { SourceCatalog } from '../source-catalog.js';
import { setupFromText, testDeadline } from '../test-support/query-fixtures.js';
import { TrinoReplayServer } from '../test-support/trino-replay.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-trino-catalog-'));
const replay = new TrinoReplayServer({
  columns: [
    ['default', 'clicks', '_key', 'varchar'],
    ['default', 'clicks', '_message', 'varchar'],
    ['default', 'clicks', '_partition_offset', 'bigint'],
    ['default', 'clicks', '_timestamp', 'timestamp(3)'],
    ['default', 'orders_topic', '_message', 'varchar(4096)'],
    ['other', 'hidden', 'x', 'bigint'],
  ],
});
let catalog: SourceCatalog;

const yaml = (server: string) =>
  `engine: trino\ntrino: { server: "${server}", retries: 2 }\nsources:\n` +
  `  - { name: events, type: streaming, connector: trino, description: Kafka topics, ` +
  `trino: { catalog: kafka, schema: default } }\n` +
  `  - { name: shop, type: relational, connector: postgres, url: "postgres://nobody@127.0.0.1:1/shop", ` +
  `trino: { catalog: postgresql, schema: public } }\n`;

beforeAll(async () => {
  await replay.start();
  catalog = new SourceCatalog(setupFromText(dir, yaml(replay.url)).sources);
});
afterAll(async () => {
  await catalog.close();
  await replay.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sources read through Trino catalogs (engine: trino)', () => {
  it("lists a kafka-only catalog's tables and columns from its information_schema, types documented", async () => {
    const tables = await catalog.get('events')!.connector.listTables(testDeadline());
    expect(tables).toEqual([
      {
        name: 'clicks',
        columns: [
          { name: '_key', type: 'VARCHAR' },
          { name: '_message', type: 'VARCHAR' },
          { name: '_partition_offset', type: 'BIGINT' },
          { name: '_timestamp', type: 'TIMESTAMP' },
        ],
      },
      { name: 'orders_topic', columns: [{ name: '_message', type: 'VARCHAR' }] },
    ]);
    expect(replay.statements.at(-1)).toBe(
      `SELECT table_name, column_name, data_type FROM "kafka".information_schema.columns ` +
        `WHERE table_schema = 'default' ORDER BY table_name, ordinal_position`,
    );
  });

  it('describes one table by name, and answers undefined for one the schema lacks', async () => {
    const events = catalog.get('events')!.connector;
    expect((await events.describeTable('Orders_Topic', testDeadline()))?.name).toBe('orders_topic');
    expect(await events.describeTable("x' OR '1'='1", testDeadline())).toBeUndefined();
    expect(replay.statements.at(-1)).toContain(`table_name = 'x'' or ''1''=''1'`);
  });

  it('asks Trino, never the database, for a source that has a connector of its own', async () => {
    const before = replay.statements.length;
    expect(await catalog.get('shop')!.connector.listTables(testDeadline())).toEqual([]);
    expect(replay.statements.slice(before)[0]).toContain('"postgresql".information_schema.columns');
    expect(await catalog.get('events')!.connector.check(testDeadline())).toEqual({
      catalog: 'kafka',
      schema: 'default',
      tables: 2,
    });
  });

  it('names the source when Trino cannot be reached, and refuses connector trino without engine trino', async () => {
    const down = new SourceCatalog(setupFromText(dir, yaml('http://127.0.0.1:1')).sources);
    try {
      await expect(down.get('events')!.connector.listTables(testDeadline())).rejects.toThrow(SourceUnavailableError);
      await expect(down.get('events')!.connector.listTables(testDeadline())).rejects.toThrow(/source "events"/);
    } finally {
      await down.close();
    }
    expect(() => setupFromText(dir, yaml(replay.url).replace('engine: trino', 'engine: duckdb'))).toThrow(
      /connector "trino" reads a Trino catalog: it needs engine "trino"/,
    );
    expect(() =>
      setupFromText(dir, yaml(replay.url).replace(', trino: { catalog: kafka, schema: default }', '')),
    ).toThrow(/source "events" \(connector trino\) needs "trino: \{ catalog, schema \}"/);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpError } from '../../core/errors.js';
import { toHttpError } from '../../core/domain-errors.js';
import { SourceCatalog } from '../source-catalog.js';
import { setupFromText } from '../test-support/query-fixtures.js';
import { TrinoReplayServer } from '../test-support/trino-replay.js';
import { SqlParser } from './sql-parser.js';
import { TrinoEngine } from './trino-engine.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-trino-'));
const replay = new TrinoReplayServer();
let parser: SqlParser;
let catalog: SourceCatalog;
let engine: TrinoEngine;

const sourcesYaml = (server: string) =>
  `
engine: trino
trino: { server: "${server}", user: analyst, retries: 3 }
limits: { max_path_depth: 40 }
sources:
  - { name: shop, type: relational, connector: postgres, url: "postgres://trino-only@127.0.0.1:1/shop", trino: ` +
  `{ catalog: postgresql, schema: public } }
  - { name: lake, type: object-storage, connector: folder, path: lake, trino: { catalog: hive, schema: lake } }
`;

beforeAll(async () => {
  await replay.start();
  parser = await SqlParser.create();
  const setup = setupFromText(dir, sourcesYaml(replay.url));
  catalog = new SourceCatalog(setup.sources);
  engine = new TrinoEngine(catalog, parser, setup.trino!, setup.limits);
});
afterAll(async () => {
  await catalog.close();
  parser.close();
  await replay.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    const answer = toHttpError(error);
    if (answer) return answer;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('Trino engine against a protocol replay server', () => {
  it('rewrites source references to catalogs and schemas, leaving the rest of the text alone', async () => {
    const sql =
      `SELECT o.region, 'shop.orders' AS label, "lake" . "products".x FROM shop.orders o JOIN ` +
      `lake.main.products p ON o.pid = p.id -- shop.orders\nWHERE o.region = 'EU'`;
    expect(await engine.translate(sql)).toBe(
      `SELECT o.region, 'shop.orders' AS label, "lake" . "products".x FROM "postgresql"."public"."orders" o ` +
        `JOIN "hive"."lake"."products" p ON o.pid = p.id -- shop.orders\nWHERE o.region = 'EU'`,
    );
    expect(await engine.translate('SELECT * FROM "shop"."Orders"')).toBe(
      'SELECT * FROM "postgresql"."public"."Orders"',
    );
  });

  it('follows QUEUED and RUNNING pages to FINISHED, retrying a 503, and converts the values', async () => {
    const result = await engine.run('SELECT region, count(*) AS orders FROM shop.orders GROUP BY 1', {
      maxRows: 100,
      timeoutMs: 5000,
    });
    expect(replay.statements.at(-1)).toBe(
      'SELECT region, count(*) AS orders FROM "postgresql"."public"."orders" GROUP BY 1',
    );
    const { headers } = replay.requests.find((r) => r.method === 'POST')!;
    expect(headers['x-trino-user']).toBe('analyst');
    // SPARQL paths recurse up to limits.max_path_depth steps: Trino's own bound (10 unless set) must not be lower.
    expect(headers['x-trino-session']).toBe('max_recursion_depth=41');
    expect(replay.retries).toBeGreaterThanOrEqual(1);
    // Trino's names (varchar, bigint, timestamp(3) ...) under the documented ones.
    expect(result.columns.map((c) => c.type)).toEqual([
      'VARCHAR',
      'BIGINT',
      'DECIMAL(12,2)',
      'TIMESTAMP',
      'TIMESTAMP WITH TIME ZONE',
    ]);
    expect(result.rows).toEqual([
      {
        region: 'EU',
        orders: 12,
        revenue: 1234.5,
        last_order: '2024-03-01T10:11:12.5',
        first_seen: '2024-01-02T03:04:05Z',
      },
      {
        region: 'NA',
        orders: 7,
        revenue: 99.99,
        last_order: '2024-03-02T00:00:00',
        first_seen: '2024-01-03T00:00:00Z',
      },
    ]);
    expect(result.truncated).toBe(false);
  });

  it('maps a FAILED page to 404 for a missing table and 400 with the position for a syntax error', async () => {
    expect(
      (await failure(engine.run('SELECT * FROM lake.missing_table', { maxRows: 10, timeoutMs: 5000 }))).status,
    ).toBe(404);
    const syntax = await failure(engine.run('SELECT *\nFROM lake.bad_syntax', { maxRows: 10, timeoutMs: 5000 }));
    expect(syntax.status).toBe(400);
    expect(syntax.extra).toMatchObject({ line: 2, column: 3 });
  });

  it("answers Trino's unknown function as QUERY_UNKNOWN_FUNCTION naming it, as the embedded engine does", async () => {
    const unknown = await failure(
      engine.run('SELECT getenv(region) FROM lake.orders', { maxRows: 10, timeoutMs: 5000 }),
    );
    expect(unknown).toMatchObject({ status: 400, code: 'QUERY_UNKNOWN_FUNCTION' });
    expect(unknown.message).toContain('getenv()');
  });

  it('refuses non-SELECT statements and unknown sources before reaching Trino', async () => {
    const before = replay.statements.length;
    expect((await failure(engine.run("COPY shop.orders TO '/tmp/x'", { maxRows: 10, timeoutMs: 5000 }))).status).toBe(
      400,
    );
    expect((await failure(engine.run('SELECT * FROM nowhere.t', { maxRows: 10, timeoutMs: 5000 }))).status).toBe(404);
    expect(replay.statements.length).toBe(before);
  });

  it('cancels the query at Trino on timeout (504) and after the row limit (truncated)', async () => {
    const timeout = await failure(engine.run('SELECT slow FROM shop.orders', { maxRows: 10, timeoutMs: 300 }));
    expect(timeout.status).toBe(504);
    const slowId = [...replay.requests]
      .reverse()
      .find((r) => r.url.includes('/executing/'))!
      .url.split('/')[4];
    await vi.waitFor(() => expect(replay.cancelled.has(slowId)).toBe(true));

    const big = await engine.run('SELECT big FROM shop.orders', { maxRows: 150, timeoutMs: 5000 });
    expect(big.row_count).toBe(150);
    expect(big.truncated).toBe(true);
    const bigId = [...replay.requests]
      .reverse()
      .find((r) => r.url.includes('/executing/'))!
      .url.split('/')[4];
    await vi.waitFor(() => expect(replay.cancelled.has(bigId)).toBe(true));
  });

  it('serves the same endpoints when sources.yaml says engine: trino', async () => {
    const { buildServer } = await import('../../main/app.js');
    const { loadConfig } = await import('../../core/config.js');
    const pino = (await import('pino')).default;
    const file = path.join(dir, 'trino-sources.yaml');
    fs.writeFileSync(file, sourcesYaml(replay.url));
    const config = loadConfig(
      { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', QUERY_SOURCES: file, DATA_DIR: path.join(dir, 'data') },
      { workspace: dir },
    );
    const app = await buildServer(config, { logger: pino({ level: 'silent' }) });
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/query/sql',
        payload: { query: 'SELECT region FROM shop.orders' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ row_count: 2, truncated: false });
      expect(replay.statements.at(-1)).toBe('SELECT region FROM "postgresql"."public"."orders"');
    } finally {
      await app.close();
    }
  });

  it('answers 502 naming Trino when it cannot be reached', async () => {
    const setup = setupFromText(dir, sourcesYaml('http://127.0.0.1:1'));
    const unreachable = new TrinoEngine(catalog, parser, setup.trino!, setup.limits);
    const error = await failure(unreachable.run('SELECT 1 FROM shop.orders', { maxRows: 10, timeoutMs: 5000 }));
    expect(error.status).toBe(502);
    expect(error.detail).toContain('Trino at http://127.0.0.1:1');
  });
});

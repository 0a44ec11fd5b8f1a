import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../main/app.js';
import { ConfigFileError } from '../core/config-file.js';
import { loadConfig } from '../core/config.js';
import { JobRunner } from './jobs/job-runner.js';
import { FolderJobStore } from './jobs/folder-job-store.js';
import { settle, waitStarted } from './test-support/async-polling.js';
import { copyExampleWorkspace, slowQuery } from './test-support/query-fixtures.js';

const base = '/api/v1/query';
let workspace: string;
let dataDir: string;

/** A server on the copied example workspace with `DATA_DIR` = dataDir. */
async function start(): Promise<FastifyInstance> {
  const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent', DATA_DIR: dataDir }, { workspace });
  const app = await buildServer(config, { logger: pino({ level: 'silent' }) });
  await app.ready();
  return app;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(() => {
  workspace = copyExampleWorkspace();
  fs.mkdirSync(path.join(workspace, 'specs'));
  fs.mkdirSync(path.join(workspace, 'handlers'));
  const sources = path.join(workspace, 'query', 'sources.yaml');
  fs.writeFileSync(
    sources,
    fs
      .readFileSync(sources, 'utf8')
      .replace('limits:\n', 'async:\n  workers: 1\n  max_queued: 1\nlimits:\n  max_query_length: 2000\n'),
  );
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-query-data-'));
});
afterAll(() => {
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('/api/v1/query', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await start();
  });
  afterAll(async () => app.close());

  it('lists sources with name, type and description only', async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/sources` });
    expect(response.statusCode).toBe(200);
    const { sources } = response.json<{ sources: Record<string, unknown>[] }>();
    expect(sources.map((s) => [s.name, s.type])).toEqual([
      ['shop', 'relational'],
      ['lake', 'object-storage'],
      ['events', 'streaming'],
    ]);
    for (const source of sources) expect(Object.keys(source).sort()).toEqual(['description', 'name', 'type']);
    expect(response.body).not.toContain('shop.duckdb');
  });

  it("lists a source's tables with their columns, and answers 404 for an unknown source", async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/sources/SHOP/tables` });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      source: string;
      tables: { name: string; columns: { name: string; type: string }[] }[];
    }>();
    expect(body.source).toBe('shop');
    expect(body.tables.map((t) => t.name).sort()).toEqual(['customers', 'orders']);
    expect(body.tables.find((t) => t.name === 'customers')!.columns).toContainEqual({
      name: 'region',
      type: expect.any(String),
    });
    const events = (await app.inject({ method: 'GET', url: `${base}/sources/events/tables` })).json<{
      tables: { name: string }[];
    }>();
    expect(events.tables.map((t) => t.name)).toEqual(['clicks']);
    const unknown = await app.inject({ method: 'GET', url: `${base}/sources/nothing/tables` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Unknown source "nothing"', code: 'QUERY_SOURCE_NOT_FOUND' });
  });

  it('runs SQL and answers in the unified shape', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${base}/sql`,
      payload: { query: 'SELECT region, count(*) AS n FROM shop.customers GROUP BY region ORDER BY region LIMIT 2' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['columns', 'elapsed_ms', 'row_count', 'rows', 'truncated']);
    expect(body.columns).toEqual([
      { name: 'region', type: 'VARCHAR' },
      { name: 'n', type: 'BIGINT' },
    ]);
    expect(body.row_count).toBe(2);
    expect(typeof body.elapsed_ms).toBe('number');
  });

  it.each([
    ['a missing query', { nope: 1 }, 400, 'BAD_REQUEST'],
    ['a query that is not a string', { query: 42 }, 400, 'NOT_A_STRING'],
    ['a syntax error', { query: 'SELECT FROM WHERE' }, 400, 'QUERY_INVALID'],
    ['a write', { query: 'DROP TABLE shop.orders' }, 400, 'QUERY_INVALID'],
    ['an unknown source', { query: 'SELECT * FROM nowhere.t' }, 404, 'QUERY_UNKNOWN_TABLE'],
    ['an unknown table', { query: 'SELECT * FROM shop.nothing' }, 404, 'QUERY_UNKNOWN_TABLE'],
    ['an unknown column', { query: 'SELECT nope FROM shop.orders' }, 400, 'QUERY_INVALID'],
    ['a division by zero cast error', { query: "SELECT 'x'::INTEGER" }, 400, 'QUERY_INVALID'],
    ['an oversized query', { query: `SELECT 1 ${'-- padding\n'.repeat(300)}` }, 413, 'QUERY_TOO_LARGE'],
  ])('answers %s with %i and a {detail, code} body', async (_what, payload, status, code) => {
    const response = await app.inject({ method: 'POST', url: `${base}/sql`, payload });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ detail: expect.any(String), code });
  });

  it('gives a syntax error position', async () => {
    const response = await app.inject({ method: 'POST', url: `${base}/sql`, payload: { query: 'SELECT 1 +' } });
    expect(response.json()).toMatchObject({ code: 'QUERY_INVALID', line: 1, column: 11, position: 10 });
  });

  it('gives the position DuckDB names for an error after parsing (binding), in the statement sent', async () => {
    const query = 'SELECT id,\n  nope\nFROM shop.orders';
    const response = await app.inject({ method: 'POST', url: `${base}/sql`, payload: { query } });
    expect(response.json()).toMatchObject({ code: 'QUERY_INVALID', line: 2, column: 3, position: 13 });
  });

  it('answers EXPLAIN of a SELECT with its plan as JSON, and EXPLAIN ANALYZE with timings and rows', async () => {
    const query =
      'SELECT c.region, count(*) AS n FROM shop.orders o JOIN shop.customers c ON o.customer_id = c.id GROUP BY 1';
    const plan = async (prefix: string) => {
      const response = await app.inject({ method: 'POST', url: `${base}/sql`, payload: { query: prefix + query } });
      expect(response.statusCode).toBe(200);
      const { columns, rows } = response.json<{ columns: { name: string }[]; rows: Record<string, string>[] }>();
      expect(columns.map((c) => c.name)).toEqual(['explain_key', 'explain_value']);
      return JSON.stringify(JSON.parse(rows[0].explain_value));
    };
    expect(await plan('-- the plan\nexplain ')).toContain('HASH_JOIN');
    const analysed = await plan('EXPLAIN ANALYZE\n');
    expect(analysed).toMatch(/"operator_timing":/);
    expect(analysed).toMatch(/"operator_cardinality":1500/);
  });

  it.each([
    ['a write', 'EXPLAIN DELETE FROM shop.orders'],
    ['a second EXPLAIN', 'EXPLAIN EXPLAIN SELECT 1'],
    ['two statements', 'EXPLAIN ANALYZE SELECT 1; SELECT 2'],
    ['a setting', 'EXPLAIN ANALYZE SET threads = 8'],
  ])('refuses EXPLAIN of %s, saying EXPLAIN takes one SELECT', async (_what, query) => {
    const response = await app.inject({ method: 'POST', url: `${base}/sql`, payload: { query } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'QUERY_INVALID', detail: expect.stringMatching(/^EXPLAIN and/) });
  });

  it('places a syntax error of an EXPLAIN where it is in the text sent', async () => {
    const response = await app.inject({ method: 'POST', url: `${base}/sql`, payload: { query: 'EXPLAIN SELECT 1 +' } });
    expect(response.json()).toMatchObject({ code: 'QUERY_INVALID', line: 1, column: 19 });
  });

  it('runs an async query: 202, status, paged results', async () => {
    const accepted = await app.inject({
      method: 'POST',
      url: `${base}/async`,
      payload: { query: 'SELECT id, name FROM shop.customers ORDER BY id' },
    });
    expect(accepted.statusCode).toBe(202);
    const job = accepted.json<{ query_id: string; status: string; submitted_at: string }>();
    expect(job.status).toBe('RUNNING');
    expect(Number.isNaN(Date.parse(job.submitted_at))).toBe(false);
    const status = await settle(app, job.query_id);
    expect(Object.keys(status).sort()).toEqual([
      'completed_at',
      'error',
      'query_id',
      'started_at',
      'status',
      'submitted_at',
    ]);
    expect(status.status).toBe('COMPLETED');
    const page = (
      await app.inject({ method: 'GET', url: `${base}/async/${job.query_id}/results?offset=100&limit=15` })
    ).json();
    expect(page.rows.map((r: { id: number }) => r.id)).toEqual(Array.from({ length: 15 }, (_, i) => 101 + i));
    expect(page).toMatchObject({ row_count: 15, total_row_count: 120, next_offset: 115, truncated: false });
    const last = (await app.inject({ method: 'GET', url: `${base}/async/${job.query_id}/results?offset=115` })).json();
    expect(last).toMatchObject({ row_count: 5, next_offset: null });
  });

  it('refuses a bad async query at once and answers 404 for unknown jobs', async () => {
    expect(
      (await app.inject({ method: 'POST', url: `${base}/async`, payload: { query: 'COPY x TO y' } })).statusCode,
    ).toBe(400);
    for (const url of [
      `${base}/async/00000000-0000-4000-8000-000000000000/status`,
      `${base}/async/..%2F..%2Fetc%2Fpasswd/status`,
      `${base}/async/nope/results`,
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().code, url).toBe('QUERY_JOB_NOT_FOUND');
    }
    expect((await app.inject({ method: 'GET', url: `${base}/nothing-here` })).json()).toEqual({
      detail: `No query endpoint GET ${base}/nothing-here`,
      code: 'QUERY_NOT_FOUND',
    });
  });

  it('answers 409 before completion, cancels a running job, and bounds the queue', async () => {
    const first = (await app.inject({ method: 'POST', url: `${base}/async`, payload: { query: slowQuery } })).json<{
      query_id: string;
    }>();
    const early = await app.inject({ method: 'GET', url: `${base}/async/${first.query_id}/results` });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'QUERY_NOT_COMPLETED', status: 'RUNNING' });
    await waitStarted(app, first.query_id);
    // One worker busy, one job waiting: the queue (max_queued 1) is full.
    const second = (await app.inject({ method: 'POST', url: `${base}/async`, payload: { query: slowQuery } })).json<{
      query_id: string;
    }>();
    const third = await app.inject({ method: 'POST', url: `${base}/async`, payload: { query: slowQuery } });
    expect(third.statusCode).toBe(503);
    expect(third.json()).toEqual({
      detail: '1 async queries are already waiting; try again later',
      code: 'QUERY_BUSY',
    });

    const cancelled = await app.inject({ method: 'DELETE', url: `${base}/async/${first.query_id}` });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED' });
    expect((await app.inject({ method: 'DELETE', url: `${base}/async/${second.query_id}` })).json()).toMatchObject({
      status: 'CANCELLED',
    });
    await sleep(200);
    expect((await settle(app, first.query_id)).status).toBe('CANCELLED');
    const results = await app.inject({ method: 'GET', url: `${base}/async/${first.query_id}/results` });
    expect(results.statusCode).toBe(409);
    expect(results.json()).toMatchObject({ status: 'CANCELLED' });
    // DELETE of a finished job removes it.
    const removed = await app.inject({ method: 'DELETE', url: `${base}/async/${first.query_id}` });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ status: 'CANCELLED' });
    expect((await app.inject({ method: 'GET', url: `${base}/async/${first.query_id}/status` })).statusCode).toBe(404);
    // The worker is free again.
    const next = (
      await app.inject({ method: 'POST', url: `${base}/async`, payload: { query: 'SELECT 1 AS one' } })
    ).json<{ query_id: string }>();
    expect((await settle(app, next.query_id)).status).toBe('COMPLETED');
  });
});

describe('async jobs across a restart', () => {
  it('keeps finished results and fails jobs that were running', async () => {
    const first = await start();
    const done = (
      await first.inject({ method: 'POST', url: `${base}/async`, payload: { query: 'SELECT 42::BIGINT AS answer' } })
    ).json<{ query_id: string }>();
    expect((await settle(first, done.query_id)).status).toBe('COMPLETED');
    const running = (await first.inject({ method: 'POST', url: `${base}/async`, payload: { query: slowQuery } })).json<{
      query_id: string;
    }>();
    await waitStarted(first, running.query_id);
    await first.close();

    const second = await start();
    try {
      expect(
        (await second.inject({ method: 'GET', url: `${base}/async/${done.query_id}/results` })).json().rows,
      ).toEqual([{ answer: 42 }]);
      const interrupted = (
        await second.inject({ method: 'GET', url: `${base}/async/${running.query_id}/status` })
      ).json();
      expect(interrupted).toMatchObject({ status: 'FAILED', error: 'interrupted by restart' });
      expect(interrupted.completed_at).not.toBeNull();
    } finally {
      await second.close();
    }
  });

  it('expires finished jobs after the retention period', async () => {
    const store = new FolderJobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'aw-jobs-')));
    const settings = {
      workers: 1,
      maxQueued: 1,
      retentionMs: 60_000,
      maxRows: 10,
      timeoutMs: 1000,
      maxResultBytes: 1000,
      maxStoredBytes: 1000,
    };
    const engine = {
      validate: async () => undefined,
      run: async () => ({ columns: [], rows: [], row_count: 0, truncated: false, elapsed_ms: 0, scans: [] }),
      close: async () => undefined,
    };
    const runner = new JobRunner(store, engine, settings, 15_000, { error: () => undefined });
    await runner.start();
    const job = await runner.submit('SELECT 1', null);
    for (let i = 0; i < 50 && (await runner.status(job.query_id, null)).status === 'RUNNING'; i++) await sleep(10);
    await runner.sweep(Date.now() + 30_000);
    expect((await runner.status(job.query_id, null)).status).toBe('COMPLETED');
    await runner.sweep(Date.now() + 120_000);
    await expect(runner.status(job.query_id, null)).rejects.toThrow(/unknown or expired/);
    expect(fs.readdirSync(store.dir)).toEqual([]);
    await runner.close();
    fs.rmSync(path.dirname(store.dir), { recursive: true, force: true });
  });
});

describe('a bad sources.yaml', () => {
  it('stops the server from starting, naming the line', async () => {
    const dir = copyExampleWorkspace();
    fs.writeFileSync(
      path.join(dir, 'query', 'sources.yaml'),
      'sources:\n  - name: a\n    type: relational\n    connector: duckdb\n    path: x.duckdb\n    passwrd: y\n',
    );
    const config = loadConfig(
      { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', DATA_DIR: path.join(dir, 'data') },
      { workspace: dir },
    );
    const error = await buildServer(config, { logger: pino({ level: 'silent' }) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as ConfigFileError).line).toBe(6);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBConnection } from '@duckdb/node-api';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildServer } from '../main/app.js';
import { loadConfig } from '../core/config.js';
import { readsNoTable } from './engine/sql-analysis.js';
import { SqlParser } from './engine/sql-parser.js';
import { copyExampleWorkspace, slowQuery } from './test-support/query-fixtures.js';

let workspace: string;
let dataDir: string;
let app: FastifyInstance;
let origin: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs `query` to `/sql`; `signal` closes the connection (which interrupts the query). */
const post = (query: string, signal?: AbortSignal) =>
  fetch(`${origin}/api/v1/query/sql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    signal,
  });

/** Tracks whether a request has answered, without waiting for it. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const settledPromise = promise.finally(() => (done = true));
  settledPromise.catch(() => undefined);
  return { promise: settledPromise, settled: () => done };
}

/** Resolves once DuckDB has been handed a statement that `matches` (the query holds a slot then). */
async function untilRunning(stream: { mock: { calls: unknown[][] } }, matches: RegExp): Promise<void> {
  while (!stream.mock.calls.some(([sql]) => matches.test(String(sql)))) await sleep(10);
}

beforeAll(async () => {
  // DuckDB takes the zone of the process when its first instance starts: one other than UTC, so a connection
  // left in it shows.
  process.env.TZ = 'Asia/Tokyo';
  workspace = copyExampleWorkspace();
  fs.mkdirSync(path.join(workspace, 'specs'));
  fs.mkdirSync(path.join(workspace, 'handlers'));
  const sources = path.join(workspace, 'query', 'sources.yaml');
  // One slot for large queries, one short lane, and a long time limit: only ordering decides what answers first.
  fs.writeFileSync(
    sources,
    fs
      .readFileSync(sources, 'utf8')
      .replace('limits:\n', 'limits:\n  max_concurrent: 1\n  short_lane: 1\n')
      .replace('timeout_ms: 30000', 'timeout_ms: 600000'),
  );
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-short-lane-'));
  const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent', DATA_DIR: dataDir }, { workspace });
  app = await buildServer(config, { logger: pino({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app.close();
  vi.restoreAllMocks();
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('which queries take the short lane', () => {
  it('is only a query with no FROM clause anywhere', async () => {
    const parser = await SqlParser.create();
    const lane = async (sql: string) => readsNoTable(await parser.parse(sql));
    expect(await lane('SELECT 1')).toBe(true);
    expect(await lane("SELECT now(), 'x' || 'y' AS s")).toBe(true);
    expect(await lane('SELECT 1 UNION ALL SELECT 2')).toBe(true);
    expect(await lane(slowQuery)).toBe(false);
    expect(await lane('SELECT * FROM library.books')).toBe(false);
    expect(await lane('SELECT (SELECT count(*) FROM range(10)) AS n')).toBe(false);
    expect(await lane('WITH t AS (SELECT * FROM range(3)) SELECT 1')).toBe(false);
  });
});

describe('the short lane beside large queries (one slot)', () => {
  it('answers SELECT 1 while a large query holds the slot and another waits; its own bound holds', async () => {
    const realStream = DuckDBConnection.prototype.stream;
    const stream = vi.spyOn(DuckDBConnection.prototype, 'stream');
    // A large query is started for DuckDB's workers (worker-execution.ts), a short one streamed on the pool.
    const startStream = vi.spyOn(DuckDBConnection.prototype, 'startStream');
    const client = new AbortController();
    const large = tracked(post(slowQuery, client.signal));
    await untilRunning(startStream, /range\(100000\) a/);
    // A query that reads a table function is large by rule: it waits for the slot, not in the lane.
    const queued = tracked(post('SELECT count(*) AS n FROM range(10)'));

    // The lane's one place is held by a short query DuckDB has not answered yet.
    let releaseHeld: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    stream.mockImplementation(async function (this: DuckDBConnection, ...args: Parameters<DuckDBConnection['stream']>) {
      if (/held_in_lane/.test(String(args[0]))) await held;
      return realStream.apply(this, args);
    });
    const first = tracked(post('SELECT 1 AS held_in_lane'));
    await untilRunning(stream, /held_in_lane/);
    const second = tracked(post('SELECT 2 AS second_in_lane'));
    await sleep(500);
    expect(second.settled()).toBe(false);
    expect(stream.mock.calls.some(([sql]) => /second_in_lane/.test(String(sql)))).toBe(false);

    releaseHeld();
    expect(await (await first.promise).json()).toMatchObject({ rows: [{ held_in_lane: 1 }] });
    expect(await (await second.promise).json()).toMatchObject({ rows: [{ second_in_lane: 2 }] });
    expect(large.settled()).toBe(false);
    expect(queued.settled()).toBe(false);

    client.abort();
    await expect(large.promise).rejects.toThrow();
    expect(await (await queued.promise).json()).toMatchObject({ rows: [{ n: 10 }] });
  }, 120_000);
});

describe('the short lane connection', () => {
  it('answers in UTC, as the large lane does, on the connection prepared before the query came', async () => {
    const instant =
      "SELECT TIMESTAMPTZ '2024-01-01 12:00:00+02' AS t, strftime(TIMESTAMPTZ '2024-01-01 12:00:00+02', '%H') AS h";
    const short = (await (await post(instant)).json()) as { rows: unknown[] };
    const large = (await (await post(`${instant} FROM range(1)`)).json()) as { rows: unknown[] };
    expect(short).toMatchObject({ rows: [{ h: '10' }] });
    expect(short.rows).toEqual(large.rows);
  }, 60_000);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { DuckDBConnection } from '@duckdb/node-api';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildServer } from '../main/app.js';
import { loadConfig } from '../core/config.js';
import { copyExampleWorkspace, slowQuery } from './test-support/query-fixtures.js';

let workspace: string;
let dataDir: string;
let app: FastifyInstance;
let origin: string;
const logLines: Record<string, unknown>[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs `body` to a query endpoint over a real connection (closing it is what the test is about). */
const post = (endpoint: string, body: object, signal?: AbortSignal) =>
  fetch(`${origin}/api/v1/query${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });

/** Resolves once DuckDB has been handed a statement that `matches` (the query holds its one slot then). */
async function untilRunning(stream: { mock: { calls: unknown[][] } }, matches: RegExp): Promise<void> {
  while (!stream.mock.calls.some(([sql]) => matches.test(String(sql)))) await sleep(10);
}

beforeAll(async () => {
  workspace = copyExampleWorkspace();
  fs.mkdirSync(path.join(workspace, 'specs'));
  fs.mkdirSync(path.join(workspace, 'handlers'));
  const sources = path.join(workspace, 'query', 'sources.yaml');
  // One slot and a long time limit: only the interrupt can free the slot for the next query in time.
  fs.writeFileSync(
    sources,
    fs
      .readFileSync(sources, 'utf8')
      .replace('limits:\n', 'limits:\n  max_concurrent: 1\n')
      .replace('timeout_ms: 30000', 'timeout_ms: 600000'),
  );
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-query-abort-'));
  const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'info', DATA_DIR: dataDir }, { workspace });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = await buildServer(config, { logger: pino({ level: 'info' }, sink) });
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

describe('a synchronous query whose client leaves', () => {
  it('is interrupted in DuckDB, frees its slot for the next query, and is logged as cancelled (no 500)', async () => {
    // A large query is started for DuckDB's worker threads (worker-execution.ts).
    const startStream = vi.spyOn(DuckDBConnection.prototype, 'startStream');
    const interrupt = vi.spyOn(DuckDBConnection.prototype, 'interrupt');
    const client = new AbortController();
    const long = post('/sql', { query: slowQuery }, client.signal);
    await untilRunning(startStream, /range\(100000\) a/);
    client.abort();
    await expect(long).rejects.toThrow();

    // The one slot is free: without the interrupt this would wait for the ten-billion-row product.
    const next = await post('/sql', { query: 'SELECT 42 AS answer' });
    expect(next.status).toBe(200);
    expect(((await next.json()) as { rows: unknown[] }).rows).toEqual([{ answer: 42 }]);
    expect(interrupt).toHaveBeenCalled();
    const cancelled = logLines.find((l) => l.msg === 'query cancelled: the client closed the connection');
    expect(cancelled).toMatchObject({ method: 'POST', url: '/api/v1/query/sql' });
    expect(logLines.some((l) => l.msg === 'request failed')).toBe(false);
  });

  it('does not cancel a query whose client waits for the answer', async () => {
    const interrupt = vi.spyOn(DuckDBConnection.prototype, 'interrupt');
    interrupt.mockClear();
    const response = await post('/sql', { query: 'SELECT count(*) AS n FROM range(100000)' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { rows: unknown[] }).rows).toEqual([{ n: 100000 }]);
    expect(interrupt).not.toHaveBeenCalled();
  });

  it('answers no error when the asker of a question leaves at once, and the next query runs', async () => {
    const stream = vi.spyOn(DuckDBConnection.prototype, 'stream');
    stream.mockClear();
    const client = new AbortController();
    // A question over a table: the translated query is what runs; leaving while it runs stops it.
    const asked = post('/natural-language', { question: 'how many orders' }, client.signal);
    client.abort();
    await expect(asked).rejects.toThrow();
    const next = await post('/sql', { query: 'SELECT 1 AS one' });
    expect(next.status).toBe(200);
    expect(logLines.filter((l) => l.level === 50)).toEqual([]);
  });
});

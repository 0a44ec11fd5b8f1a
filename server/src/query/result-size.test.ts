import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { serverForTests } from '../test-support/workspace.js';
import { copyExampleWorkspace } from './test-support/query-fixtures.js';

const base = '/api/v1/query';

/** A copy of the example workspace, its `limits` section extended with `limits`. */
function exampleWith(limits: string): string {
  const workspace = copyExampleWorkspace();
  for (const dir of ['specs', 'handlers']) fs.mkdirSync(path.join(workspace, dir));
  const sources = path.join(workspace, 'query', 'sources.yaml');
  fs.writeFileSync(sources, fs.readFileSync(sources, 'utf8').replace('limits:\n', `limits:\n${limits}`));
  return workspace;
}

const sql = (server: { app: FastifyInstance }, query: string) =>
  server.app.inject({ method: 'POST', url: `${base}/sql`, payload: { query } });

describe('result byte limit (limits.max_result_bytes)', () => {
  const server = serverForTests(() => exampleWith('  max_result_bytes: 4096\n'));

  it('truncates a SQL result at the byte limit, names the limit, and holds no more rows than fit', async () => {
    const response = await sql(server, "SELECT i, repeat('x', 1000) AS s FROM range(20000) t(i)");
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      rows: { i: number }[];
      row_count: number;
      truncated: boolean;
      truncated_reason: string;
    }>();
    expect(body.truncated).toBe(true);
    expect(body.truncated_reason).toBe('the result was cut at the byte limit, limits.max_result_bytes = 4096');
    expect(body.row_count).toBe(4);
    expect(body.rows.map((r) => r.i)).toEqual([0, 1, 2, 3]);
    expect(Buffer.byteLength(JSON.stringify(body.rows))).toBeLessThanOrEqual(4096);
  });

  it('answers 413 naming the limit when a single row is larger than it', async () => {
    const response = await sql(server, "SELECT repeat('x', 100000) AS s FROM range(20000)");
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      detail: 'One row of the result is larger than the result limit of 4096 bytes (limits.max_result_bytes)',
      code: 'RESULT_TOO_LARGE',
    });
  });

  it('leaves a result within the limit whole, without a reason', async () => {
    const response = await sql(server, 'SELECT 1 AS one');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.body));
    const body = response.json();
    expect(body).toMatchObject({ rows: [{ one: 1 }], truncated: false });
    expect(body).not.toHaveProperty('truncated_reason');
  });

  it('bounds SPARQL results the same way and says so in a header', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: `${base}/sparql`,
      headers: { 'content-type': 'application/sparql-query' },
      payload: 'PREFIX ex: <http://example.com/shop#>\nSELECT ?c ?name WHERE { ?c a ex:Customer ; ex:name ?name }',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-results-truncated']).toBe('true');
    expect(response.headers['x-results-truncated-reason']).toBe(
      'the result was cut at the byte limit, limits.max_result_bytes = 4096',
    );
    const bindings = response.json<{ results: { bindings: unknown[] } }>().results.bindings;
    expect(bindings.length).toBeGreaterThan(0);
    expect(bindings.length).toBeLessThan(120);
  });

  it('bounds natural-language results and says so in the answer', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: `${base}/natural-language`,
      payload: { question: 'list all orders' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ answer: string; results: unknown[] }>();
    expect(body.results.length).toBeLessThan(1500);
    expect(Buffer.byteLength(JSON.stringify(body.results))).toBeLessThanOrEqual(4096);
    expect(body.answer).toContain('limits.max_result_bytes = 4096');
  });
});

describe('values larger than the result byte limit (issue 32)', () => {
  const server = serverForTests(() => exampleWith('  max_result_bytes: 4096\n'));

  /**
   * Runs `query` beside a `SELECT 1` while sampling this process's resident memory (the server and DuckDB
   * run in it): the query's answer, the SELECT 1's, and how far the memory rose above where it started.
   */
  async function besideSelectOne(query: string) {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    try {
      const large = sql(server, query);
      const small = await sql(server, 'SELECT 1 AS one');
      return { response: await large, small, rise: Math.max(peak, process.memoryUsage().rss) - before };
    } finally {
      clearInterval(sampler);
    }
  }

  it.each([
    ['a list', 'SELECT range(0, 20000000) AS l'],
    ['a list in a struct', "SELECT {'n': 1, 'l': range(0, 20000000)} AS s"],
    ['a list of lists', 'SELECT [range(0, 10000000), range(0, 10000000)] AS l'],
    ['a map', 'SELECT map(range(0, 1000000), range(0, 1000000)) AS m'],
    ['a long string', "SELECT repeat('x', 100000000) AS s"],
    ['a long blob', "SELECT repeat('x', 100000000)::BLOB AS b"],
  ])('refuses %s larger than the limit with 413, before converting it, while SELECT 1 answers', async (_, query) => {
    const { response, small, rise } = await besideSelectOne(query);
    expect(response.statusCode, response.body).toBe(413);
    expect(response.json()).toEqual({
      detail: 'One row of the result is larger than the result limit of 4096 bytes (limits.max_result_bytes)',
      code: 'RESULT_TOO_LARGE',
    });
    expect(small.json().rows).toEqual([{ one: 1 }]);
    // DuckDB builds the value (160 MB for the lists of 20 million) within its memory limit, and none of it
    // becomes JavaScript values (before: 20 million BigInts, well over a gigabyte).
    expect(rise).toBeLessThan(700 * 1024 ** 2);
  });

  it("stops the issue's list of 60 million items at DuckDB's memory limit at once, not after a minute", async () => {
    const { response, small, rise } = await besideSelectOne('SELECT range(0, 60000000) AS l');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: expect.stringMatching(
        /^The query needs more memory than its limit of 512MB: Out of Memory Error: [^\n]+$/,
      ),
      code: 'QUERY_INVALID',
    });
    expect(small.statusCode).toBe(200);
    // Before: the optimizer folded the constant into 60 million values outside the memory limit (4.5 GB).
    expect(rise).toBeLessThan(700 * 1024 ** 2);
  });

  it('returns nested values that fit exactly as JSON, and cuts the result at the first row that does not', async () => {
    const response = await sql(server, "SELECT i, range(0, 1000) AS l, {'k': [i]} AS s FROM range(10) t(i)");
    expect(response.statusCode).toBe(200);
    const body = response.json<{ rows: unknown[]; truncated_reason: string }>();
    const range = Array.from({ length: 1000 }, (_, n) => n);
    expect(body.rows).toEqual([{ i: 0, l: range, s: { k: [0] } }]);
    expect(body.truncated_reason).toBe('the result was cut at the byte limit, limits.max_result_bytes = 4096');
  });
});

describe('result column names (docs/query.md)', () => {
  const server = serverForTests(() => exampleWith(''));

  it('gives rows the names and order of columns when names repeat or read as numbers', async () => {
    const response = await sql(server, 'SELECT 1 AS a, 2 AS a, 3, 4 AS "__proto__", 5 AS "a:1"');
    const body = response.json<{ columns: { name: string }[]; rows: Record<string, number>[] }>();
    const names = body.columns.map((c) => c.name);
    expect(names).toEqual(['a', 'a:1', '_3', '___proto__', 'a:1:1']);
    expect(Object.keys(body.rows[0])).toEqual(names);
    expect(Object.values(body.rows[0])).toEqual([1, 2, 3, 4, 5]);
    // The JSON text itself lists them in that order.
    expect(response.body).toContain('"rows":[{"a":1,"a:1":2,"_3":3,"___proto__":4,"a:1:1":5}]');
  });

  it(
    "answers the issue's oversized query with a truncated result under the default limit while SELECT 1 " +
      'answers beside it',
    async () => {
      const large = sql(server, "SELECT repeat('x', 100000) AS s FROM range(20000)");
      const small = await sql(server, 'SELECT 1 AS one');
      expect(small.statusCode).toBe(200);
      expect(small.json().rows).toEqual([{ one: 1 }]);
      const response = await large;
      expect(response.statusCode).toBe(200);
      const body = response.json<{ row_count: number; truncated_reason: string }>();
      expect(body.truncated_reason).toBe(
        `the result was cut at the byte limit, limits.max_result_bytes = ${32 * 1024 * 1024}`,
      );
      expect(body.row_count).toBe(335);
      expect(response.body.length).toBeLessThan(32 * 1024 * 1024 + 1000);
      // Written in pieces (result-json.ts), as the same JSON text.
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['transfer-encoding']).toBe('chunked');
      expect(response.body).toBe(JSON.stringify(body));
    },
  );
});

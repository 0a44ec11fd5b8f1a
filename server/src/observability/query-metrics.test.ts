import { describe, expect, it } from 'vitest';
import { serverForTests } from '../test-support/workspace.js';
import { copyExampleWorkspace } from '../query/test-support/query-fixtures.js';
import { metricsPath } from './observability.js';

const query = '/api/v1/query';

/** The sum of the samples of `name` whose labels include `labels` in a scrape's text. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .filter((l) => Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

describe('query metrics by kind', () => {
  const server = serverForTests(copyExampleWorkspace, {});
  const scrape = async () => (await server.app.inject({ url: metricsPath })).body;
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'POST', url: `${query}${url}`, payload: payload as string, headers });

  it('labels SQL, SPARQL, natural-language and async queries with their kind, rows and bytes', async () => {
    const before = await scrape();
    expect((await post('/sql', { query: 'SELECT name FROM shop.customers LIMIT 3' })).statusCode).toBe(200);
    const sparql = 'PREFIX ex: <http://example.com/shop#>\nSELECT ?c WHERE { ?c a ex:Customer } LIMIT 2';
    const sparqlAnswer = await post('/sparql', sparql, { 'content-type': 'application/sparql-query' });
    expect(sparqlAnswer.statusCode, sparqlAnswer.body).toBe(200);
    const nl = await post('/natural-language', { question: 'How many customers are there?' });
    expect(nl.statusCode, nl.body).toBe(200);
    const job = await post('/async', { query: 'SELECT 1 AS one' });
    expect(job.statusCode).toBe(202);
    const id = job.json<{ query_id: string }>().query_id;
    await expect
      .poll(async () => (await server.app.inject({ url: `${query}/async/${id}/status` })).json().status)
      .toBe('COMPLETED');
    const after = await scrape();
    const grew = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);
    expect(grew('query_duration_seconds_count', { kind: 'sql', outcome: 'success' })).toBe(1);
    expect(grew('query_rows_total', { kind: 'sql' })).toBe(3);
    expect(grew('query_result_bytes_total', { kind: 'sql' })).toBeGreaterThan(10);
    // SPARQL runs its mapping's SQL views once (LIMIT 0) for their column types, under its kind too.
    expect(grew('query_duration_seconds_count', { kind: 'sparql', outcome: 'success' })).toBeGreaterThan(0);
    expect(grew('query_rows_total', { kind: 'sparql' })).toBe(2);
    expect(grew('query_duration_seconds_count', { kind: 'natural-language', outcome: 'success' })).toBeGreaterThan(0);
    expect(grew('query_duration_seconds_count', { kind: 'async', outcome: 'success' })).toBe(1);
    expect(grew('query_jobs_finished_total', { state: 'succeeded' })).toBe(1);
    expect(grew('query_job_store_seconds_count', { store: 'folder', operation: 'enqueue' })).toBe(1);
    expect(grew('query_job_store_seconds_count', { store: 'folder', operation: 'claim' })).toBeGreaterThan(0);
    expect(after).toMatch(/^query_jobs\{state="running"\} 0$/m);
    expect(after).toMatch(/^query_jobs\{state="queued"\} 0$/m);
  });

  it('counts a cancelled job and a job waiting in the store, by state', async () => {
    const before = await scrape();
    const slow = 'SELECT count(*) FROM range(3000000000)';
    const ids = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async () => (await post('/async', { query: slow })).json<{ query_id: string }>().query_id),
    );
    await expect.poll(async () => total(await scrape(), 'query_jobs', { state: 'running' })).toBeGreaterThan(0);
    const busy = await scrape();
    // Six jobs on fewer workers: the rest wait in the store.
    expect(total(busy, 'query_jobs', { state: 'running' }) + total(busy, 'query_jobs', { state: 'queued' })).toBe(6);
    for (const id of ids) await server.app.inject({ method: 'DELETE', url: `${query}/async/${id}` });
    const after = await scrape();
    expect(
      total(after, 'query_jobs_finished_total', { state: 'cancelled' }) -
        total(before, 'query_jobs_finished_total', { state: 'cancelled' }),
    ).toBe(6);
  }, 30_000);

  it('keeps the query text and unknown source names out of the labels', async () => {
    const hostile = Array.from({ length: 50 }, (_, i) => `SELECT * FROM nosuch${i}.t${i}`);
    for (const sql of hostile) expect((await post('/sql', { query: sql })).statusCode).toBe(404);
    const text = await scrape();
    expect(text).not.toMatch(/nosuch/);
    const kinds = new Set([...text.matchAll(/^query_[a-z_]+\{[^}]*kind="([^"]+)"/gm)].map((m) => m[1]));
    expect([...kinds].every((k) => ['sql', 'sparql', 'natural-language', 'async'].includes(k))).toBe(true);
  });
});

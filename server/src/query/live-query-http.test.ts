import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.js';
import { buildServer } from '../main/app.js';
import { copyExampleWorkspace } from './test-support/query-fixtures.js';

const base = '/api/v1/query';
let workspace: string;
let app: FastifyInstance;
const queryFile = (name: string) => path.join(workspace, 'query', name);
const workbenchToken = 'live-query-test-token';

/** What the workbench's Problems lists for the query folder. */
const queryProblems = async () =>
  (await app.inject({ url: '/api/workbench/diagnostics', headers: { 'x-workbench-token': workbenchToken } }))
    .json<{ diagnostics: { path: string; severity: string; message: string; line?: number }[] }>()
    .diagnostics.filter((diagnostic) => diagnostic.path.startsWith('query/'));

/** Waits until `done` holds; fails after 60 s (a bound on a hang, not a timing expectation). */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 60_000;) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the awaited state never came');
}

const sourceNames = async () =>
  (await app.inject({ url: `${base}/sources` })).json<{ sources: { name: string }[] }>().sources.map((s) => s.name);

/** A copy of the example `lake` source under another name. */
const lakeCopy = (name: string) =>
  `  - { name: ${name}, type: object-storage, connector: folder, path: lake, description: copy }\n`;

/** sources.yaml of the example workspace with `extra` sources appended to its list. */
const withSources = (original: string, extra: string) => original.replace('# Hints', `${extra}# Hints`);

beforeAll(async () => {
  workspace = copyExampleWorkspace();
  for (const folder of ['specs', 'handlers']) fs.mkdirSync(path.join(workspace, folder));
  const dataDir = fs.mkdtempSync(path.join(workspace, 'data-'));
  const env = { HOT_RELOAD: 'true', LOG_LEVEL: 'silent', DATA_DIR: dataDir, WORKBENCH: 'true' };
  app = await buildServer(loadConfig(env, { workspace }), { logger: pino({ level: 'silent' }), workbenchToken });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

describe('the query folder reloading in a running server', () => {
  it('follows the new sources in /sources, SQL and the health tree; SELECT 1 answers throughout', async () => {
    const original = fs.readFileSync(queryFile('sources.yaml'), 'utf8');
    const statuses: number[] = [];
    let reloading = true;
    // Other requests during the reloads: each must answer, on the old configuration or the new.
    const loop = (async () => {
      while (reloading) {
        const response = await app.inject({
          method: 'POST',
          url: `${base}/sql`,
          payload: { query: 'SELECT 1 AS one' },
        });
        statuses.push(response.statusCode);
      }
    })();
    for (const name of ['lake2', 'lake3', 'lake4']) {
      fs.writeFileSync(queryFile('sources.yaml'), withSources(original, lakeCopy(name)));
      await until(async () => (await sourceNames()).includes(name));
    }
    reloading = false;
    await loop;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    expect(await sourceNames()).toEqual(['shop', 'lake', 'events', 'lake4']);
    const sql = await app.inject({
      method: 'POST',
      url: `${base}/sql`,
      payload: { query: 'SELECT count(*) AS n FROM lake4.products' },
    });
    expect(sql.statusCode).toBe(200);
    expect(sql.json().rows[0].n).toBeGreaterThan(0);
    const health = (await app.inject({ url: '/api/health/objectstore' })).json();
    expect(Object.keys(health.components)).toEqual(['lake', 'lake4']);
    expect(health.components.lake4.status).toBe('UP');
  });

  it('keeps serving the last good sources while sources.yaml is broken, and applies the fix', async () => {
    const good = fs.readFileSync(queryFile('sources.yaml'), 'utf8');
    const broken = withSources(good, `${lakeCopy('lake5')}  - { name: 5x }\n`);
    fs.writeFileSync(queryFile('sources.yaml'), broken);
    await until(async () => (await queryProblems()).length > 0);
    const [problem] = await queryProblems();
    const line = broken.split('\n').findIndex((text) => text.includes('5x')) + 1;
    expect(problem).toMatchObject({ path: 'query/sources.yaml', severity: 'error', line });
    expect(problem.message).toMatch(/"name" must be an identifier.*the last good sources\.yaml is still in use/);
    const sql = await app.inject({ method: 'POST', url: `${base}/sql`, payload: { query: 'SELECT 1 AS one' } });
    expect(sql.statusCode).toBe(200);
    expect(await sourceNames()).not.toContain('lake5');

    fs.writeFileSync(queryFile('sources.yaml'), withSources(good, lakeCopy('lake5')));
    await until(async () => (await sourceNames()).includes('lake5'));
    expect(await queryProblems()).toEqual([]);
  });

  it('answers SPARQL over the new mapping.ttl once it is saved', async () => {
    const sparql = async () => {
      const response = await app.inject({
        method: 'POST',
        url: `${base}/sparql`,
        headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
        payload: 'PREFIX ex: <http://example.com/shop#> SELECT ?c WHERE { ?c a ex:Customer } LIMIT 1',
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ results: { bindings: { c: { value: string } }[] } }>().results.bindings[0].c.value;
    };
    expect(await sparql()).toMatch(/\/shop\/customer\/\d+$/);
    const mapping = fs.readFileSync(queryFile('mapping.ttl'), 'utf8');
    fs.writeFileSync(
      queryFile('mapping.ttl'),
      mapping.replace(
        'rr:template "http://example.com/shop/customer/{id}" ; rr:class ex:Customer',
        'rr:template "http://example.com/shop/client/{id}" ; rr:class ex:Customer',
      ),
    );
    await until(async () => /\/shop\/client\/\d+$/.test(await sparql()));
  });
});

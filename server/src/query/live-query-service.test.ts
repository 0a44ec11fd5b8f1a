import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, localJobStore } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { LiveQueryService } from './live-query-service.js';
import { queryPlugin } from './query-plugin.js';
import { serviceUrls, uniqueName } from './test-support/query-fixtures.js';

let dir: string;
let queryDir: string;
let logLines: string[];
let live: LiveQueryService | undefined;

const sourcesFile = () => path.join(queryDir, 'sources.yaml');

/** A folder source named `name` with one CSV table `t` of `rows` rows (column n: 1..rows). */
function folderSource(name: string, rows: number): string {
  const folder = path.join(queryDir, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 't.csv'), ['n', ...Array.from({ length: rows }, (_, i) => i + 1)].join('\n'));
  return `  - { name: ${name}, type: object-storage, connector: folder, path: ${name} }\n`;
}

/** Starts the live service over sources.yaml = `yaml`, not watching: each test reloads when it has saved. */
async function start(yaml: string, watch = false): Promise<LiveQueryService> {
  fs.writeFileSync(sourcesFile(), yaml);
  const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
  live = await LiveQueryService.start({
    config: { querySources: sourcesFile(), queryDir, dataDir, queryJobs: localJobStore },
    log: createLogger('info', { write: (line: string) => void logLines.push(line) }),
    watch,
    debounceMs: 20,
  });
  return live;
}

/** `SELECT count(*)` of `table` on the configuration `live` serves now. */
async function count(service: LiveQueryService, table: string): Promise<number> {
  const { rows } = await service.current().queries.sql(`SELECT count(*) AS c FROM ${table}`);
  return Number(rows[0].c);
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-live-query-'));
  queryDir = path.join(dir, 'query');
  fs.mkdirSync(queryDir);
  logLines = [];
});
afterEach(async () => {
  await live?.close();
  live = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the query folder reloading like specs', () => {
  it('makes a source added to sources.yaml queryable without a restart', async () => {
    const service = await start(`sources:\n${folderSource('a', 3)}`);
    await expect(count(service, 'b.t')).rejects.toThrow(/b/);
    fs.writeFileSync(sourcesFile(), `sources:\n${folderSource('a', 3)}${folderSource('b', 5)}`);
    await service.reload();
    expect(await count(service, 'b.t')).toBe(5);
    expect(await count(service, 'a.t')).toBe(3);
    expect(
      service
        .current()
        .queries.catalog.summaries()
        .map((s) => s.name),
    ).toEqual(['a', 'b']);
    expect(service.sourceHealth().map((s) => s.name)).toEqual(['a', 'b']);
    expect(service.problems()).toEqual([]);
  });

  it('keeps the last good sources serving while sources.yaml is broken, with the error at its line', async () => {
    const good = `sources:\n${folderSource('a', 3)}`;
    const service = await start(good);
    // Line 6: a setting no connector reads.
    const broken = '  - name: b\n    type: object-storage\n    connector: folder\n    colour: blue\n';
    fs.writeFileSync(sourcesFile(), `sources:\n${folderSource('a', 3)}${broken}`);
    await service.reload();
    expect(await count(service, 'a.t')).toBe(3);
    await expect(count(service, 'b.t')).rejects.toThrow();
    const [problem, ...others] = service.problems();
    expect(others).toEqual([]);
    expect(problem).toMatchObject({ path: 'query/sources.yaml', severity: 'error', line: 6 });
    expect(problem.message).toMatch(/unknown setting "colour".*the last good sources\.yaml is still in use/);
    expect(logLines.some((line) => /sources\.yaml:6:\d+: .*the last good configuration stays in use/.test(line))).toBe(
      true,
    );

    // Fixed: live again, and the error is gone.
    fs.writeFileSync(sourcesFile(), `sources:\n${folderSource('a', 3)}${folderSource('b', 2)}`);
    await service.reload();
    expect(await count(service, 'b.t')).toBe(2);
    expect(service.problems()).toEqual([]);
  });

  it('keeps the last good mapping.ttl when a change does not parse, and applies the next good one', async () => {
    const mapping = (table: string) =>
      '@prefix rr: <http://www.w3.org/ns/r2rml#> .\n@prefix ex: <http://example.com/ns#> .\n' +
      `<#T> a rr:TriplesMap ; rr:logicalTable [ rr:tableName "${table}" ] ;\n` +
      '  rr:subjectMap [ rr:template "http://example.com/t/{n}" ; rr:class ex:Thing ] .\n';
    fs.writeFileSync(path.join(queryDir, 'mapping.ttl'), mapping('a.t'));
    const service = await start(`sources:\n${folderSource('a', 3)}${folderSource('b', 4)}`);
    const mappedSources = () => {
      const graph = service.current().workspace.mapping;
      return graph.ok ? graph.value.map((triple) => triple.child.source) : 'fault';
    };
    expect(mappedSources()).toEqual(['a']);

    fs.writeFileSync(path.join(queryDir, 'mapping.ttl'), `${mapping('b.t')}\n<#U> a rr:TriplesMap ;; ]\n`);
    await service.reload();
    expect(mappedSources()).toEqual(['a']);
    const [problem] = service.problems();
    expect(problem).toMatchObject({ path: 'query/mapping.ttl', severity: 'error', line: 6 });
    expect(problem.message).toMatch(/the last good mapping\.ttl is still in use/);

    fs.writeFileSync(path.join(queryDir, 'mapping.ttl'), mapping('b.t'));
    await service.reload();
    expect(mappedSources()).toEqual(['b']);
    expect(service.problems()).toEqual([]);
  });

  it('finishes a request begun before a swap on the old configuration, then closes it', async () => {
    const service = await start(`sources:\n${folderSource('old', 3)}`);
    let swapped!: () => void;
    const swap = new Promise<void>((resolve) => (swapped = resolve));
    // The request holds the configuration it started on; it queries only once the new one serves.
    const request = service.use(async (generation) => {
      await swap;
      return generation.queries.sql('SELECT count(*) AS c FROM old.t');
    });
    fs.writeFileSync(sourcesFile(), `sources:\n${folderSource('new', 1)}`);
    await service.reload();
    expect(service.openGenerations()).toBe(2);
    swapped();
    expect((await request).rows).toEqual([{ c: 3 }]);
    expect(service.openGenerations()).toBe(1);
    await expect(count(service, 'old.t')).rejects.toThrow(/old/);
    expect(await count(service, 'new.t')).toBe(1);
  });

  it("holds a request's configuration until its streamed response is sent, then closes it", async () => {
    const service = await start(`sources:\n${folderSource('old', 3)}`);
    const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent' }, { workspace: dir });
    const app = Fastify();
    let opened!: () => void;
    const gate = new Promise<void>((resolve) => (opened = resolve));
    let arrived!: () => void;
    const handled = new Promise<void>((resolve) => (arrived = resolve));
    await app.register(async (scope) => {
      await queryPlugin(scope, { config, live: service, log: createLogger('silent') });
      // A body produced after the handler returned, from the configuration the request arrived on.
      scope.get('/streamed', async () => {
        const { queries } = service.current();
        arrived();
        return Readable.from(
          (async function* () {
            await gate;
            yield JSON.stringify((await queries.sql('SELECT count(*) AS c FROM old.t')).rows);
          })(),
        );
      });
    });
    try {
      const response = app.inject({ url: '/streamed' });
      await handled;
      fs.writeFileSync(sourcesFile(), `sources:\n${folderSource('new', 1)}`);
      await service.reload();
      expect(service.openGenerations()).toBe(2);
      opened();
      expect((await response).body).toBe('[{"c":3}]');
      await until(async () => service.openGenerations() === 1);
    } finally {
      await app.close();
    }
  });

  it('finishes an async job running during a swap on the configuration it started on', async () => {
    const service = await start(`sources:\n${folderSource('old', 3)}`);
    // Long enough to be running when the reload comes; it reads the source the reload removes.
    const query = 'SELECT (SELECT count(*) FROM old.t) + sum(a.range * 0) AS c FROM range(30000) a, range(30000) b';
    const { query_id: id } = await service.jobs.submit(query, null);
    await until(async () => (await service.jobs.status(id, null)).started_at !== null);
    fs.writeFileSync(sourcesFile(), `sources:\n${folderSource('new', 1)}`);
    await service.reload();
    const runningAtSwap = (await service.jobs.status(id, null)).status === 'RUNNING';
    await until(async () => (await service.jobs.status(id, null)).status !== 'RUNNING');
    expect(await service.jobs.status(id, null)).toMatchObject({ status: 'COMPLETED' });
    expect((await service.jobs.results(id, null, 0, 10)).rows).toEqual([{ c: 3 }]);
    // The job ran across the swap (it was still running after it), and its configuration closed after it.
    expect(runningAtSwap).toBe(true);
    expect(service.openGenerations()).toBe(1);
  });

  it('asks for a restart naming exactly the async keys that changed, and applies the rest', async () => {
    const service = await start(`async:\n  workers: 2\nsources:\n${folderSource('a', 3)}`);
    fs.writeFileSync(
      sourcesFile(),
      `async:\n  workers: 3\n  retention_hours: 24\n  max_queued: 7\nsources:\n${folderSource('b', 2)}`,
    );
    await service.reload();
    expect(await count(service, 'b.t')).toBe(2);
    const problems = service.problems();
    expect(problems).toHaveLength(1);
    // retention_hours 24 is the default: writing it out is no change.
    expect(problems[0]).toMatchObject({ path: 'query/sources.yaml', severity: 'warning' });
    expect(problems[0].message).toMatch(/^async\.workers, async\.max_queued changed since the server started/);
  });

  it('reloads by itself when a watched file is saved', async () => {
    const service = await start(`sources:\n${folderSource('a', 3)}`, true);
    const reloaded = new Promise<void>((resolve) => service.once('change', resolve));
    fs.writeFileSync(sourcesFile(), `sources:\n${folderSource('a', 3)}${folderSource('b', 6)}`);
    await reloaded;
    expect(await count(service, 'b.t')).toBe(6);
  });
});

describe('reloads and PostgreSQL connections', () => {
  const database = uniqueName('aw_live');
  const admin = () => new pg.Client({ connectionString: `${serviceUrls.postgres}/postgres` });
  const url = `${serviceUrls.postgres}/${database}`;

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query('CREATE TABLE t AS SELECT generate_series(1, 4) AS n');
    await db.end();
  });
  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.end();
  });

  /** Sessions open on the test database, the admin's own not counted (it connects to `postgres`). */
  async function sessions(): Promise<number> {
    const client = admin();
    await client.connect();
    try {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
        database,
      ]);
      return rows[0].n as number;
    } finally {
      await client.end();
    }
  }

  it('closes the connection pool of each replaced configuration: N reloads leave one pool open', async () => {
    const source = (description: string) =>
      `sources:\n  - { name: pg, type: relational, connector: postgres, url: "${url}", ` +
      `description: "${description}" }\n`;
    const service = await start(source('v0'));
    expect(await count(service, 'pg.t')).toBe(4);
    const oneGeneration = await sessions();
    expect(oneGeneration).toBeGreaterThan(0);
    const reloads = 6;
    for (let i = 1; i <= reloads; i++) {
      fs.writeFileSync(sourcesFile(), source(`v${i}`));
      await service.reload();
      expect(await count(service, 'pg.t')).toBe(4);
    }
    expect(service.current().queries.catalog.summaries()[0].description).toBe(`v${reloads}`);
    expect(service.openGenerations()).toBe(1);
    // A closed pool's sessions end as the server sees the connections go.
    await until(async () => (await sessions()) <= oneGeneration);
    await service.close();
    live = undefined;
    await until(async () => (await sessions()) === 0);
  });
});

/** Waits until `done` holds; fails after 60 s (a bound on a hang, not a timing expectation). */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 60_000;) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the awaited state never came');
}

import fs from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../test-support/workspace.js';
import { settle, waitStarted } from '../test-support/async-polling.js';
import { copyExampleWorkspace, slowQuery } from '../test-support/query-fixtures.js';

const base = '/api/v1/query';

/** A copy of the example workspace whose sources.yaml has `asyncYaml` as its async section. */
function workspaceWith(asyncYaml: string): string {
  const workspace = copyExampleWorkspace();
  fs.mkdirSync(path.join(workspace, 'specs'));
  fs.mkdirSync(path.join(workspace, 'handlers'));
  const sources = path.join(workspace, 'query', 'sources.yaml');
  fs.writeFileSync(sources, `async:\n${asyncYaml}${fs.readFileSync(sources, 'utf8')}`);
  return workspace;
}

type Headers = Record<string, string>;

async function submit(app: FastifyInstance, query: string, headers: Headers = {}): Promise<string> {
  const response = await app.inject({ method: 'POST', url: `${base}/async`, payload: { query }, headers });
  expect(response.statusCode, response.body).toBe(202);
  return response.json<{ query_id: string }>().query_id;
}

/** Bytes of the files in a folder. */
const folderBytes = (dir: string): number =>
  fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);

/** A server on a copy of the example workspace with `asyncYaml`, for the tests of one describe (removed after). */
function startedWith(asyncYaml: string): { app: () => FastifyInstance; dataDir: () => string } {
  let workspace: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    workspace = workspaceWith(asyncYaml);
    app = await startServer(workspace, { DATA_DIR: path.join(workspace, 'data') });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });
  return { app: () => app, dataDir: () => path.join(workspace, 'data') };
}

describe('async results stored by several workers at once', () => {
  const server = startedWith('  workers: 4\n  max_result_size: 20kb\n  max_stored_size: 50kb\n');

  it('keeps them within max_stored_size together, while SELECT 1 answers beside them', async () => {
    for (let round = 0; round < 3; round++) {
      const ids = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          submit(server.app(), `SELECT ${i} AS n, repeat('y', 1000) AS s FROM range(100)`),
        ),
      );
      const small = await server
        .app()
        .inject({ method: 'POST', url: `${base}/sql`, payload: { query: 'SELECT 1 AS one' } });
      expect(small.json().rows).toEqual([{ one: 1 }]);
      // Results being written are counted: one that finds the store held by them fails, never overfills it.
      const settled = await Promise.all(ids.map((id) => settle(server.app(), id)));
      for (const job of settled.filter((j) => j.status === 'FAILED'))
        expect(job.error).toMatch(/^No room for a \d+-byte result: results being written hold/);
      expect(settled.filter((j) => j.status === 'COMPLETED').length).toBeGreaterThanOrEqual(2);
      const dir = path.join(server.dataDir(), 'query-jobs');
      const stored = fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.rows'))
        .reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
      expect(stored).toBeLessThanOrEqual(50 * 1024);
    }
  });
});

describe('async result size', () => {
  const server = startedWith('  workers: 1\n  max_result_size: 20kb\n  max_stored_size: 50kb\n');
  const { dataDir } = server;

  it('stores one job up to max_result_size and says the result is truncated by it', async () => {
    const id = await submit(server.app(), "SELECT i, repeat('x', 1000) AS s FROM range(100) t(i)");
    expect((await settle(server.app(), id)).status).toBe('COMPLETED');
    const page = (await server.app().inject({ method: 'GET', url: `${base}/async/${id}/results?limit=10000` })).json();
    expect(page.truncated).toBe(true);
    expect(page.truncated_reason).toMatch(/max_result_size \(20480 bytes\)/);
    expect(page.total_row_count).toBeGreaterThan(10);
    expect(page.total_row_count).toBeLessThan(21);
    expect(page.rows.map((r: { i: number }) => r.i)).toEqual(Array.from({ length: page.total_row_count }, (_, i) => i));
    const rows = fs
      .readdirSync(path.join(dataDir(), 'query-jobs'))
      .find((name) => name.startsWith(id) && name.endsWith('.rows'))!;
    expect(fs.statSync(path.join(dataDir(), 'query-jobs', rows)).size).toBeLessThanOrEqual(20 * 1024 + 1);
  });

  it('measures values while they are converted: a list past max_result_size fails its job, naming it', async () => {
    const id = await submit(server.app(), 'SELECT range(0, 5000000) AS l');
    expect(await settle(server.app(), id)).toMatchObject({
      status: 'FAILED',
      error: 'One row of the result is larger than async.max_result_size (20480 bytes)',
    });
    // Lists that fit are stored until the next one does not, and the reason names the byte limit.
    const cut = await submit(server.app(), 'SELECT i, range(0, 1000) AS l FROM range(100) t(i)');
    expect((await settle(server.app(), cut)).status).toBe('COMPLETED');
    const page = (await server.app().inject({ method: 'GET', url: `${base}/async/${cut}/results?limit=10000` })).json();
    expect(page).toMatchObject({ truncated: true, truncated_reason: expect.stringMatching(/max_result_size/) });
    expect(page.rows.map((r: { l: number[] }) => r.l.length)).toEqual(Array(page.total_row_count).fill(1000));
  });

  it('keeps every result together within max_stored_size, removing the oldest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(await submit(server.app(), `SELECT ${i} AS n, repeat('y', 1000) AS s FROM range(100)`));
      expect((await settle(server.app(), ids[i])).status).toBe('COMPLETED');
    }
    // 20 kB each, 50 kB in all: the two newest stay, the older ones were removed.
    expect(folderBytes(path.join(dataDir(), 'query-jobs'))).toBeLessThan(50 * 1024 + 4096);
    for (const id of ids.slice(2))
      expect((await server.app().inject({ method: 'GET', url: `${base}/async/${id}/results` })).statusCode).toBe(200);
    // A job whose result was removed stays, and says its results are gone.
    expect((await server.app().inject({ method: 'GET', url: `${base}/async/${ids[0]}/status` })).json()).toMatchObject({
      status: 'COMPLETED',
    });
    const gone = await server.app().inject({ method: 'GET', url: `${base}/async/${ids[0]}/results` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({
      detail: `The results of async query ${ids[0]} are gone`,
      code: 'QUERY_RESULTS_GONE',
    });
  });

  it('removes a finished job and its result on DELETE', async () => {
    const id = await submit(server.app(), 'SELECT 1 AS one');
    expect((await settle(server.app(), id)).status).toBe('COMPLETED');
    const removed = await server.app().inject({ method: 'DELETE', url: `${base}/async/${id}` });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ query_id: id, status: 'COMPLETED' });
    expect((await server.app().inject({ method: 'GET', url: `${base}/async/${id}/results` })).statusCode).toBe(404);
    expect(fs.readdirSync(path.join(dataDir(), 'query-jobs')).filter((name) => name.startsWith(id))).toEqual([]);
  });

  it('refuses an async query on an unknown table at submit, with the 404 of the synchronous endpoint', async () => {
    for (const query of ['SELECT * FROM shop.nothing', 'SELECT * FROM nowhere.t']) {
      const sync = await server.app().inject({ method: 'POST', url: `${base}/sql`, payload: { query } });
      const async = await server.app().inject({ method: 'POST', url: `${base}/async`, payload: { query } });
      expect(async.statusCode).toBe(404);
      expect(async.json()).toEqual(sync.json());
    }
  });
});

describe('async jobs with authentication on', () => {
  let workspace: string;
  let app: FastifyInstance;
  const basic = (user: string) => ({ authorization: `Basic ${Buffer.from(`${user}:pw-${user}`).toString('base64')}` });
  beforeAll(async () => {
    workspace = workspaceWith('  workers: 1\n');
    const users = path.join(workspace, 'users');
    fs.writeFileSync(users, ['alice', 'bob'].map((user) => `${user}:${bcrypt.hashSync(`pw-${user}`, 4)}`).join('\n'));
    app = await startServer(workspace, {
      DATA_DIR: path.join(workspace, 'data'),
      AUTH_ENABLED: 'true',
      AUTH_USERS_FILE: users,
    });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it("answers 404 to anyone but the job's owner, for status, results and DELETE", async () => {
    const id = await submit(app, 'SELECT 42 AS answer', basic('alice'));
    expect((await settle(app, id, basic('alice'))).status).toBe('COMPLETED');
    for (const [method, url] of [
      ['GET', `${base}/async/${id}/status`],
      ['GET', `${base}/async/${id}/results`],
      ['DELETE', `${base}/async/${id}`],
    ] as const) {
      const other = await app.inject({ method, url, headers: basic('bob') });
      expect(other.statusCode, `${method} ${url}`).toBe(404);
      expect(other.json().detail).toMatch(/unknown or expired/);
      expect((await app.inject({ method, url })).statusCode).toBe(401);
    }
    expect(
      (await app.inject({ method: 'GET', url: `${base}/async/${id}/results`, headers: basic('alice') })).json().rows,
    ).toEqual([{ answer: 42 }]);
  });
});

describe('async jobs across a restart', () => {
  it('runs the jobs that were waiting, and fails only the one that was running', async () => {
    const workspace = workspaceWith('  workers: 1\n');
    const env = { DATA_DIR: path.join(workspace, 'data') };
    const first = await startServer(workspace, env);
    const running = await submit(first, slowQuery);
    await waitStarted(first, running);
    const waiting = await submit(first, 'SELECT 7 AS seven');
    await first.close();

    const second = await startServer(workspace, env);
    try {
      expect(await settle(second, running)).toMatchObject({ status: 'FAILED', error: 'interrupted by restart' });
      expect(await settle(second, waiting)).toMatchObject({ status: 'COMPLETED' });
      expect((await second.inject({ method: 'GET', url: `${base}/async/${waiting}/results` })).json().rows).toEqual([
        { seven: 7 },
      ]);
    } finally {
      await second.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('an async job store that is down', () => {
  it.each([
    ['redis', 'redis://127.0.0.1:1'],
    ['postgres', 'postgres://postgres@127.0.0.1:1/postgres'],
  ])(
    'makes the async endpoints answer 503 at once while %s is unreachable; every other query is unaffected',
    async (_kind, url) => {
      const workspace = workspaceWith('  workers: 1\n');
      const app = await startServer(workspace, { QUERY_JOB_STORE: url, DATA_DIR: path.join(workspace, 'data') });
      try {
        const started = Date.now();
        const refused = await app.inject({ method: 'POST', url: `${base}/async`, payload: { query: 'SELECT 1' } });
        expect(refused.statusCode).toBe(503);
        expect(refused.json().detail).toMatch(/async job store .* is unavailable/);
        expect(
          (await app.inject({ method: 'GET', url: `${base}/async/00000000-0000-4000-8000-000000000000/status` }))
            .statusCode,
        ).toBe(503);
        expect(Date.now() - started).toBeLessThan(10_000);
        const sync = await app.inject({
          method: 'POST',
          url: `${base}/sql`,
          payload: { query: 'SELECT count(*) AS n FROM shop.customers' },
        });
        expect(sync.statusCode).toBe(200);
        expect(sync.json().rows).toEqual([{ n: 120 }]);
      } finally {
        await app.close();
        fs.rmSync(workspace, { recursive: true, force: true });
      }
    },
  );
});

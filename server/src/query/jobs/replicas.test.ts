import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../test-support/server-process.js';
import { storeUnderTest, type StoreUnderTest } from '../test-support/job-stores.js';
import { copyExampleWorkspace, slowQuery } from '../test-support/query-fixtures.js';

const leaseMs = 1500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(
  server: ServerProcess,
  method: string,
  url: string,
  body?: object,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.base}/api/v1/query${url}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function submit(server: ServerProcess, query: string): Promise<string> {
  const accepted = await call(server, 'POST', '/async', { query });
  expect(accepted.status).toBe(202);
  return accepted.body.query_id as string;
}

/** Polls `server` until the job's status satisfies `done`; gives up after `withinMs`. */
async function waitFor(
  server: ServerProcess,
  id: string,
  done: (status: Record<string, unknown>) => boolean,
  withinMs = 20_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const { body } = await call(server, 'GET', `/async/${id}/status`);
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`job ${id}: still ${JSON.stringify(body)} after ${withinMs} ms`);
    await sleep(50);
  }
}

describe.each(['redis', 'postgres'] as const)('two server processes on one %s job store', (kind) => {
  let target: StoreUnderTest;
  let workspace: string;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    target = storeUnderTest(kind, leaseMs);
    workspace = copyExampleWorkspace();
    const sources = path.join(workspace, 'query', 'sources.yaml');
    fs.writeFileSync(sources, `async:\n  workers: 1\n${fs.readFileSync(sources, 'utf8')}`);
    const { store, prefix } = target.settings;
    const env = (name: string) => ({
      WORKSPACE: workspace,
      DATA_DIR: path.join(workspace, name),
      QUERY_JOB_STORE: 'url' in store ? store.url : '',
      QUERY_JOB_STORE_PREFIX: prefix,
      QUERY_JOB_LEASE_MS: String(leaseMs),
    });
    [a, b] = await Promise.all([startServerProcess(env('a')), startServerProcess(env('b'))]);
  }, 90_000);
  afterAll(async () => {
    for (const server of [a, b]) server?.child.kill('SIGKILL');
    await target.destroy();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('submits on one, polls and pages on the other', async () => {
    const id = await submit(a, 'SELECT i, i * i AS square FROM range(2500) t(i) ORDER BY i');
    expect(await waitFor(b, id, (s) => s.status !== 'RUNNING')).toMatchObject({ status: 'COMPLETED' });
    const page = await call(b, 'GET', `/async/${id}/results?offset=1995&limit=10`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total_row_count: 2500, row_count: 10, offset: 1995, next_offset: 2005 });
    expect(page.body.rows).toEqual(Array.from({ length: 10 }, (_, k) => ({ i: 1995 + k, square: (1995 + k) ** 2 })));
  });

  /** The replica process that runs job `id`, and the other one. */
  async function runnerOf(id: string): Promise<[ServerProcess, ServerProcess]> {
    const replica = (await replicaOf(id))!;
    return replica.includes(`/${a.child.pid}/`) ? [a, b] : [b, a];
  }

  async function replicaOf(id: string): Promise<string | null> {
    const store = await target.open();
    try {
      return (await store.read(id))!.job.replica;
    } finally {
      await store.close();
    }
  }

  it('cancels on the other replica, which frees the worker that ran it', async () => {
    const slow = await submit(a, slowQuery);
    await waitFor(a, slow, (s) => s.started_at !== null);
    const [running, other] = await runnerOf(slow);
    const cancelled = await call(other, 'DELETE', `/async/${slow}`);
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'CANCELLED' } });
    expect((await call(running, 'GET', `/async/${slow}/status`)).body.status).toBe('CANCELLED');
    // One worker a replica: the replica that ran the cancelled query takes new jobs again. A second slow
    // job holds one replica's worker; if that is not the first runner, a quick job can only go to it.
    const next = await submit(other, slowQuery);
    await waitFor(other, next, (s) => s.started_at !== null);
    const [nextRunner] = await runnerOf(next);
    if (nextRunner !== running) {
      const quick = await submit(other, 'SELECT 1 AS n');
      expect(await waitFor(other, quick, (s) => s.status !== 'RUNNING', 10_000)).toMatchObject({ status: 'COMPLETED' });
      expect(await replicaOf(quick)).toContain(`/${running.child.pid}/`);
    }
    expect((await call(other, 'DELETE', `/async/${next}`)).status).toBe(200);
  });

  it('marks FAILED, from the other replica, a job whose replica was killed, within the lease', async () => {
    const id = await submit(a, slowQuery);
    await waitFor(a, id, (s) => s.started_at !== null);
    const [running, survivor] = await runnerOf(id);
    running.child.kill('SIGKILL');
    await running.exit;
    const killedAt = Date.now();
    const failed = await waitFor(survivor, id, (s) => s.status !== 'RUNNING', 15_000);
    expect(failed).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/replica running it stopped/) });
    // Lease plus one heartbeat of the survivor, with room for a busy machine.
    expect(Date.now() - killedAt).toBeLessThan(leaseMs * 2 + 3000);
    // The survivor goes on serving async jobs.
    const next = await submit(survivor, 'SELECT 3 AS three');
    expect(await waitFor(survivor, next, (s) => s.status !== 'RUNNING')).toMatchObject({ status: 'COMPLETED' });
  });
});

describe('one server on the folder store, killed with SIGKILL', () => {
  it('fails the job it was running and runs the waiting ones after a restart', async () => {
    const workspace = copyExampleWorkspace();
    const sources = path.join(workspace, 'query', 'sources.yaml');
    fs.writeFileSync(sources, `async:\n  workers: 1\n${fs.readFileSync(sources, 'utf8')}`);
    const env = { WORKSPACE: workspace, DATA_DIR: path.join(workspace, 'data') };
    const first = await startServerProcess(env);
    let second: ServerProcess | undefined;
    try {
      const running = await submit(first, slowQuery);
      await waitFor(first, running, (s) => s.started_at !== null);
      const waiting = [await submit(first, 'SELECT 1 AS one'), await submit(first, 'SELECT 2 AS two')];
      first.child.kill('SIGKILL');
      await first.exit;
      second = await startServerProcess(env);
      expect(await waitFor(second, running, (s) => s.status !== 'RUNNING')).toMatchObject({
        status: 'FAILED',
        error: 'interrupted by restart',
      });
      for (const id of waiting)
        expect(await waitFor(second, id, (s) => s.status !== 'RUNNING')).toMatchObject({ status: 'COMPLETED' });
      expect((await call(second, 'GET', `/async/${waiting[1]}/results`)).body.rows).toEqual([{ two: 2 }]);
    } finally {
      first.child.kill('SIGKILL');
      second?.child.kill('SIGKILL');
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('QUERY_JOB_STORE with a bad value', () => {
  it('stops the server at start with one line naming the variable, exit code 2', async () => {
    const workspace = copyExampleWorkspace();
    const error = await startServerProcess({ QUERY_JOB_STORE: 'mongodb://db:27017', WORKSPACE: workspace }).then(
      () => undefined,
      (e: Error) => e,
    );
    fs.rmSync(workspace, { recursive: true, force: true });
    expect(error?.message).toMatch(
      new RegExp(
        String.raw`exited with 2 before listening: adaptive-gateway: QUERY_JOB_STORE="mongodb://db:27017" ` +
          String.raw`is not valid: expected .*redis://.*postgres://.*\n$`,
      ),
    );
  });
});

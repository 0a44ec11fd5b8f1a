import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';
import { settle } from '../test-support/async-polling.js';
import { TrinoReplayServer } from '../test-support/trino-replay.js';

const base = '/api/v1/query';
const replay = new TrinoReplayServer();
let workspace: string;
let app: FastifyInstance;

beforeAll(async () => {
  await replay.start();
  workspace = makeWorkspace({
    'query/sources.yaml':
      `engine: trino\ntrino: { server: "${replay.url}", retries: 3 }\nsources:\n` +
      `  - { name: shop, type: relational, connector: postgres, url: "postgres://x@127.0.0.1:1/shop", ` +
      `trino: { catalog: postgresql, schema: public } }\n`,
  });
  app = await startServer(workspace, { DATA_DIR: path.join(workspace, 'data') });
});
afterAll(async () => {
  await app.close();
  await replay.stop();
  removeWorkspace(workspace);
});

async function submit(query: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: `${base}/async`, payload: { query } });
  expect(response.statusCode, response.body).toBe(202);
  return response.json<{ query_id: string }>().query_id;
}

const status = async (id: string) =>
  (await app.inject({ method: 'GET', url: `${base}/async/${id}/status` })).json<{
    status: string;
    engine_query_id?: string;
  }>();

describe('async jobs on Trino', () => {
  it("stores Trino's query id, shows it in the status, and completes with the rows", async () => {
    const id = await submit('SELECT region FROM shop.orders');
    expect((await settle(app, id)).status).toBe('COMPLETED');
    const done = await status(id);
    expect(done.engine_query_id).toMatch(/_replay$/);
    expect(replay.requests.some((r) => r.url.includes(done.engine_query_id!))).toBe(true);
    const results = await app.inject({ method: 'GET', url: `${base}/async/${id}/results` });
    expect(results.json()).toMatchObject({ row_count: 2 });
  });

  it('cancels the query at Trino (DELETE on its nextUri) when the job is cancelled', async () => {
    const id = await submit('SELECT slow FROM shop.orders');
    await vi.waitFor(async () => expect((await status(id)).engine_query_id).toBeDefined(), { timeout: 10_000 });
    const trinoId = (await status(id)).engine_query_id!;
    const cancelled = await app.inject({ method: 'DELETE', url: `${base}/async/${id}` });
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', engine_query_id: trinoId });
    await vi.waitFor(() =>
      expect(
        replay.requests.some(
          (r) => r.method === 'DELETE' && new RegExp(`^/v1/statement/\\w+/${trinoId}/\\d+$`).test(r.url),
        ),
      ).toBe(true),
    );
  });
});

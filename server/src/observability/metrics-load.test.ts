import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';
import { metricsPath } from './observability.js';
import { shopItemRoute, shopSpec } from './test-support/shop.js';

const workspace = makeWorkspace({ 'specs/shop.yaml': shopSpec });
let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  app = await startServer(workspace);
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await app?.close();
  removeWorkspace(workspace);
});

/** The `_count` sample of the shop route's successful GETs in a scrape. */
const routeCount = (text: string) => {
  const line = text
    .split('\n')
    .find((l) => l.startsWith('http_server_requests_seconds_count{') && l.includes(`route="${shopItemRoute}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
};

// Hostile: the scrape competes with 200 requests in flight over real connections; it must complete (within a
// generous bound, Prometheus' default scrape timeout is 10 s) and count what was answered before it.
it('answers a scrape while 200 concurrent requests are in flight, and counts them all afterwards', async () => {
  const scrape = () => fetch(origin + metricsPath, { signal: AbortSignal.timeout(30_000) });
  const before = routeCount(await (await scrape()).text());
  const load = Array.from({ length: 200 }, (_, i) => fetch(`${origin}/api/adaptive/shop/items/${i}`));
  const during = await Promise.all([scrape(), scrape(), scrape()]);
  for (const response of during) {
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^http_server_requests_seconds_count\{/m);
  }
  const answers = await Promise.all(load);
  expect(answers.every((answer) => answer.status === 200)).toBe(true);
  await Promise.all(answers.map((answer) => answer.arrayBuffer()));
  const after = routeCount(await (await scrape()).text());
  expect(after - before).toBe(200);
}, 120_000);

import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { buildServer } from '../main/app.js';
import { makeWorkspace, removeWorkspace, serverForTests, startServer } from '../test-support/workspace.js';
import type { FastifyInstance } from 'fastify';
import { seriesCount } from './metrics.js';
import { metricsPath } from './observability.js';
import { lineSink, shopItemRoute, shopSpec } from './test-support/shop.js';

const shopWorkspace = () => makeWorkspace({ 'specs/shop.yaml': shopSpec });

/** The value of one sample line of the text format, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('http_server_requests_seconds', () => {
  const server = serverForTests(shopWorkspace);

  it('counts requests by route template, status, outcome and mode', async () => {
    const before = (await server.app.inject({ url: metricsPath })).body;
    const labels = { route: shopItemRoute, status: '200', outcome: 'SUCCESS', mode: 'static', method: 'GET' };
    for (const id of ['a', 'b', 'c']) await server.app.inject({ url: `/api/adaptive/shop/items/${id}` });
    const scrape = await server.app.inject({ url: metricsPath });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const count = (text: string) => sample(text, 'http_server_requests_seconds_count', labels);
    expect(count(scrape.body) - count(before)).toBe(3);
    expect(scrape.body).not.toContain('/items/a');
    // Node's default process metrics are there too.
    expect(scrape.body).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('keeps client input out of the labels: 20,000 distinct unknown paths add one series', async () => {
    await server.app.inject({ url: '/api/adaptive/nothing/warm-up' });
    await server.app.inject({ url: '/api/v1/nowhere/warm-up' });
    const before = await seriesCount();
    for (let i = 0; i < 20_000; i++) {
      const prefix = i % 2 === 0 ? '/api/adaptive/nothing' : '/api/v1/nowhere';
      await server.app.inject({ url: `${prefix}/${i}?q=${i}`, method: i % 3 === 0 ? 'DELETE' : 'GET' });
    }
    // GET and DELETE of the one UNKNOWN route, at most one status each: bounded however many paths come.
    expect((await seriesCount()) - before).toBeLessThanOrEqual(2 * 16);
    const text = (await server.app.inject({ url: metricsPath })).body;
    expect(text).not.toMatch(/nothing\/\d|nowhere\/\d/);
    expect(sample(text, 'http_server_requests_seconds_count', { route: 'UNKNOWN', status: '404' })).toBeGreaterThan(0);
  }, 120_000);
});

describe('http_server_requests_seconds of an answer sent as a stream', () => {
  const workspace = shopWorkspace();
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildServer(loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent' }, { workspace }));
    // Its last chunk 300 ms after the answer began: the request lasts until that chunk is written.
    app.get('/api/adaptive/slow-stream', async (_request, reply) => {
      const body = new PassThrough();
      body.write('first ');
      setTimeout(() => body.end('last'), 300);
      return reply.type('text/plain').send(body);
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  // Over real HTTP: the arrival time is taken from the server's `request` event, which `inject` does not pass.
  it('is observed when the last byte is written, not when the stream is handed over', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    expect(await (await fetch(`${address}/api/adaptive/slow-stream`)).text()).toBe('first last');
    const text = (await app.inject({ url: metricsPath })).body;
    const labels = { route: '/api/adaptive/slow-stream', status: '200' };
    expect(sample(text, 'http_server_requests_seconds_count', labels)).toBe(1);
    expect(sample(text, 'http_server_requests_seconds_sum', labels)).toBeGreaterThanOrEqual(0.29);
  });
});

describe('the access log', () => {
  const lines: Record<string, unknown>[] = [];
  let app: FastifyInstance;
  const workspace = shopWorkspace();
  beforeAll(async () => {
    const sink = lineSink(lines);
    const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'info' }, { workspace });
    app = await buildServer(config, { logger: createLogger('info', sink) });
    await app.ready();
    await app.gateway.start();
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  it('writes one line per request with its route, never a credential, a query string or a body', async () => {
    const response = await app.inject({
      url: '/api/adaptive/shop/items/42?token=secret-in-query',
      headers: { authorization: 'Bearer secret-token', cookie: 'session=secret-cookie' },
    });
    const access = lines.filter((l) => l.msg === 'access');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 30,
      method: 'GET',
      path: '/api/adaptive/shop/items/42',
      route: shopItemRoute,
      status: 200,
      mode: 'static',
      reqId: response.headers['request-id'] ?? expect.any(String),
      bytes: Number(response.headers['content-length']),
      ms: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toMatch(/secret/);
  });
});

describe('switched off', () => {
  const workspace = shopWorkspace();
  afterAll(() => removeWorkspace(workspace));

  it('METRICS_ENABLED=false serves no metrics endpoint', async () => {
    const app = await startServer(workspace, { METRICS_ENABLED: 'false', ACCESS_LOG: 'false' });
    try {
      expect((await app.inject({ url: metricsPath })).statusCode).toBe(404);
      expect(app.hasRoute({ method: 'GET', url: metricsPath })).toBe(false);
    } finally {
      await app.close();
    }
  });
});

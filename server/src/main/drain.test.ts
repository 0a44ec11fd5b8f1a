import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from './app.js';
import { loadConfig } from '../core/config.js';
import { drainAndClose, refuseNewRequests } from './drain.js';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';

const workspace = makeWorkspace();
afterAll(() => removeWorkspace(workspace));

/** GET `path` through `agent`; the status, the Connection header, and whether the socket was reused. */
function get(
  port: number,
  path: string,
  agent: http.Agent,
): Promise<{ status: number; connection?: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          connection: response.headers.connection,
          reused: request.reusedSocket,
        }),
      );
    });
    request.on('error', reject);
  });
}

describe('drainAndClose', () => {
  it(
    'serves requests sent on idle keep-alive connections after the drain starts, with Connection: close, and ' +
      'finishes those in flight',
    async () => {
      const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent' }, { workspace });
      const app = await buildServer(config, { logger: pino({ level: 'silent' }) });
      app.get('/slow', async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { done: true };
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      const liveness = '/api/adaptive/actuator/health/liveness';
      try {
        // Four connections, then idle in the agent's pool.
        await Promise.all(Array.from({ length: 4 }, () => get(port, liveness, agent)));
        const slow = get(port, '/slow', agent);
        await new Promise((resolve) => setTimeout(resolve, 20));

        const started = Date.now();
        const drained = drainAndClose(app, 3000);
        const during = await Promise.all(Array.from({ length: 3 }, () => get(port, liveness, agent)));
        expect(during.map((r) => r.status)).toEqual([200, 200, 200]);
        expect(during.every((r) => r.reused && r.connection === 'close')).toBe(true);
        expect(await slow).toEqual({ status: 200, connection: 'close', reused: true });
        await drained;
        // Every client was told to go and went, so the drain did not wait its whole time.
        expect(Date.now() - started).toBeLessThan(3000);
        expect(app.server.listening).toBe(false);
      } finally {
        agent.destroy();
        await app.close();
      }
    },
  );
});

describe('a handler call taken before Fastify and cut off by the close', () => {
  it("is answered with a {detail, code} body, not Fastify's own 503", async () => {
    const spec = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'shop', version: '1' },
      paths: { '/never': { get: { responses: { 200: { description: 'ok' } } } } },
    });
    const handler = `import { Router } from 'adaptive-workbench/handler';
export const router = new Router();
router.get('/never', () => new Promise(() => {}));
`;
    const shop = makeWorkspace({ 'specs/shop.openapi.json': spec, 'handlers/shop_handler.ts': handler });
    const app = await startServer(shop, { HANDLER_TIMEOUT_MS: '60000', SHUTDOWN_DRAIN_MS: '200' });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const answered = fetch(`http://127.0.0.1:${port}/api/adaptive/shop/never`);
      // The call is in the handler's process (the route answers nothing) when the close stops that process.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await drainAndClose(app, 200);
      const response = await answered;
      expect(response.status).toBe(503);
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'detail']);
      expect(body.code).toBe('HANDLER_RESTARTING');
    } finally {
      await app.close();
      removeWorkspace(shop);
    }
  });
});

describe('refuseNewRequests', () => {
  it('answers every later request 503 {detail, code} with Connection: close instead of the application', async () => {
    const server = http.createServer((_request, response) => response.end('application'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      refuseNewRequests(server);
      const response = await fetch(`http://127.0.0.1:${port}/anything`);
      expect(response.status).toBe(503);
      expect(response.headers.get('connection')).toBe('close');
      expect(await response.json()).toEqual({
        detail: 'The server is shutting down; send the request again',
        code: 'SHUTTING_DOWN',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

import http from 'node:http';
import type net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';

let upstream: http.Server;
let port: number;
let workspace: string;
let app: FastifyInstance;

beforeAll(async () => {
  upstream = http.createServer((_request, response) => response.end('{"ok":true}'));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  port = (upstream.address() as net.AddressInfo).port;
  workspace = makeWorkspace({
    'specs/tiny.openapi.json': JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } },
    }),
    'health.yaml': `components:
  v1registry:
    components:
      openapi: {http: {url: "http://127.0.0.1:\${UPSTREAM_PORT}/openapi.json"}}
      version: {tcp: {host: 127.0.0.1, port: "\${UPSTREAM_PORT}"}}
`,
  });
  process.env.UPSTREAM_PORT = String(port);
  app = await startServer(workspace);
});
afterAll(async () => {
  await app.close();
  upstream.close();
  removeWorkspace(workspace);
  delete process.env.UPSTREAM_PORT;
});

describe('/api/health', () => {
  it('runs every check and reports the tree with groups', async () => {
    const response = await app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('UP');
    expect(body.groups).toEqual(['api', 'liveness', 'readiness']);
    expect(Object.keys(body.components)).toEqual(['gateway', 'v1registry']);
    expect(Object.keys(body.components.gateway.components)).toEqual(['auth', 'hello', 'openapi']);
    expect(body.components.gateway.components.auth.details.enabled).toBe(false);
    expect(body.components.gateway.components.openapi.details.paths).toBe(1);
    expect(body.components.v1registry.components.openapi.details.status_code).toBe(200);
  });

  it('answers one component, and one sub-component', async () => {
    const component = (await app.inject({ url: '/api/health/v1registry' })).json();
    expect(component).toMatchObject({ status: 'UP', groups: ['api', 'liveness', 'readiness'] });
    expect(Object.keys(component.components)).toEqual(['openapi', 'version']);
    const sub = (await app.inject({ url: '/api/health/gateway/hello' })).json();
    expect(sub).toMatchObject({ status: 'UP', details: { routes: 1 } });
  });

  it('answers 404 for an unknown component', async () => {
    for (const url of ['/api/health/nothing', '/api/health/gateway/nothing', '/api/health/__proto__']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.json().detail).toMatch(/^No health component/);
    }
  });

  it('answers 503 when a component is DOWN, and says why', async () => {
    await new Promise((resolve) => upstream.close(resolve));
    try {
      const response = await app.inject({ url: '/api/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json().status).toBe('DOWN');
      expect(response.json().components.gateway.status).toBe('UP');
      expect(response.json().components.v1registry.components.version.details.error).toMatch(/ECONNREFUSED/);
    } finally {
      upstream = http.createServer((_request, response) => response.end('{}'));
      await new Promise<void>((resolve) => upstream.listen(port, '127.0.0.1', resolve));
    }
  });
});

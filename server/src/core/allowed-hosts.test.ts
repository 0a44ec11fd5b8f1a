import type net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedHost } from './allowed-hosts.js';
import { loadConfig } from './config.js';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';

describe('ALLOWED_HOSTS', () => {
  it('defaults to the loopback names and the bound host, any port', () => {
    expect(loadConfig({}, {}).allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(loadConfig({ HOST: '0.0.0.0' }, {}).allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]', '0.0.0.0']);
    expect(loadConfig({ HOST: '::1' }, {}).allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(loadConfig({ ALLOWED_HOSTS: '*' }, {}).allowedHosts).toBe('*');
    expect(loadConfig({ ALLOWED_HOSTS: 'Gateway.example.com, .svc' }, {}).allowedHosts).toEqual([
      'gateway.example.com',
      '.svc',
    ]);
    expect(() => loadConfig({ ALLOWED_HOSTS: 'http://a.example' }, {})).toThrow(/ALLOWED_HOSTS/);
  });

  it('matches names case-insensitively, with any port, and subdomains of a leading-dot entry', () => {
    const allowed = ['localhost', '[::1]', '.example.com'];
    expect(isAllowedHost('LOCALHOST:8080', allowed)).toBe(true);
    expect(isAllowedHost('[::1]:9', allowed)).toBe(true);
    expect(isAllowedHost('example.com', allowed)).toBe(true);
    expect(isAllowedHost('a.b.example.com.', allowed)).toBe(true);
    expect(isAllowedHost('badexample.com', allowed)).toBe(false);
    expect(isAllowedHost('localhost.attacker.example', allowed)).toBe(false);
    expect(isAllowedHost('', allowed)).toBe(false);
  });
});

describe('a server with the default ALLOWED_HOSTS', () => {
  let workspace: string;
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    workspace = makeWorkspace();
    app = await startServer(workspace);
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  const refused = { detail: 'This server does not answer to Host "attacker.example" (see ALLOWED_HOSTS)' };

  it('refuses SQL and the actuator refresh for another Host with 421, while normal requests are served', async () => {
    const headers = { host: 'attacker.example', 'content-type': 'application/json' };
    const [sql, refresh, liveness, normal] = await Promise.all([
      app.inject({ method: 'POST', url: '/api/v1/query/sql', headers, payload: { query: 'SELECT 1' } }),
      app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh', headers: { host: 'attacker.example' } }),
      app.inject({ url: '/api/adaptive/actuator/health/liveness', headers: { host: 'attacker.example:8080' } }),
      fetch(`http://127.0.0.1:${port}/api/adaptive/actuator/health/liveness`),
    ]);
    for (const answer of [sql, refresh, liveness]) {
      expect(answer.statusCode).toBe(421);
      expect(answer.json().code).toBe('HOST_NOT_ALLOWED');
    }
    expect(sql.json()).toEqual({ ...refused, code: 'HOST_NOT_ALLOWED' });
    expect(normal.status).toBe(200);
  });

  it('serves the loopback names with any port', async () => {
    for (const host of ['localhost:5173', '127.0.0.1', '[::1]:8080', 'LocalHost']) {
      const answer = await app.inject({ url: '/api/adaptive/actuator/health/liveness', headers: { host } });
      expect(answer.statusCode, host).toBe(200);
    }
    expect((await fetch(`http://localhost:${port}/api/adaptive/`)).status).toBe(200);
  });
});

describe('a server with ALLOWED_HOSTS=*', () => {
  it('serves any Host', async () => {
    const workspace = makeWorkspace();
    const app = await startServer(workspace, { ALLOWED_HOSTS: '*' });
    try {
      const answer = await app.inject({ url: '/api/adaptive/', headers: { host: 'gateway.example.com' } });
      expect(answer.statusCode).toBe(200);
    } finally {
      await app.close();
      removeWorkspace(workspace);
    }
  });
});

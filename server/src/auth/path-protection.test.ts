import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyRequest, normalisePath } from './request-path.js';
import { rawRequest, startAuthServer, type AuthServer } from './test-support/auth-server.js';

describe('classifyRequest', () => {
  it('leaves only the exact probe paths open under the gateway prefix', () => {
    expect(classifyRequest('GET', '/api/adaptive/actuator/health/liveness', false)).toBe('public');
    expect(classifyRequest('HEAD', '/api/adaptive/actuator/health/readiness/', false)).toBe('public');
    expect(classifyRequest('GET', '/api/adaptive/actuator/health/readiness?full=1', false)).toBe('public');
    expect(classifyRequest('POST', '/api/adaptive/actuator/health/liveness', false)).toBe('protected');
    expect(classifyRequest('GET', '/api/adaptive/actuator/health/liveness/x', false)).toBe('protected');
    expect(classifyRequest('GET', '/api/adaptive/actuator/health', false)).toBe('protected');
  });

  it('classifies health as optional, other paths as public, unreadable targets as protected', () => {
    expect(classifyRequest('GET', '/api/health', false)).toBe('optional');
    expect(classifyRequest('GET', '/api/health/gateway/auth', false)).toBe('optional');
    expect(classifyRequest('GET', '/workbench/', false)).toBe('public');
    expect(classifyRequest('OPTIONS', '*', false)).toBe('protected');
    expect(classifyRequest('GET', 'http://example.com/api/adaptive/actuator/info', false)).toBe('protected');
  });

  it('lets CORS preflights through', () => {
    expect(classifyRequest('OPTIONS', '/api/adaptive/actuator/info', true)).toBe('public');
    expect(classifyRequest('GET', '/api/adaptive/actuator/info', true)).toBe('protected');
  });

  it('normalises decoding, slashes, dot segments, matrix parameters and case', () => {
    expect(normalisePath('//API/./adaptive//actuator/health/liveness/..%2F..%2finfo')).toBe(
      '/api/adaptive/actuator/info',
    );
    expect(normalisePath('/api/health/%252e%252e/adaptive')).toBe('/api/adaptive');
    expect(normalisePath('/api;v=1/adaptive\\actuator')).toBe('/api/adaptive/actuator');
    expect(normalisePath('/../../api')).toBe('/api');
  });
});

describe('path tricks through a real socket', () => {
  let server: AuthServer;
  let port: number;
  let usersDir: string;
  const credentials = `Basic ${Buffer.from('ops:s3cret').toString('base64')}`;

  beforeAll(async () => {
    usersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-users-'));
    fs.writeFileSync(path.join(usersDir, 'users'), `ops:${bcrypt.hashSync('s3cret', 4)}\n`);
    server = await startAuthServer({ AUTH_USERS_FILE: path.join(usersDir, 'users') });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as { port: number }).port;
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(usersDir, { recursive: true, force: true });
  });

  const get = (target: string, headers = '') => rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: localhost${headers}`);

  it.each([
    '/api/adaptive/actuator/health/liveness',
    '/api/adaptive/actuator/health/readiness',
    '/api/adaptive/actuator/health/liveness/',
    '/api/adaptive/actuator/health/liveness?probe=kubelet',
  ])('keeps the probe %s open', async (target) => {
    expect((await get(target)).status).toBe(200);
  });

  it('protects the gateway, its system routes, spec routes and the query service', async () => {
    for (const target of [
      '/api/adaptive/',
      '/api/adaptive/actuator/info',
      '/api/adaptive/openapi.json',
      '/api/adaptive/swagger-ui/',
      '/api/adaptive/library-api/books',
      '/api/v1/query/sources',
    ]) {
      expect((await get(target)).status, target).toBe(401);
    }
    expect(
      (await rawRequest(port, 'POST /api/adaptive/actuator/refresh HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0'))
        .status,
    ).toBe(401);
    expect(
      (
        await rawRequest(
          port,
          'POST /api/adaptive/actuator/health/liveness HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0',
        )
      ).status,
    ).toBe(401);
  });

  it('answers /api/health without credentials, and refuses bad ones there', async () => {
    expect((await get('/api/health')).status).not.toBe(401);
    expect(
      (await get('/api/health', `\r\nAuthorization: Basic ${Buffer.from('ops:wrong').toString('base64')}`)).status,
    ).toBe(401);
    expect((await get('/api/health', `\r\nAuthorization: ${credentials}`)).status).not.toBe(401);
  });

  it('lets a CORS preflight through without credentials', async () => {
    const response = await rawRequest(
      port,
      'OPTIONS /api/adaptive/actuator/info HTTP/1.1\r\nHost: localhost\r\nOrigin: ' +
        'https://app.example\r\nAccess-Control-Request-Method: GET',
    );
    expect(response.status).toBe(204);
  });

  it.each([
    '//api/adaptive/actuator/info',
    '/api//adaptive/actuator/info',
    '/api/adaptive//actuator/info',
    '///api/v1/query/sources',
    '/./api/adaptive/actuator/info',
  ])('hostile: doubled slashes and dot segments never skip authentication: %s', async (target) => {
    expect((await get(target)).status).toBe(401);
  });

  it.each([
    '/api/adaptive/actuator/health/liveness/../../info',
    '/api/adaptive/actuator/health/liveness/%2e%2e/%2e%2e/info',
    '/api/adaptive/actuator/health/liveness/%2E%2E/%2E%2E/info',
    '/api/adaptive/actuator/health/liveness/%252e%252e/%252e%252e/info',
    '/api/health/../adaptive/actuator/info',
    '/api/health/%2e%2e/adaptive/actuator/info',
    '/api/v1/query/%2e%2e/query/sources',
  ])('hostile: %%2e%%2e and dot segments never skip authentication: %s', async (target) => {
    expect((await get(target)).status).toBe(401);
  });

  it.each([
    '/api/adaptive/actuator/health/liveness%2f..%2f..%2finfo',
    '/api/adaptive/library-api/books/..%2f..%2factuator%2fhealth%2fliveness',
    '/api/adaptive%2factuator%2finfo',
    '/api%2fadaptive%2factuator%2finfo',
    '/api/health%2f..%2fadaptive%2factuator%2finfo',
    '/api/adaptive/actuator\\info',
  ])('hostile: encoded slashes never skip authentication: %s', async (target) => {
    expect((await get(target)).status).toBe(401);
  });

  it.each([
    '/API/ADAPTIVE/actuator/info',
    '/api/Adaptive/actuator/info',
    '/api/%61daptive/actuator/info',
    '/Api/V1/Query/sources',
    '/api/adaptive/actuator/health/LIVENESS',
  ])('hostile: case and encoded letters never skip authentication: %s', async (target) => {
    expect((await get(target)).status).toBe(401);
  });

  it('hostile: an absolute-form request target is protected like its path', async () => {
    expect((await get('http://localhost/api/adaptive/actuator/info')).status).toBe(401);
  });

  it('lets the same requests through with credentials', async () => {
    expect((await get('/api/adaptive/actuator/info', `\r\nAuthorization: ${credentials}`)).status).toBe(200);
    expect((await get('//api/adaptive/actuator/info', `\r\nAuthorization: ${credentials}`)).status).not.toBe(401);
  });
});

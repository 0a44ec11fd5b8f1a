import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerCors, type CorsOrigins } from './cors.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serverWith(origins: CorsOrigins): Promise<FastifyInstance> {
  app = Fastify();
  registerCors(app, origins);
  app.get('/items', async () => ({ items: [] }));
  app.get('/fails', async () => {
    throw Object.assign(new Error('no'), { statusCode: 400 });
  });
  await app.ready();
  return app;
}

const preflightHeaders = {
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'content-type, x-trace',
};

describe('CORS for any origin', () => {
  it('allows every origin, without credentials, on answers and errors alike', async () => {
    const server = await serverWith('*');
    const ok = await server.inject({ url: '/items', headers: { origin: 'http://localhost:5173' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    expect(ok.headers.vary).toBeUndefined();
    // A cross-origin frontend may read every header (paging's Link and X-Total-Count, the mock's report).
    expect(ok.headers['access-control-expose-headers']).toBe('*');
    const sameOrigin = await server.inject({ url: '/items' });
    expect(sameOrigin.headers['access-control-expose-headers']).toBeUndefined();
    const failed = await server.inject({ url: '/fails', headers: { origin: 'http://localhost:5173' } });
    expect(failed.statusCode).toBe(400);
    expect(failed.headers['access-control-allow-origin']).toBe('*');
    const missing = await server.inject({ url: '/nowhere', headers: { origin: 'http://localhost:5173' } });
    expect(missing.statusCode).toBe(404);
  });

  it('answers a preflight to any path with the methods, the requested headers and a max age', async () => {
    const server = await serverWith('*');
    const preflight = await server.inject({
      method: 'OPTIONS',
      url: '/items',
      headers: { origin: 'http://localhost:5173', ...preflightHeaders },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.body).toBe('');
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS',
      'access-control-allow-headers': 'content-type, x-trace',
      'access-control-max-age': '600',
      vary: 'Access-Control-Request-Headers',
    });
    const elsewhere = await server.inject({
      method: 'OPTIONS',
      url: '/not/a/route',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    });
    expect(elsewhere.statusCode).toBe(204);
    expect(elsewhere.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('answers an OPTIONS request that is no preflight the same way, without failing', async () => {
    const server = await serverWith('*');
    const plain = await server.inject({ method: 'OPTIONS', url: '/items' });
    expect(plain.statusCode).toBe(204);
    expect(plain.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('CORS for listed origins', () => {
  const origins = ['https://app.example.com', 'http://localhost:5173'];

  it('allows a listed origin with credentials and says the answer varies by origin', async () => {
    const server = await serverWith(origins);
    const allowed = await server.inject({ url: '/items', headers: { origin: 'http://localhost:5173' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    expect(allowed.headers.vary).toBe('Origin');
    // With credentials `*` would be a header name, so the readable headers are listed.
    const exposed = String(allowed.headers['access-control-expose-headers']).split(', ');
    expect(exposed).toEqual(
      expect.arrayContaining(['link', 'x-total-count', 'x-adaptive-mode', 'x-adaptive-violations']),
    );
  });

  it('refuses other origins, look-alikes, "null" and a missing origin, still varying by origin', async () => {
    const server = await serverWith(origins);
    for (const origin of [
      'https://evil.example',
      'https://app.example.com.evil.example',
      'https://app.example.com/',
      'HTTPS://APP.EXAMPLE.COM',
      'null',
      undefined,
    ]) {
      const response = await server.inject({ url: '/items', headers: origin === undefined ? {} : { origin } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(response.headers['access-control-expose-headers']).toBeUndefined();
      expect(response.headers.vary).toBe('Origin');
    }
  });

  it('answers preflights of listed and refused origins, allowing only the listed one', async () => {
    const server = await serverWith(origins);
    const listed = await server.inject({
      method: 'OPTIONS',
      url: '/items',
      headers: { origin: 'https://app.example.com', ...preflightHeaders },
    });
    expect(listed.statusCode).toBe(204);
    expect(listed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(listed.headers.vary).toBe('Origin, Access-Control-Request-Headers');
    const refused = await server.inject({
      method: 'OPTIONS',
      url: '/items',
      headers: { origin: 'https://evil.example', ...preflightHeaders },
    });
    expect(refused.statusCode).toBe(204);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
});

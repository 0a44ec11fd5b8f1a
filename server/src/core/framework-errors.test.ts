import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';

const requestTimeoutMs = 500;
let workspace: string;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  workspace = makeWorkspace();
  app = await startServer(workspace, { REQUEST_TIMEOUT_MS: String(requestTimeoutMs) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

/** Sends raw bytes (written in parts, `pauseMs` apart) and reads the answer until the server closes. */
function raw(parts: (string | Buffer)[], pauseMs = 0): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headers, ...body] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), headers, body: body.join('\r\n\r\n') });
    });
    void (async () => {
      for (const part of parts) {
        socket.write(part);
        if (pauseMs) await new Promise((done) => setTimeout(done, pauseMs));
      }
    })();
  });
}

describe('errors raised before routing are {detail, code} with the right status', () => {
  // Each fault ends one connection only: other clients are served right after it.
  afterEach(async () => {
    expect((await fetch(`http://127.0.0.1:${port}/api/adaptive/actuator/health/liveness`)).status).toBe(200);
  });

  it('408 for a client that does not finish its request, while another client is served', async () => {
    const started = Date.now();
    const slow = raw(['GET /api/adaptive/ HTTP/1.1\r\nHost: x\r\n']);
    const other = await fetch(`http://127.0.0.1:${port}/api/adaptive/actuator/health/liveness`);
    expect(other.status).toBe(200);
    const answer = await slow;
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({
      detail: `Request took longer than ${requestTimeoutMs} ms`,
      code: 'REQUEST_TIMEOUT',
    });
    expect(answer.headers.toLowerCase()).toContain('content-type: application/json');
    // The bound: within the timeout plus the server's checking interval and a second.
    expect(Date.now() - started).toBeLessThan(requestTimeoutMs * 2 + 1000);
  });

  it('431 for headers over the limit', async () => {
    const answer = await raw([`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      detail: 'Request headers are larger than the limit of 16384 bytes',
      code: 'HEADERS_TOO_LARGE',
    });
  });

  it.each([
    [
      'Content-Length with Transfer-Encoding',
      'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'its Transfer-Encoding is not valid or comes with a Content-Length',
    ],
    [
      'Content-Length sent twice',
      'Content-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      'it carries Content-Length more than once',
    ],
  ])('400 naming the fault for %s', async (_fault, rest, reason) => {
    const answer = await raw([`POST /api/adaptive/x HTTP/1.1\r\nHost: localhost\r\n${rest}`]);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ detail: `Malformed HTTP request: ${reason}`, code: 'MALFORMED_REQUEST' });
  });

  it('400 {detail, code} for an HTTP/1.1 request without Host', async () => {
    const answer = await raw(['GET /api/adaptive/ HTTP/1.1\r\nConnection: close\r\n\r\n']);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      detail: 'Malformed HTTP request: it has no Host header, which HTTP/1.1 requires',
      code: 'MALFORMED_REQUEST',
    });
  });

  it('routes an absolute-form request by its path, with its authority as Host', async () => {
    const get = (target: string, host = 'ignored.example') =>
      raw([`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`]);
    const missing = await get('http://localhost/api/adaptive/x/y?z=1');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ detail: 'No route for GET /api/adaptive/x/y', code: 'NOT_FOUND' });
    expect((await get(`HTTP://127.0.0.1:${port}/api/adaptive/actuator/health/liveness`)).status).toBe(200);
    // The authority, not the Host header, is what the Host check sees.
    const other = await get('http://example.com/api/adaptive/actuator/health/liveness', 'localhost');
    expect(other.status).toBe(421);
    expect(JSON.parse(other.body).code).toBe('HOST_NOT_ALLOWED');
  });

  it('400 naming the fault for a NUL in a header', async () => {
    const answer = await raw(['GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n']);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).detail).toMatch(
      /^Malformed HTTP request: a header name or value holds a character HTTP does not allow/,
    );
  });

  it('400 for a path whose percent-encoding is not UTF-8', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/adaptive/%C3%28' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: 'The request path is not a valid URL: it holds an invalid percent-encoding or one that is not UTF-8',
      code: 'BAD_URL',
    });
  });

  it('400 {detail, code, errors} for a JSON body that does not parse, like every other invalid body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/query/sql',
      headers: { 'content-type': 'application/json' },
      payload: '{"query": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: expect.stringMatching(/^Request validation failed: body is not valid JSON/),
      code: 'VALIDATION_FAILED',
      errors: [{ in: 'body', name: '', message: expect.any(String) }],
    });
  });
});

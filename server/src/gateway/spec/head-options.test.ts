import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

const spec = {
  openapi: '3.0.3',
  info: { title: 'verbs', version: '1' },
  paths: {
    '/todos': {
      head: {
        responses: {
          '200': { description: 'head', headers: { nonce: { schema: { type: 'string', example: 'abc' } } } },
        },
      },
      options: {
        responses: {
          '200': {
            description: 'options',
            content: { 'application/json': { schema: { type: 'object' }, example: { test: 'OPTIONS worked' } } },
          },
        },
      },
      get: { responses: { '200': { description: 'list', content: { 'application/json': { example: ['a'] } } } } },
    },
    '/plain': {
      get: { responses: { '200': { description: 'get', content: { 'text/plain': { example: 'plain text' } } } } },
    },
  },
};

let app: FastifyInstance;
let workspace: string;
let base: string;
beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/verbs.json': JSON.stringify(spec) });
  app = await startServer(workspace, { CORS_ORIGINS: 'http://app.test' });
  base = (await app.listen({ host: '127.0.0.1', port: 0 })) + '/api/adaptive/verbs';
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

describe("a spec's own head and options operations", () => {
  it('serves the head operation, with its headers and no body', async () => {
    const response = await fetch(`${base}/todos`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('nonce')).toBe('abc');
    expect(await response.text()).toBe('');
  });

  it("answers HEAD as GET where the spec declares no head operation: GET's headers, no body on the wire", async () => {
    const response = await fetch(`${base}/plain`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    // fetch drops a HEAD answer's body itself: read the bytes the server sent.
    const { host, pathname } = new URL(`${base}/plain`);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(host.split(':')[1]), '127.0.0.1', () =>
        socket.end(`HEAD ${pathname} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(new RegExp(`content-length: ${Buffer.byteLength('plain text')}\r?$`, 'im'));
    expect(body).toBe('');
  });

  it('serves the options operation to a request that is not a preflight', async () => {
    const response = await fetch(`${base}/todos`, { method: 'OPTIONS' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ test: 'OPTIONS worked' });
  });

  it("still answers a browser's preflight as CORS, also on a path with an options operation", async () => {
    for (const path of ['/todos', '/plain', '/nothing-here']) {
      const response = await fetch(base + path, {
        method: 'OPTIONS',
        headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-origin')).toBe('http://app.test');
    }
  });

  it('answers a plain OPTIONS where no operation takes it as before (204)', async () => {
    expect((await fetch(`${base}/plain`, { method: 'OPTIONS' })).status).toBe(204);
  });

  it('lists head and options among the allowed methods of a 405', async () => {
    const response = await fetch(`${base}/todos`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../main/app.js';
import { loadConfig } from '../../core/config.js';
import { makeWorkspace, removeWorkspace } from '../../test-support/workspace.js';

const pet = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
};
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** A spec proxied to `upstream`: the pets operations, and /hang, /garbage and /big to misbehave. */
const proxiedSpec = (upstream: unknown) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'proxied', version: '1' },
    'x-adaptive-proxy': upstream,
    paths: {
      '/pets': {
        get: {
          parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
          responses: { '200': { description: 'all', ...json({ type: 'array', items: pet }) } },
        },
        post: {
          requestBody: { required: true, ...json(pet) },
          responses: { '201': { description: 'created', ...json(pet) } },
        },
      },
      '/pets/{petId}': {
        get: {
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'one', ...json(pet) } },
        },
      },
      '/nodes': {
        post: {
          requestBody: json({ $ref: '#/components/schemas/Node' }),
          responses: { '200': { description: 'echo', ...json({ $ref: '#/components/schemas/Node' }) } },
        },
      },
      '/hang': { get: { responses: { '200': { description: 'never' } } } },
      '/garbage': { get: { responses: { '200': { description: 'not HTTP' } } } },
      '/big': { get: { responses: { '200': { description: 'too big', ...json({ type: 'string' }) } } } },
    },
    components: {
      schemas: {
        Node: { type: 'object', properties: { c: { $ref: '#/components/schemas/Node' }, n: { type: 'integer' } } },
      },
    },
  });

/** The real backend: well-behaved on /v1/pets, breaks the contract on /v1/pets/2, hangs, talks garbage, answers too
 * much. */
function startUpstream(): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json', 'x-upstream': 'yes' }).end(JSON.stringify(body));
    const url = request.url ?? '';
    if (url.startsWith('/v1/pets/1')) return send(200, { id: 1, name: 'Rex' });
    if (url.startsWith('/v1/pets/2')) return send(200, { id: 'two' });
    if (url.startsWith('/v1/pets') && request.method === 'POST') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () =>
        send(201, {
          ...JSON.parse(Buffer.concat(chunks).toString()),
          seen: request.headers['x-client'],
          for: request.headers['x-forwarded-for'],
        }),
      );
      return;
    }
    if (url.startsWith('/v1/pets')) return send(200, [{ id: 1, name: 'Rex', query: url.split('?')[1] ?? '' }]);
    if (url.startsWith('/v1/nodes'))
      return request.pipe(response.writeHead(200, { 'content-type': 'application/json' }));
    if (url.startsWith('/v1/hang')) return; // never answers
    if (url.startsWith('/v1/garbage')) return request.socket.end('this is not HTTP at all\r\n\r\n');
    if (url.startsWith('/v1/big')) return send(200, 'x'.repeat(2_000_000));
    if (url.startsWith('/v1/stream-big')) {
      // No Content-Length: the limit is found only while the body arrives.
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(64 * 1024);
      const timer = setInterval(() => response.write(chunk), 5);
      response.on('close', () => clearInterval(timer));
      return;
    }
    if (url.startsWith('/v1/stall'))
      return void response.writeHead(200, { 'content-type': 'application/json' }).write('[');
    response.writeHead(200, { 'content-type': 'text/plain' }).end(`upstream saw ${request.method} ${url}`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let upstream: http.Server;
let upstreamUrl: string;
let workspace: string;
let app: FastifyInstance;
let origin: string;
const logLines: string[] = [];

beforeAll(async () => {
  upstream = await startUpstream();
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  workspace = makeWorkspace({
    'specs/proxied.json': proxiedSpec({ url: upstreamUrl, timeout_ms: 800 }),
    'specs/strict.json': JSON.stringify({
      ...JSON.parse(proxiedSpec({ url: upstreamUrl, fallthrough: false })),
      info: { title: 'strict', version: '1' },
    }),
    'specs/down.json': proxiedSpec('http://127.0.0.1:9/v1'),
    'specs/ftp.json': proxiedSpec('ftp://127.0.0.1/v1'),
  });
  const config = loadConfig({ HOT_RELOAD: 'false', PROXY_RESPONSE_LIMIT: '1mb' }, { workspace });
  const sink = new Writable({ write: (chunk, _encoding, done) => (logLines.push(String(chunk)), done()) });
  app = await buildServer(config, { logger: pino({ level: 'warn' }, sink) });
  await app.ready();
  await app.gateway.start();
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  removeWorkspace(workspace);
});

const get = (path: string, init?: RequestInit) => fetch(`${origin}/api/adaptive${path}`, init);
/** A JSON answer's body. */
const bodyOf = async (response: Response) =>
  (await response.json()) as { detail: string; paths: Record<string, unknown>; errors: unknown[] };
const violationsOf = (response: Response) => JSON.parse(response.headers.get('x-adaptive-violations') ?? '[]');

describe('validating proxy (x-adaptive-proxy)', () => {
  it(
    'forwards a request that keeps the contract with its query, headers and body, and relays the answer ' + 'unchanged',
    async () => {
      const list = await get('/proxied/pets?limit=5');
      expect(list.status).toBe(200);
      expect(list.headers.get('x-upstream')).toBe('yes');
      expect(list.headers.has('x-adaptive-violations')).toBe(false);
      expect(await list.json()).toEqual([{ id: 1, name: 'Rex', query: 'limit=5' }]);
      const created = await get('/proxied/pets', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-client': 'c1', 'x-forwarded-for': '10.0.0.1' },
        body: JSON.stringify({ id: 7, name: 'Kitty' }),
      });
      expect(created.status).toBe(201);
      expect(await created.json()).toEqual({ id: 7, name: 'Kitty', seen: 'c1', for: '10.0.0.1, 127.0.0.1' });
    },
  );

  it('reports an answer that breaks the contract in the header and the log, and still relays it', async () => {
    const response = await get('/proxied/pets/2');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'two' });
    expect(violationsOf(response)).toEqual([
      { in: 'response', path: 'body.name', rule: 'is required' },
      { in: 'response', path: 'body.id', rule: 'must be integer' },
    ]);
    expect(
      logLines.some(
        (line) =>
          line.includes('contract violations on GET /api/adaptive/proxied/pets/2') &&
          line.includes('body.name is required'),
      ),
    ).toBe(true);
  });

  it('reports a request that breaks the contract and forwards it all the same', async () => {
    const response = await get('/proxied/pets?limit=many');
    expect(response.status).toBe(200);
    expect(violationsOf(response)).toEqual([{ in: 'request', path: 'query.limit', rule: 'must be integer' }]);
    const bad = await get('/proxied/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'no id' }),
    });
    expect(bad.status).toBe(201);
    expect(violationsOf(bad)).toEqual([
      { in: 'request', path: 'body.id', rule: 'is required' },
      { in: 'response', path: 'body.id', rule: 'is required' },
    ]);
  });

  it('checks a recursive schema against a huge nested body without hanging or failing the request', async () => {
    const nested = (depth: number) => '{"c":'.repeat(depth) + '{"n":"x"}' + '}'.repeat(depth);
    const shallow = await get('/proxied/nodes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nested(50),
    });
    expect(shallow.status).toBe(200);
    expect(violationsOf(shallow).map((v: { in: string; path: string }) => `${v.in} ${v.path}`)).toEqual([
      `request body${'.c'.repeat(50)}.n`,
      `response body${'.c'.repeat(50)}.n`,
    ]);
    const deep = await get('/proxied/nodes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nested(100_000),
    });
    expect(deep.status).toBe(200);
    expect((await deep.text()).length).toBe(nested(100_000).length);
    expect(violationsOf(deep)).toEqual([
      { in: 'request', path: 'body', rule: 'nests too deeply to be checked' },
      { in: 'response', path: 'body', rule: 'nests too deeply to be checked' },
    ]);
  });

  it('answers 504 within the timeout when the upstream hangs, while other requests are served', async () => {
    const started = Date.now();
    const hanging = get('/proxied/hang');
    const meanwhile = await get('/proxied/pets/1');
    expect(meanwhile.status).toBe(200);
    const response = await hanging;
    expect(Date.now() - started).toBeLessThan(800 + 1000);
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({
      detail:
        `The upstream http://127.0.0.1:${(upstream.address() as AddressInfo).port} did not answer within ` +
        `800 ms (PROXY_TIMEOUT_MS)`,
      code: 'UPSTREAM_TIMEOUT',
    });
  });

  it('answers 502 {detail} for an upstream that sends garbage, answers too much, or is not there', async () => {
    const garbage = await get('/proxied/garbage');
    expect(garbage.status).toBe(502);
    expect((await bodyOf(garbage)).detail).toMatch(/^The upstream http:\/\/127\.0\.0\.1:\d+ could not be used: /);
    const big = await get('/proxied/big');
    expect(big.status).toBe(502);
    expect((await bodyOf(big)).detail).toMatch(/answered more than 1048576 bytes \(PROXY_RESPONSE_LIMIT\)$/);
    const down = await get('/down/pets');
    expect(down.status).toBe(502);
    expect(await down.json()).toEqual({
      detail: 'The upstream http://127.0.0.1:9 could not be used: ECONNREFUSED',
      code: 'UPSTREAM_UNAVAILABLE',
    });
    expect((await get('/proxied/pets/1')).status).toBe(200);
  });

  it('stops an answer without Content-Length at the limit (502), one stalling mid-body at the deadline', async () => {
    const streamed = await get('/proxied/stream-big');
    expect(streamed.status).toBe(502);
    expect(await streamed.json()).toEqual({
      detail: expect.stringMatching(/answered more than 1048576 bytes \(PROXY_RESPONSE_LIMIT\)$/),
      code: 'UPSTREAM_RESPONSE_TOO_LARGE',
    });
    const started = Date.now();
    const stalled = await get('/proxied/stall');
    expect(Date.now() - started).toBeLessThan(800 + 1000);
    expect(stalled.status).toBe(504);
    expect((await bodyOf(stalled)).detail).toMatch(/did not answer within 800 ms/);
    expect((await get('/proxied/pets/1')).status).toBe(200);
  });

  it(
    'forwards routes the spec does not declare (unless fallthrough is false), and leaves them out of ' + 'openapi.json',
    async () => {
      const extra = await get('/proxied/not/in/spec?x=1', { method: 'DELETE' });
      expect(extra.status).toBe(200);
      expect(await extra.text()).toBe('upstream saw DELETE /v1/not/in/spec?x=1');
      expect((await get('/strict/not/in/spec')).status).toBe(404);
      const paths = Object.keys((await bodyOf(await get('/openapi.json'))).paths);
      expect(paths).toContain('/proxied/pets');
      expect(paths.some((p) => p.includes('*'))).toBe(false);
    },
  );

  it('refuses an upstream that is not http(s) with a load error naming the spec', async () => {
    const result = await bodyOf(await get('/actuator/refresh', { method: 'POST' }));
    expect(result.errors).toContainEqual({
      file: 'ftp.json',
      message: 'x-adaptive-proxy: only http and https upstreams are supported, not ftp:',
    });
  });
});

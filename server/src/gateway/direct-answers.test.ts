import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsPath } from '../observability/observability.js';
import type { RequestHistogram } from '../observability/request-histogram.js';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';
import { directAnswerer } from './direct-answers.js';

const list = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } };
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const fresh = {
  type: 'object',
  required: ['id', 'made'],
  properties: { id: { type: 'string', format: 'uuid' }, made: { type: 'string', format: 'date-time' } },
  additionalProperties: false,
};
const spec = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'direct', version: '1' },
  paths: {
    '/books': {
      get: {
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'all',
            headers: { 'X-Rate-Limit': { schema: { type: 'integer', example: 10 } } },
            content: { 'application/json': { schema: list, example: [{ id: 1 }] } },
          },
        },
      },
      post: { responses: { '201': { description: 'made', content: { 'application/json': { example: { id: 2 } } } } } },
    },
    '/search': {
      get: {
        parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'found', content: { 'application/json': { example: [] } } } },
      },
    },
    '/fresh': {
      get: {
        'x-mock': { examples: 'dynamic' },
        responses: { '200': { description: 'drawn', content: { 'application/json': { schema: fresh } } } },
      },
    },
    '/impossible': {
      get: {
        'x-mock': { examples: 'dynamic' },
        responses: {
          '200': {
            description: 'none can be drawn',
            content: { 'application/json': { schema: { type: 'string', minLength: 5, maxLength: 2 } } },
          },
        },
      },
    },
    '/slow': {
      get: {
        'x-mock': { delay: 1 },
        responses: { '200': { description: 'late', content: { 'application/json': { example: { late: true } } } } },
      },
    },
  },
});

const books = '/api/adaptive/direct/books';
let app: FastifyInstance;
let workspace: string;
let origin: string;
/** A server that answers directly what it can, and 599 what it leaves to Fastify. */
let direct: http.Server;
let directOrigin: string;
const observed: Array<{ route: string; status: number; mode: string }> = [];

beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/direct.json': spec });
  app = await startServer(workspace, { VALIDATE_REQUESTS: 'true' });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const histogram: Pick<RequestHistogram, 'recorder'> = {
    recorder: (_method, route, status, mode) => () => void observed.push({ route, status, mode }),
  };
  const answer = directAnswerer(app.gateway, {
    hostAllowed: (host) => host.startsWith('127.0.0.1'),
    corsOrigins: '*',
    histogram,
  });
  direct = http.createServer((request, response) => {
    if (!answer(request, response)) request.resume().on('end', () => response.writeHead(599).end('fastify'));
  });
  await new Promise<void>((resolve) => direct.listen(0, '127.0.0.1', resolve));
  directOrigin = `http://127.0.0.1:${(direct.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => direct.close(resolve));
  await app.close();
  removeWorkspace(workspace);
});

/** A request to the direct server, by Node's client (fetch adds headers of its own). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(directOrigin + path, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on('error', reject).end(body);
  });
}

const withoutDate = ({ date: _date, ...headers }: http.IncomingHttpHeaders) => headers;

describe('answers prepared static answers before Fastify', () => {
  it('leaves a route to Fastify until it has prepared its answer, then sends the same bytes and headers', async () => {
    expect((await get(`${books}`)).status).toBe(599);
    const fastify = await app.inject({ url: books, headers: { host: '127.0.0.1' } });
    expect(fastify.statusCode).toBe(200);
    const answered = await get(books);
    expect(answered.status).toBe(200);
    expect(answered.body).toBe(fastify.body);
    expect(withoutDate(answered.headers)).toEqual({
      ...withoutDate(fastify.headers as http.IncomingHttpHeaders),
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
    });
    expect(answered.headers).toMatchObject({ 'x-rate-limit': '10', 'access-control-allow-origin': '*' });
    expect(observed.at(-1)).toEqual({ route: books, status: 200, mode: 'static' });
  });

  it('answers 304 to the ETag it sent, and the body to another', async () => {
    const { headers } = await get(books);
    const notModified = await get(books, { 'if-none-match': headers.etag! });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers).toMatchObject({ etag: headers.etag, 'x-adaptive-mode': 'static' });
    expect(notModified.headers['content-length']).toBeUndefined();
    expect(observed.at(-1)).toEqual({ route: books, status: 304, mode: 'static' });
    expect((await get(books, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('leaves to Fastify whatever could change the answer or is not a prepared one', async () => {
    const cases: Array<[string, Parameters<typeof get>]> = [
      ['query string', [`${books}?limit=1`]],
      ['Prefer', [books, { prefer: 'code=200' }]],
      ['Origin', [books, { origin: 'http://app.test' }]],
      ['another Host', [books, { host: 'evil.test' }]],
      ['Accept not prepared', [books, { accept: 'application/xml' }]],
      ['HEAD', [books, {}, 'HEAD']],
      ['a body', [books, { 'content-type': 'application/json', 'content-length': '2' }, 'GET', '{}']],
      ['POST', [books, { 'content-length': '0' }, 'POST']],
      ['no route', ['/api/adaptive/direct/nothing']],
      ['escaped path', ['/api/adaptive/direct/b%6Foks']],
    ];
    for (const [name, args] of cases) expect([name, (await get(...args)).status]).toEqual([name, 599]);
  });

  it('leaves to Fastify the routes whose answers are made per request', async () => {
    for (const path of ['/api/adaptive/direct/search', '/api/adaptive/direct/slow']) {
      await app.inject({ url: path, headers: { host: '127.0.0.1' } });
      expect((await get(path)).status).toBe(599);
    }
  });
});

describe('answers dynamic answers before Fastify', () => {
  const path = '/api/adaptive/direct/fresh';

  it('draws a new body valid against the schema on each request, with the headers Fastify sends', async () => {
    const validate = addFormats(new Ajv({ strict: false })).compile(fresh);
    const bodies = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const answered = await get(path);
      expect(answered.status).toBe(200);
      expect(validate(JSON.parse(answered.body))).toBe(true);
      expect(Number(answered.headers['content-length'])).toBe(Buffer.byteLength(answered.body));
      bodies.add(answered.body);
    }
    expect(bodies.size).toBe(5);
    const fastify = await app.inject({ url: path, headers: { host: '127.0.0.1' } });
    const { 'content-length': _length, ...fastifyHeaders } = withoutDate(fastify.headers as http.IncomingHttpHeaders);
    const { 'content-length': _drawn, ...answeredHeaders } = withoutDate((await get(path)).headers);
    expect(answeredHeaders).toEqual({ ...fastifyHeaders, connection: 'keep-alive', 'keep-alive': 'timeout=5' });
    expect(answeredHeaders).toMatchObject({ 'x-adaptive-mode': 'dynamic', 'access-control-allow-origin': '*' });
    expect(answeredHeaders.etag).toBeUndefined();
    expect(observed.at(-1)).toEqual({ route: path, status: 200, mode: 'dynamic' });
  });

  it('leaves to Fastify a body that cannot be drawn, and what could change the answer', async () => {
    expect((await get('/api/adaptive/direct/impossible')).status).toBe(599);
    const failed = await app.inject({ url: '/api/adaptive/direct/impossible', headers: { host: '127.0.0.1' } });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({ code: 'DYNAMIC_EXAMPLE_FAILED' });
    expect((await get(path, { prefer: 'seed=7' })).status).toBe(599);
    expect((await get(path, { accept: 'application/xml' })).status).toBe(599);
  });
});

describe('a server answering directly', () => {
  it('counts the answers it sends directly in the request histogram', async () => {
    const count = async () => {
      const scrape = (await app.inject({ url: metricsPath })).body;
      const line = scrape
        .split('\n')
        .find((l) => l.startsWith('http_server_requests_seconds_count{') && l.includes(`route="${books}"`));
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const before = await count();
    for (let i = 0; i < 3; i++) expect((await fetch(origin + books)).status).toBe(200);
    expect((await count()) - before).toBe(3);
  });
});

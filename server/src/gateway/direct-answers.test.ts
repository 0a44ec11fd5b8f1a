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
    '/books/{bookId}': {
      get: {
        parameters: [{ name: 'bookId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'one',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'integer' } } },
                examples: { first: { value: { id: 1 } }, second: { value: { id: 2 } } },
              },
            },
          },
          '404': { description: 'none', content: { 'application/json': { example: { detail: 'no such book' } } } },
        },
      },
    },
    '/flaky/{id}': {
      get: {
        responses: { '200': { description: 'maybe', content: { 'application/json': { example: { ok: true } } } } },
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

// Rules on a path parameter (YAML's number against the path's text) and on a header named in odd casing; a route
// with an error rate, whose answers are left to Fastify.
const mockTable = `routes:
  GET /books/{bookId}:
    example: second
    rules:
      - {in: path, key: bookId, equals: 1, example: first}
      - {in: header, key: X-Tier, equals: gold, response: 404}
      - {in: header, key: x-empty, status: 204}
  GET /flaky/{id}:
    errorRate: 0.5
`;

const books = '/api/adaptive/direct/books';
let app: FastifyInstance;
let workspace: string;
let origin: string;
/** A server that answers directly what it can, and 599 what it leaves to Fastify. */
let direct: http.Server;
let directOrigin: string;
const observed: Array<{ route: string; status: number; mode: string }> = [];

beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/direct.json': spec, 'specs/direct.mock.yaml': mockTable });
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

/** Fastify's answer to a GET of `path` with `headers`, as the direct server's client would see it. */
async function fastifyAnswer(path: string, headers: Record<string, string> = {}) {
  const answer = await app.inject({ url: path, headers: { host: '127.0.0.1', ...headers } });
  return { status: answer.statusCode, body: answer.body, headers: answer.headers as http.IncomingHttpHeaders };
}

/** Answers `path` directly and through Fastify, and expects the same status, bytes and headers; returns the first. */
async function sameAsFastify(path: string, headers: Record<string, string> = {}) {
  const answered = await get(path, headers);
  const fastify = await fastifyAnswer(path, headers);
  expect(answered.status).toBe(fastify.status);
  expect(answered.body).toBe(fastify.body);
  expect(withoutDate(answered.headers)).toEqual({
    ...withoutDate(fastify.headers),
    connection: 'keep-alive',
    'keep-alive': 'timeout=5',
  });
  return answered;
}

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

  it("times an answer from when the server's clock saw the request arrive, when it did", async () => {
    const seconds: number[] = [];
    const answer = directAnswerer(app.gateway, {
      hostAllowed: () => true,
      corsOrigins: '*',
      histogram: { recorder: () => (elapsed) => void seconds.push(elapsed) },
      // A request that arrived five seconds ago, by the clock run before the answerer.
      arrival: () => performance.now() - 5000,
    });
    const server = http.createServer((request, response) => {
      if (!answer(request, response)) response.writeHead(599).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${books}`);
      expect(response.status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(seconds).toHaveLength(1);
    expect(seconds[0]).toBeGreaterThanOrEqual(5);
  });
});

describe('answers the choices of the control parameters and the mock table before Fastify', () => {
  const book = (id: string) => `/api/adaptive/direct/books/${id}`;
  const validList = addFormats(new Ajv({ strict: false })).compile(list);

  it('draws ?__dynamic=true on a static route per request, with the heads Fastify sends', async () => {
    const bodies = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const answered = await get(`${books}?__dynamic=true`);
      expect(answered.status).toBe(200);
      expect(validList(JSON.parse(answered.body))).toBe(true);
      expect(Number(answered.headers['content-length'])).toBe(Buffer.byteLength(answered.body));
      bodies.add(answered.body);
    }
    expect(bodies.size).toBeGreaterThan(1);
    const fastify = await fastifyAnswer(`${books}?__dynamic=true`);
    const { 'content-length': _length, ...fastifyHeaders } = withoutDate(fastify.headers);
    const { 'content-length': _drawn, ...answeredHeaders } = withoutDate(
      (await get(`${books}?__dynamic=true`)).headers,
    );
    expect(answeredHeaders).toEqual({ ...fastifyHeaders, connection: 'keep-alive', 'keep-alive': 'timeout=5' });
    expect(answeredHeaders).toMatchObject({ 'x-adaptive-mode': 'dynamic', 'x-rate-limit': '10' });
    expect(observed.at(-1)).toEqual({ route: books, status: 200, mode: 'dynamic' });
  });

  it('answers a seeded draw with the bytes Fastify sends for the same seed', async () => {
    const answered = await sameAsFastify(`${books}?__seed=7`);
    expect(answered.headers['x-adaptive-mode']).toBe('dynamic');
    expect((await get(`${books}?__seed=7&__dynamic=true`)).body).toBe(answered.body);
  });

  it('answers a rule on a path parameter, with the rule named as Fastify names it', async () => {
    const answered = await sameAsFastify(book('1'));
    expect(JSON.parse(answered.body)).toEqual({ id: 1 });
    expect(answered.headers).toMatchObject({ 'x-adaptive-mock-rule': 'rule 1', 'access-control-allow-origin': '*' });
    expect(answered.headers.etag).toBeUndefined();
    expect(observed.at(-1)).toEqual({ route: book('{bookId}'), status: 200, mode: 'static' });
  });

  it('answers a rule on a header, whatever the casing of its name in the table and the request', async () => {
    const answered = await sameAsFastify(book('2'), { 'X-TIER': 'gold' });
    expect([answered.status, answered.headers['x-adaptive-mock-rule']]).toEqual([404, 'rule 2']);
    expect(observed.at(-1)).toEqual({ route: book('{bookId}'), status: 404, mode: 'static' });
    // The first rule still wins over the second.
    expect(JSON.parse((await sameAsFastify(book('1'), { 'x-tier': 'gold' })).body)).toEqual({ id: 1 });
  });

  it("answers the route's own choice when no rule matches, and the query's choices over the table's", async () => {
    const unmatched = await sameAsFastify(book('3'), { 'x-tier': 'silver' });
    expect([JSON.parse(unmatched.body), unmatched.headers['x-adaptive-mock-rule']]).toEqual([{ id: 2 }, 'route']);
    const preferred = await sameAsFastify(`${book('1')}?__code=404`);
    expect([preferred.status, preferred.headers['x-adaptive-mock-rule']]).toEqual([404, 'prefer']);
    const named = await sameAsFastify(`${book('1')}?__example=second`);
    expect(JSON.parse(named.body)).toEqual({ id: 2 });
    // The rule's named example wins over the query's switch to dynamic answers, as in Fastify's path.
    const ruled = await sameAsFastify(`${book('1')}?__dynamic=true`);
    expect([ruled.headers['x-adaptive-mode'], ruled.headers['x-adaptive-mock-rule']]).toEqual(['static', 'rule 1']);
  });

  it('leaves to Fastify the requests it would refuse, with the refusal Fastify answers', async () => {
    const cases: Array<[string, number, string?]> = [
      [`${books}?__code=999`, 400, 'MOCK_QUERY_INVALID'],
      [`${books}?__seed=abc`, 400, 'MOCK_QUERY_INVALID'],
      [`${books}?__dynamic=yes`, 400, 'MOCK_QUERY_INVALID'],
      [`${books}?__dynamic=true&__dynamic=false`, 400, 'MOCK_QUERY_INVALID'],
      [`${books}?__example=`, 400, 'MOCK_QUERY_INVALID'],
      [`${books}?__example=unknown`, 404, 'PREFER_NOT_DECLARED'],
      [`${books}?__code=404`, 404, 'PREFER_NOT_DECLARED'],
      [`${book('1')}?__example=unknown`, 404, 'PREFER_NOT_DECLARED'],
      [book('abc'), 400],
      [`${book('abc')}?__dynamic=true`, 400],
      ['/api/adaptive/direct/search?__dynamic=true', 400],
      [`${books}?limit=abc&__dynamic=true`, 400],
    ];
    for (const [path, status, code] of cases) {
      expect([path, (await get(path)).status]).toEqual([path, 599]);
      const fastify = await fastifyAnswer(path);
      expect([path, fastify.status]).toEqual([path, status]);
      if (code) expect(JSON.parse(fastify.body)).toMatchObject({ code });
    }
  });

  it('answers as Fastify does whatever values a client sends, however many, and decides each again', async () => {
    // More distinct path values than a route remembers (64): each still gets its own rule, in any order.
    for (let i = 0; i < 150; i++) {
      const answered = await get(book(String(i)));
      expect([i, answered.status, answered.headers['x-adaptive-mock-rule']]).toEqual([
        i,
        200,
        i === 1 ? 'rule 1' : 'route',
      ]);
    }
    for (const id of ['1', '01', '+1', '2', '9007199254740993', '-0', '1e0'])
      expect(JSON.parse((await sameAsFastify(book(id))).body)).toEqual(
        JSON.parse((await fastifyAnswer(book(id))).body),
      );
    // Invalid values are refused each time they come; escaped ones (a line break, the key's separator, among them)
    // are always left to Fastify's router, which decodes them.
    for (const path of [book('abc'), book('1'), book('abc'), book('1.5'), book("1'"), book('%0A1'), book('1%0D')]) {
      const fastify = await fastifyAnswer(path);
      const direct = fastify.status === 200 && !path.includes('%');
      expect([path, (await get(path)).status]).toEqual([path, direct ? 200 : 599]);
    }
  });

  it('tells an empty header from a missing one, and a long value from its start', async () => {
    for (let round = 0; round < 2; round++) {
      // Rule 3 matches any x-empty, even an empty one, and sends a 204, which is left to Fastify.
      expect((await get(book('3'), { 'x-empty': '' })).status).toBe(599);
      expect((await sameAsFastify(book('3'))).headers['x-adaptive-mock-rule']).toBe('route');
    }
    const long = 'gold'.padEnd(400, 'x');
    for (const tier of [long, 'gold', long, long.slice(0, 300)]) {
      const answered = await sameAsFastify(book('2'), { 'x-tier': tier });
      expect([tier.length, answered.status]).toEqual([tier.length, tier === 'gold' ? 404 : 200]);
    }
    for (const accept of ['application/json', 'text/html', '*/*', 'application/json'.padEnd(300, ' ')])
      await sameAsFastify(book('1'), { accept }).catch(async () =>
        expect([accept, (await get(book('1'), { accept })).status]).toEqual([accept, 599]),
      );
  });

  it('leaves to Fastify what it cannot read or may fault: escapes, other parameters, an error rate', async () => {
    for (const path of [
      `${books}?limit=1&__dynamic=true`,
      `${books}?__example=a+b`,
      `${books}?__dynamic=tru%65`,
      `${books}?__dynamic`,
      '/api/adaptive/direct/flaky/1',
      '/api/adaptive/direct/flaky/1?__code=200',
    ])
      expect([path, (await get(path)).status]).toEqual([path, 599]);
    expect((await get(book('1'), { prefer: 'example=second' })).status).toBe(599);
    // A status sent without a body: Fastify drops the example's body and length.
    expect((await get(book('3'), { 'x-empty': '1' })).status).toBe(599);
    const empty = await fastifyAnswer(book('3'), { 'x-empty': '1' });
    expect([empty.status, empty.body, empty.headers['x-adaptive-mock-rule']]).toEqual([204, '', 'rule 3']);
  });
});

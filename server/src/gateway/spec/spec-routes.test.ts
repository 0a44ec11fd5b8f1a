import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer, writeFile } from '../../test-support/workspace.js';

// One GET with two media types and a named example, a 404-only GET, and a POST: what the prepared answers cover.
const spec = (title: string) => `openapi: 3.0.3
info: {title: Books, version: 1.0.0}
servers: [{url: /api/adaptive/books}]
paths:
  /list:
    get:
      responses:
        '200':
          description: ok
          headers: {X-Total: {schema: {type: integer}, example: 2}}
          content:
            application/json:
              examples:
                two: {value: {title: ${title}, count: 2}}
                none: {value: {title: none, count: 0}}
            text/plain: {example: 'two books'}
        '404': {description: missing, content: {application/json: {example: {detail: missing}}}}
  /gone:
    get:
      responses: {'404': {description: gone, content: {application/json: {example: {detail: gone}}}}}
  /add:
    post:
      responses: {'201': {description: made, content: {application/json: {example: {id: 1}}}}}
`;

let workspace: string;
let app: FastifyInstance;

beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/books.openapi.yaml': spec('Dune') });
  app = await startServer(workspace);
}, 120_000);
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('prepared static answers', () => {
  it('send the same bytes with a strong ETag, length and type on every request', async () => {
    const first = await get('/api/adaptive/books/list');
    const second = await get('/api/adaptive/books/list');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ title: 'Dune', count: 2 });
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body).toBe(first.body);
    expect(first.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['x-total']).toBe('2');
    expect(first.headers['x-adaptive-mode']).toBe('static');
  });

  it('answer 304 without a body to a client holding the ETag (also weak, in a list, or *), 200 otherwise', async () => {
    const { etag } = (await get('/api/adaptive/books/list')).headers as { etag: string };
    for (const held of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await get('/api/adaptive/books/list', { 'if-none-match': held });
      expect(cached.statusCode, held).toBe(304);
      expect(cached.body).toBe('');
      expect(cached.headers.etag).toBe(etag);
    }
    const stale = await get('/api/adaptive/books/list', { 'if-none-match': '"stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual({ title: 'Dune', count: 2 });
    const head = await app.inject({
      method: 'HEAD',
      url: '/api/adaptive/books/list',
      headers: { 'if-none-match': etag },
    });
    expect(head.statusCode).toBe(304);
  });

  it('keep one answer per media type, each with its own ETag, and 406 when none fits', async () => {
    const json = await get('/api/adaptive/books/list', { accept: 'application/json' });
    const text = await get('/api/adaptive/books/list', { accept: 'text/plain' });
    expect(text.body).toBe('two books');
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.headers.etag).not.toBe(json.headers.etag);
    const refused = await get('/api/adaptive/books/list', { accept: 'image/png' });
    expect(refused.statusCode).toBe(406);
    expect(refused.json()).toMatchObject({ code: 'NOT_ACCEPTABLE' });
  });

  it('leave Prefer to the per-request path, whose answer carries no ETag', async () => {
    const { etag } = (await get('/api/adaptive/books/list')).headers as { etag: string };
    const named = await get('/api/adaptive/books/list', { prefer: 'example=none', 'if-none-match': etag });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toEqual({ title: 'none', count: 0 });
    expect(named.headers.etag).toBeUndefined();
    const bad = await get('/api/adaptive/books/list', { prefer: 'code=abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'PREFER_INVALID' });
  });

  it('give no ETag to an error example or to a POST, and never answer them 304', async () => {
    const gone = await get('/api/adaptive/books/gone', { 'if-none-match': '*' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: 'gone' });
    expect(gone.headers.etag).toBeUndefined();
    const made = await app.inject({
      method: 'POST',
      url: '/api/adaptive/books/add',
      headers: { 'if-none-match': '*' },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toEqual({ id: 1 });
    expect(made.headers.etag).toBeUndefined();
  });

  it('are prepared again when the spec reloads: new bytes, new ETag, the old one no longer 304', async () => {
    const before = await get('/api/adaptive/books/list');
    writeFile(workspace, 'specs/books.openapi.yaml', spec('Emma'));
    await app.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' });
    const after = await get('/api/adaptive/books/list', { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ title: 'Emma', count: 2 });
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

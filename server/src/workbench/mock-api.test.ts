import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockOverview, RecordedExchanges, SpecEditProposal } from '../contract/index.js';
import { loadConfig } from '../core/config.js';
import { buildServer } from '../main/app.js';
import { makeWorkspace, removeWorkspace } from '../test-support/workspace.js';

const token = 'test-token-0123456789abcdefghij';
const auth = { 'x-workbench-token': token };

const examplesSpec = `# The pets, answered from examples.
openapi: 3.0.3
info: {title: Pets, version: '1'}
x-mock:
  delay: 0 # no latency
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                maxItems: 2
                items: {type: object, required: [name], properties: {name: {type: string}}}
              example: [{name: Rex}]
`;

const statefulSpec = `openapi: 3.0.3
info: {title: Zoo, version: '1'}
x-adaptive-state: true
paths:
  /animals:
    get:
      responses:
        '200': {description: ok, content: {application/json: {example: [{id: 1, name: Leo}]}}}
    post:
      requestBody: {content: {application/json: {schema: {type: object}}}}
      responses:
        '201': {description: created, content: {application/json: {example: {id: 1, name: Leo}}}}
  /animals/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: ok, content: {application/json: {example: {id: 1, name: Leo}}}}
`;

const proxiedSpec = (upstream: string) => `# Shop, proxied to the real backend.
openapi: 3.0.3
info: {title: Shop, version: '1'}
x-adaptive-proxy: ${upstream} # the staging backend
paths:
  /items/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        200: # YAML reads this key as a number
          description: one item
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Item'
              example: {id: 0, name: sample} # the hand-written one
  /items:
    get:
      responses:
        '200':
          $ref: '#/components/responses/Items'
components:
  schemas:
    Item: {type: object, required: [id], properties: {id: {type: integer}, name: {type: string}}}
  responses:
    Items:
      description: all items
      content:
        application/json:
          schema: {type: array, items: {$ref: '#/components/schemas/Item'}}
`;

let upstream: http.Server;
let upstreamUrl: string;
let workspace: string;
let app: FastifyInstance;

const call = (method: string, url: string, body?: unknown) =>
  app.inject({
    method: method as 'GET',
    url,
    headers: auth,
    ...(body === undefined ? {} : { payload: body as object }),
  });
const specFile = (name: string) => path.join(workspace, 'specs', name);

beforeAll(async () => {
  upstream = http.createServer((request, response) => {
    const url = request.url ?? '';
    const send = (status: number, body: unknown) =>
      // An upstream that is itself a mock says its own mode, which is not this gateway's.
      response
        .writeHead(status, { 'content-type': 'application/json', 'x-adaptive-mode': 'static' })
        .end(JSON.stringify(body));
    if (url === '/v1/items') return send(200, [{ id: 1, name: 'Lamp' }]);
    if (url === '/v1/items/500') return send(500, { error: 'boom' });
    if (url === '/v1/items/13') return send(200, { id: 'thirteen' }); // breaks the Item schema
    const id = Number(url.split('/').pop());
    return send(200, { id, name: `Item ${id}`, tags: ['new'] });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  workspace = makeWorkspace({
    'specs/pets.openapi.yaml': examplesSpec,
    'specs/zoo.openapi.yaml': statefulSpec,
    'specs/shop.openapi.yaml': proxiedSpec(upstreamUrl),
    'health.yaml': 'components: {}\n',
    'query/sources.yaml': 'sources: []\n',
  });
  const config = loadConfig(
    { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', WORKBENCH: 'true', HEALTH_CONFIG: 'health.yaml' },
    { workspace },
  );
  const logger = pino({ level: 'info' }, new Writable({ write: (_c, _e, done) => done() }));
  app = await buildServer(config, { logger, workbenchToken: token });
  await app.ready();
  await app.gateway.start();
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => upstream?.close(resolve));
  removeWorkspace(workspace);
});

describe('which mode answered', () => {
  it('marks every answer of a gateway route with x-adaptive-mode', async () => {
    const modeOf = async (url: string, headers: Record<string, string> = {}) =>
      (await app.inject({ url, headers })).headers['x-adaptive-mode'];
    expect(await modeOf('/api/adaptive/pets/pets')).toBe('static');
    expect(await modeOf('/api/adaptive/pets/pets')).toBe('static'); // the cached fast path too
    expect(await modeOf('/api/adaptive/pets/pets', { prefer: 'dynamic=true' })).toBe('dynamic');
    expect(await modeOf('/api/adaptive/zoo/animals/1')).toBe('stateful');
    expect(await modeOf('/api/adaptive/zoo/animals/1', { prefer: 'code=200' })).toBe('static');
    expect(await modeOf('/api/adaptive/shop/items/3')).toBe('proxy');
    expect(await modeOf('/api/adaptive/shop/elsewhere')).toBe('proxy'); // fall-through
  });

  it('marks a stateful 404 as stateful, and answers without a route carry no mode', async () => {
    const missing = await app.inject({ url: '/api/adaptive/zoo/animals/99' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-adaptive-mode']).toBe('stateful');
    const none = await app.inject({ url: '/api/adaptive/nothing-here' });
    expect(none.statusCode).toBe(404);
    expect(none.headers['x-adaptive-mode']).toBeUndefined();
  });
});

describe('GET /api/workbench/mock', () => {
  it('lists each spec with the mode in effect and what sets it', async () => {
    const overview = (await call('GET', '/api/workbench/mock')).json<MockOverview>();
    expect(overview.defaults).toEqual({ examples: 'static', state: false });
    const byPath = Object.fromEntries(overview.specs.map((s) => [s.path, s]));
    expect(byPath['specs/pets.openapi.yaml']).toMatchObject({ mount: 'pets', mode: 'static', setBy: 'workspace' });
    expect(byPath['specs/zoo.openapi.yaml']).toMatchObject({ mode: 'stateful', setBy: 'x-adaptive-state' });
    expect(byPath['specs/shop.openapi.yaml']).toMatchObject({
      mode: 'proxy',
      setBy: 'x-adaptive-proxy',
      upstream: upstreamUrl,
    });
  });

  it('needs the token', async () => {
    expect((await app.inject({ url: '/api/workbench/mock' })).statusCode).toBe(401);
  });
});

describe('POST /api/workbench/mock/mode', () => {
  it('proposes the root extension edit, keeping comments, and writes nothing', async () => {
    const response = await call('POST', '/api/workbench/mock/mode', {
      path: 'specs/pets.openapi.yaml',
      mode: 'dynamic',
    });
    expect(response.statusCode).toBe(200);
    const proposal = response.json<SpecEditProposal>();
    expect(proposal.original).toBe(examplesSpec);
    expect(fs.readFileSync(specFile('pets.openapi.yaml'), 'utf8')).toBe(examplesSpec);
    expect(proposal.proposed).toContain('# The pets, answered from examples.');
    expect(proposal.proposed).toContain('delay: 0 # no latency');
    expect(parse(proposal.proposed)['x-mock']).toEqual({ delay: 0, examples: 'dynamic' });
    // Only the new line differs.
    const added = proposal.proposed.split('\n').filter((line) => !examplesSpec.split('\n').includes(line));
    expect(added).toEqual(['  examples: dynamic']);
  });

  it('turns state off and the proxy on and off', async () => {
    const propose = async (body: object) =>
      parse((await call('POST', '/api/workbench/mock/mode', body)).json<SpecEditProposal>().proposed);
    const zooStatic = await propose({ path: 'specs/zoo.openapi.yaml', mode: 'static' });
    expect(zooStatic['x-adaptive-state']).toBe(false);
    expect(zooStatic['x-mock']).toEqual({ examples: 'static' });
    const petsProxied = await propose({ path: 'specs/pets.openapi.yaml', mode: 'proxy', upstream: upstreamUrl });
    expect(petsProxied['x-adaptive-proxy']).toBe(upstreamUrl);
    const shopStateful = await propose({ path: 'specs/shop.openapi.yaml', mode: 'stateful' });
    expect(shopStateful['x-adaptive-proxy']).toBeUndefined();
    expect(shopStateful['x-adaptive-state']).toBe(true);
  });

  it('refuses a proxy without an upstream, a bad URL, an unknown spec and a bad mode with {detail, code}', async () => {
    const cases: Array<[object, number, string]> = [
      [{ path: 'specs/pets.openapi.yaml', mode: 'proxy' }, 400, 'BAD_REQUEST'],
      [{ path: 'specs/pets.openapi.yaml', mode: 'proxy', upstream: 'ftp://x' }, 400, 'BAD_REQUEST'],
      [{ path: 'specs/pets.openapi.yaml', mode: 'proxy', upstream: 'http://u:p@x' }, 400, 'BAD_REQUEST'],
      [{ path: 'specs/none.openapi.yaml', mode: 'static' }, 404, 'SPEC_NOT_LOADED'],
      [{ path: '../etc/passwd', mode: 'static' }, 404, 'SPEC_NOT_LOADED'],
      [{ path: 'specs/pets.openapi.yaml', mode: 'fast' }, 400, 'BAD_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const response = await call('POST', '/api/workbench/mock/mode', body);
      expect([response.statusCode, response.json().code], JSON.stringify(body)).toEqual([status, code]);
      expect(typeof response.json().detail).toBe('string');
    }
  });
});

describe('recording the upstream answers of a proxied spec', () => {
  const recordingsOf = async (mount: string) =>
    (await call('GET', `/api/workbench/mock/recordings?mount=${mount}`)).json<RecordedExchanges>().exchanges;
  const propose = (body: object) => call('POST', '/api/workbench/mock/recordings/proposal', body);

  it('keeps answers of declared responses only, newest first', async () => {
    await app.inject({ url: '/api/adaptive/shop/items/7' });
    await app.inject({ url: '/api/adaptive/shop/items/500' }); // 500 is not declared
    await app.inject({ url: '/api/adaptive/shop/elsewhere' }); // no operation
    await app.inject({ url: '/api/adaptive/shop/items' });
    const exchanges = await recordingsOf('shop');
    expect(exchanges.map((e) => [e.method, e.url, e.status, e.response, e.mediaType])).toEqual([
      ['GET', '/api/adaptive/shop/items', 200, '200', 'application/json'],
      ['GET', '/api/adaptive/shop/items/7', 200, '200', 'application/json'],
      ['GET', '/api/adaptive/shop/items/3', 200, '200', 'application/json'], // from the mode test above
    ]);
  });

  it('proposes the answer as a named example, comments and layout kept, writing nothing', async () => {
    const [, item] = await recordingsOf('shop');
    const response = await propose({ mount: 'shop', id: item.id });
    expect(response.statusCode).toBe(200);
    const proposal = response.json<SpecEditProposal>();
    expect(proposal.name).toBe('recorded-1');
    expect(proposal.violations).toEqual([]);
    const before = fs.readFileSync(specFile('shop.openapi.yaml'), 'utf8');
    expect(proposal.original).toBe(before);
    for (const comment of ['# Shop, proxied to the real backend.', '# the staging backend', '# YAML reads this key']) {
      expect(proposal.proposed).toContain(comment);
    }
    const media = parse(proposal.proposed).paths['/items/{id}'].get.responses[200].content['application/json'];
    expect(media.example).toBeUndefined(); // example and examples exclude each other: the old one comes first
    expect(Object.keys(media.examples)).toEqual(['example', 'recorded-1']);
    expect(media.examples.example.value).toEqual({ id: 0, name: 'sample' });
    expect(media.examples['recorded-1'].value).toEqual({ id: 7, name: 'Item 7', tags: ['new'] });
    expect(media.examples['recorded-1'].summary).toContain('GET /api/adaptive/shop/items/7');
  });

  it('follows a local $ref to the response, and takes a given name', async () => {
    const [list] = await recordingsOf('shop');
    const proposal = (await propose({ mount: 'shop', id: list.id, name: 'two-lamps' })).json<SpecEditProposal>();
    const document = parse(proposal.proposed);
    expect(document.paths['/items'].get.responses['200']).toEqual({ $ref: '#/components/responses/Items' });
    expect(document.components.responses.Items.content['application/json'].examples['two-lamps'].value).toEqual([
      { id: 1, name: 'Lamp' },
    ]);
  });

  it('proposes against the file as it is now when it changed since the answer was recorded', async () => {
    const [, item] = await recordingsOf('shop');
    const original = fs.readFileSync(specFile('shop.openapi.yaml'), 'utf8');
    try {
      const edited = original
        .replace('# Shop, proxied', '# Edited meanwhile.\n# Shop, proxied')
        .replace('example: {id: 0, name: sample} # the hand-written one', 'examples: {recorded-1: {value: {id: 9}}}');
      fs.writeFileSync(specFile('shop.openapi.yaml'), edited);
      const proposal = (await propose({ mount: 'shop', id: item.id })).json<SpecEditProposal>();
      expect(proposal.original).toBe(edited);
      expect(proposal.proposed).toContain('# Edited meanwhile.');
      expect(proposal.name).toBe('recorded-2'); // recorded-1 is taken now
      const taken = await propose({ mount: 'shop', id: item.id, name: 'recorded-1' });
      expect([taken.statusCode, taken.json().code]).toEqual([409, 'SPEC_EDIT_CONFLICT']);

      fs.writeFileSync(specFile('shop.openapi.yaml'), edited.replace('/items/{id}:', '/things/{id}:'));
      const gone = await propose({ mount: 'shop', id: item.id });
      expect([gone.statusCode, gone.json().code]).toEqual([409, 'SPEC_EDIT_CONFLICT']);
      expect(gone.json().detail).toContain('no longer declares GET /items/{id} response 200 application/json');

      fs.writeFileSync(specFile('shop.openapi.yaml'), 'paths: [unclosed');
      const broken = await propose({ mount: 'shop', id: item.id });
      expect([broken.statusCode, broken.json().code]).toEqual([409, 'SPEC_EDIT_CONFLICT']);
    } finally {
      fs.writeFileSync(specFile('shop.openapi.yaml'), original);
    }
  });

  it('answers 404 for an unknown exchange or mount and 409 for a mount that is not proxied', async () => {
    const cases: Array<[object, number, string]> = [
      [{ mount: 'shop', id: 999999 }, 404, 'RECORDING_NOT_FOUND'],
      [{ mount: 'pets', id: 1 }, 409, 'MOUNT_NOT_PROXIED'],
      [{ mount: 'nowhere', id: 1 }, 404, 'SPEC_NOT_LOADED'],
      [{ mount: 'shop', id: 1, name: '../evil' }, 400, 'BAD_REQUEST'],
      [{ mount: 'shop', id: 'one' }, 400, 'BAD_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const response = await propose(body);
      expect([response.statusCode, response.json().code], JSON.stringify(body)).toEqual([status, code]);
      expect(typeof response.json().detail).toBe('string');
    }
    const list = await call('GET', '/api/workbench/mock/recordings?mount=zoo');
    expect([list.statusCode, list.json().code]).toEqual([409, 'MOUNT_NOT_PROXIED']);
  });

  it('marks a proposed example that breaks its schema, with the violations', async () => {
    await app.inject({ url: '/api/adaptive/shop/items/13' });
    const [broken] = await recordingsOf('shop');
    expect([broken.url, broken.violations]).toEqual(['/api/adaptive/shop/items/13', 1]);
    const proposal = (await propose({ mount: 'shop', id: broken.id })).json<SpecEditProposal>();
    expect(proposal.violations).toEqual([
      { in: 'response', path: 'body.id', rule: expect.stringContaining('integer') },
    ]);
  });
});

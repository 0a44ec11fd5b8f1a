import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';
import { workspaceDiagnostics } from '../../workbench/diagnostics.js';

const errorSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'integer' }, message: { type: 'string' } },
};
const ok = { '200': { description: 'ok', content: { 'application/json': { example: { ok: true } } } } };
const route = (security?: unknown[], responses: Record<string, unknown> = ok) => ({
  get: { ...(security === undefined ? {} : { security }), responses },
});

/** Every kind of scheme; the root asks for the header API key. */
function spec(extension?: string): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'secured', version: '1' },
    ...(extension === undefined ? {} : { 'x-adaptive-security': extension }),
    security: [{ key: [] }],
    paths: {
      '/header': route(),
      '/query': route([{ query: [] }]),
      '/cookie': route([{ cookie: [] }]),
      '/basic': route([{ basic: [] }], {
        ...ok,
        '401': { description: 'who?', content: { 'application/json': { schema: errorSchema } } },
      }),
      '/bearer': route([{ bearer: [] }]),
      '/oauth': route([{ oauth: ['read'] }]),
      '/oidc': route([{ oidc: [] }]),
      '/public': route([]),
      '/optional': route([{}, { bearer: [] }]),
      '/either': route([{ basic: [] }, { query: [] }]),
      '/both': route([{ key: [], bearer: [] }]),
      '/unknown': route([{ nowhere: [] }]),
    },
    components: {
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        query: { type: 'apiKey', in: 'query', name: 'api_key' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'session' },
        basic: { type: 'http', scheme: 'basic' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        oauth: {
          type: 'oauth2',
          flows: { implicit: { authorizationUrl: 'https://idp.example/auth', scopes: { read: 'read' } } },
        },
        oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://idp.example/.well-known/openid-configuration' },
      },
    },
  });
}

/** A server on a workspace of `specs` (file name -> text) with `env`, for the tests of the calling describe. */
function serve(specs: Record<string, string>, env: Record<string, string> = {}) {
  const server = {} as { app: FastifyInstance; workspace: string; origin: string };
  beforeAll(async () => {
    server.workspace = makeWorkspace(Object.fromEntries(Object.entries(specs).map(([k, v]) => [`specs/${k}`, v])));
    server.app = await startServer(server.workspace, env);
    server.origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.app?.close();
    removeWorkspace(server.workspace);
  });
  const call = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.origin}/api/adaptive${path}`, { headers });
    return {
      status: response.status,
      challenge: response.headers.get('www-authenticate'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  return { server, call };
}

const ajv = new Ajv({ strict: false, allErrors: true });
const isError = ajv.compile({
  type: 'object',
  required: ['detail', 'code'],
  properties: { detail: { type: 'string' }, code: { const: 'MOCK_CREDENTIALS_MISSING' } },
});

describe('x-adaptive-security: enforce', () => {
  const { server, call: mounted } = serve({ 'locked.json': spec('enforce') });
  const call = (path: string, headers?: Record<string, string>) => mounted(`/locked${path}`, headers);

  it.each([
    ['/header', { 'x-api-key': 'anything' }, null],
    ['/query?api_key=anything', {}, null],
    ['/cookie', { cookie: 'theme=dark; session=abc' }, null],
    ['/bearer', { authorization: 'Bearer abc.def' }, 'Bearer'],
    ['/oauth', { authorization: 'Bearer t' }, 'Bearer'],
    ['/oidc', { authorization: 'bearer t' }, 'Bearer'],
  ])('%s: missing credentials are a 401, present ones a 200', async (path, headers, challenge) => {
    const missing = await call(path.replace(/\?.*/, ''));
    expect(missing.status).toBe(401);
    expect(missing.challenge).toBe(challenge);
    expect(isError(missing.body), JSON.stringify(isError.errors)).toBe(true);
    expect((await call(path, headers)).body).toEqual({ ok: true });
  });

  it('credentials of the wrong kind or empty do not count', async () => {
    expect((await call('/cookie', { cookie: 'session=; other=1' })).status).toBe(401);
    expect((await call('/bearer', { authorization: 'Basic dTpw' })).status).toBe(401);
    expect((await call('/query?api_key=')).status).toBe(401);
  });

  it('http basic answers the declared 401 body and a Basic challenge', async () => {
    const missing = await call('/basic', { authorization: 'Bearer t' });
    expect(missing.status).toBe(401);
    expect(missing.challenge).toBe('Basic realm="mock"');
    expect(ajv.validate(errorSchema, missing.body), JSON.stringify(ajv.errors)).toBe(true);
    expect(missing.body).toEqual({ code: 401, message: expect.stringContaining('basic (Authorization: Basic)') });
    expect((await call('/basic', { authorization: 'Basic dTpw' })).status).toBe(200);
  });

  it('`security: []` and an empty alternative need nothing; alternatives or-ed, schemes and-ed', async () => {
    expect((await call('/public')).status).toBe(200);
    expect((await call('/optional')).status).toBe(200);
    const either = await call('/either');
    expect([either.status, either.body.detail]).toEqual([
      401,
      expect.stringContaining('basic (Authorization: Basic), or query (query parameter api_key)'),
    ]);
    expect((await call('/either?api_key=1')).status).toBe(200);
    expect((await call('/both', { 'x-api-key': 'k' })).status).toBe(401);
    expect((await call('/both', { 'x-api-key': 'k', authorization: 'Bearer t' })).status).toBe(200);
  });

  it('a scheme the spec does not declare is not checked, and the load says so', async () => {
    expect((await call('/unknown')).status).toBe(200);
    const messages = workspaceDiagnostics(server.app.gateway).map((d) => d.message);
    expect(messages).toContain(
      'GET /unknown: security scheme nowhere is not declared in components.securitySchemes; not checked',
    );
  });
});

describe('MOCK_SECURITY', () => {
  describe('off by default', () => {
    const { call } = serve({ 'open.json': spec() });
    it('serves without credentials', async () => {
      expect((await call('/open/header')).status).toBe(200);
    });
  });

  describe('enforce, with a spec that turns it off', () => {
    const { call } = serve({ 'open.json': spec(), 'off.json': spec('off') }, { MOCK_SECURITY: 'enforce' });
    it('answers 401 on the specs without the extension only', async () => {
      expect((await call('/open/header')).status).toBe(401);
      expect((await call('/off/header')).status).toBe(200);
    });
  });

  describe('a bad x-adaptive-security', () => {
    const { server } = serve({ 'bad.json': spec('yes') });
    it('fails the spec to load, naming the values', () => {
      const errors = workspaceDiagnostics(server.app.gateway).filter((d) => d.severity === 'error');
      expect(errors.map((d) => d.message)).toEqual([
        expect.stringContaining('x-adaptive-security must be "enforce" or "off"'),
      ]);
    });
  });
});

import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../app.js';
import { loadConfig } from '../../config.js';
import { copyExampleWorkspace } from '../test-support/query-fixtures.js';

const url = '/api/v1/query/sparql';
const ex = 'PREFIX ex: <http://example.com/shop#>\n';
let workspace: string;
let app: FastifyInstance;

async function sparql(query: string, headers: Record<string, string> = {}, explain = false) {
  return app.inject({ method: 'POST', url: `${url}${explain ? '?explain=true' : ''}`, headers: { 'content-type': 'application/sparql-query', ...headers }, payload: query });
}

type Bindings = { results: { bindings: Record<string, { type: string; value: string; datatype?: string; 'xml:lang'?: string }>[] } };
const bindings = async (query: string) => {
  const response = await sparql(query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Bindings>().results.bindings;
};

beforeAll(async () => {
  workspace = copyExampleWorkspace();
  const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent', DATA_DIR: `${workspace}/.data` }, { workspace });
  app = await buildServer(config, { logger: pino({ level: 'silent' }) });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

describe('POST /api/v1/query/sparql on the example workspace', () => {
  it('answers the type + property + FILTER + LIMIT query of the service document', async () => {
    const response = await sparql(`${ex}SELECT ?c ?name WHERE { ?c a ex:Customer ; ex:name ?name ; ex:region ?r . FILTER(?r = "Europe") } LIMIT 10`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/sparql-results+json');
    const body = response.json<Bindings & { head: { vars: string[] } }>();
    expect(body.head.vars).toEqual(['c', 'name']);
    expect(body.results.bindings).toHaveLength(10);
    expect(body.results.bindings[0].c.type).toBe('uri');
    expect(body.results.bindings[0].c.value).toMatch(/^http:\/\/example\.com\/shop\/customer\/\d+$/);
  });
});

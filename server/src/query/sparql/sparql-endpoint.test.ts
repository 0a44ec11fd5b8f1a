import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../main/app.js';
import { loadConfig } from '../../core/config.js';
import { copyExampleWorkspace } from '../test-support/query-fixtures.js';

const url = '/api/v1/query/sparql';
const ex = 'PREFIX ex: <http://example.com/shop#>\n';
let workspace: string;
let app: FastifyInstance;

async function sparql(query: string, headers: Record<string, string> = {}, explain = false) {
  return app.inject({
    method: 'POST',
    url: `${url}${explain ? '?explain=true' : ''}`,
    headers: { 'content-type': 'application/sparql-query', ...headers },
    payload: query,
  });
}

type Bindings = {
  results: { bindings: Record<string, { type: string; value: string; datatype?: string; 'xml:lang'?: string }>[] };
};
const bindings = async (query: string) => {
  const response = await sparql(query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Bindings>().results.bindings;
};

beforeAll(async () => {
  workspace = copyExampleWorkspace();
  const config = loadConfig(
    { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', DATA_DIR: `${workspace}/.data` },
    { workspace },
  );
  app = await buildServer(config, { logger: pino({ level: 'silent' }) });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

describe('GET /api/v1/query/sparql/vocabulary on the example workspace', () => {
  it('serves the ontology prefixes, classes and properties with labels', async () => {
    const response = await app.inject({ method: 'GET', url: `${url}/vocabulary` });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{
      prefixes: Record<string, string>;
      classes: { iri: string; label?: string }[];
      properties: { iri: string }[];
    }>();
    expect(body.prefixes.ex).toBe('http://example.com/shop#');
    expect(body.classes).toContainEqual({ iri: 'http://example.com/shop#PremiumCustomer', label: 'Premium customer' });
    expect(body.properties.map((p) => p.iri)).toEqual(
      expect.arrayContaining(['http://example.com/shop#placedBy', 'http://example.com/shop#placed']),
    );
  });

  it('is read-only', async () => {
    const response = await app.inject({ method: 'POST', url: `${url}/vocabulary`, payload: {} });
    expect(response.statusCode).toBe(404);
  });
});

describe('POST /api/v1/query/sparql on the example workspace', () => {
  it('answers the type + property + FILTER + LIMIT query of the service document', async () => {
    const response = await sparql(
      `${ex}SELECT ?c ?name WHERE { ?c a ex:Customer ; ex:name ?name ; ex:region ?r . FILTER(?r = "Europe") } LIMIT 10`,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/sparql-results+json');
    const body = response.json<Bindings & { head: { vars: string[] } }>();
    expect(body.head.vars).toEqual(['c', 'name']);
    expect(body.results.bindings).toHaveLength(10);
    expect(body.results.bindings[0].c.type).toBe('uri');
    expect(body.results.bindings[0].c.value).toMatch(/^http:\/\/example\.com\/shop\/customer\/\d+$/);
  });

  it('finds subclass instances through the ontology and inverse properties', async () => {
    const premium = await bindings(`${ex}SELECT ?c WHERE { ?c a ex:PremiumCustomer }`);
    expect(premium.length).toBeGreaterThan(0);
    const customers = await bindings(`${ex}SELECT DISTINCT ?c WHERE { ?c a ex:Customer }`);
    expect(customers).toHaveLength(120);
    const placed = await bindings(`${ex}SELECT ?o WHERE { <http://example.com/shop/customer/1> ex:placed ?o }`);
    const placedBy = await bindings(`${ex}SELECT ?o WHERE { ?o ex:placedBy <http://example.com/shop/customer/1> }`);
    expect(placed.map((b) => b.o.value).sort()).toEqual(placedBy.map((b) => b.o.value).sort());
  });

  it('joins across sources and aggregates', async () => {
    const rows = await bindings(
      `${ex}SELECT ?category (SUM(?amount) AS ?total) WHERE { ?o ex:product ?p ; ex:amount ?amount . ?p ` +
        `ex:category ?category } GROUP BY ?category ORDER BY DESC(?total)`,
    );
    expect(rows).toHaveLength(5);
    expect(rows[0].total.datatype).toBe('http://www.w3.org/2001/XMLSchema#decimal');
    // Decimals in canonical form: no trailing zeros of the column's scale.
    const amounts = await bindings(`${ex}SELECT ?a WHERE { ?o ex:amount ?a } LIMIT 50`);
    for (const { a } of amounts) expect(a.value).toMatch(/^-?\d+\.(0|\d*[1-9])$/);
  });

  it('returns CSV and TSV by Accept, a boolean for ASK and Turtle or N-Triples for CONSTRUCT', async () => {
    const query = `${ex}SELECT ?c ?name WHERE { ?c ex:name ?name ; ex:regionCode "EU" } ORDER BY ?c LIMIT 2`;
    const csv = await sparql(query, { accept: 'text/csv' });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('c,name');
    const tsv = await sparql(query, { accept: 'text/tab-separated-values' });
    expect(tsv.body.split('\n')[0]).toBe('?c\t?name');
    expect(tsv.body.split('\n')[1]).toMatch(/^<http:\/\/example\.com\/shop\/customer\/\d+>\t"/);
    const ask = await sparql(`${ex}ASK { ?c a ex:Book }`);
    expect(ask.json()).toEqual({ head: {}, boolean: true });
    const construct = `${ex}CONSTRUCT { ?c ex:name ?n } WHERE { ?c a ex:Customer ; ex:name ?n } LIMIT 3`;
    const turtle = await sparql(construct);
    expect(turtle.headers['content-type']).toContain('text/turtle');
    expect(turtle.body).toContain('ex:name');
    const nt = await sparql(construct, { accept: 'application/n-triples' });
    expect(nt.body.trim().split('\n')).toHaveLength(3);
  });

  it('accepts the form-encoded query= of the SPARQL protocol', async () => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `query=${encodeURIComponent(`${ex}ASK { ?c a ex:Order }`)}`,
    });
    expect(response.json()).toEqual({ head: {}, boolean: true });
  });

  it('explains: ?explain=true returns the generated SQL over <source>.<table> names', async () => {
    const response = await sparql(`${ex}SELECT ?c WHERE { ?c a ex:Customer ; ex:regionCode "EU" }`, {}, true);
    expect(response.statusCode).toBe(200);
    const { sql } = response.json<{ sql: string }>();
    expect(sql).toContain('"shop"."customers"');
    // The join of the two patterns compares the id columns, not rendered IRIs.
    expect(sql).toMatch(/t0c\."id" = t1c\."id"/);
  });

  it('rejects syntax errors with their line, and unsupported features by name', async () => {
    const syntax = await sparql('SELECT ?x WHERE {\n ?x ?y }');
    expect(syntax.statusCode).toBe(400);
    expect(syntax.json()).toMatchObject({
      detail: expect.stringContaining('syntax error'),
      code: 'SPARQL_SYNTAX',
      line: 2,
      column: 8,
    });
    // An undeclared prefix is a syntax error with a place too: its first use.
    const prefix = await sparql('SELECT ?s\nWHERE { ?s foo:bar ?o }');
    expect(prefix.statusCode).toBe(400);
    expect(prefix.json()).toEqual({
      detail: 'SPARQL syntax error: Unknown prefix: foo',
      code: 'SPARQL_SYNTAX',
      line: 2,
      column: 12,
    });
    for (const [query, feature] of [
      [`${ex}SELECT ?x WHERE { ?x !ex:placedBy ?n }`, 'negated property sets (!)'],
      [`${ex}SELECT ?x WHERE { GRAPH ?g { ?x ex:name ?n } }`, 'GRAPH'],
      [`${ex}SELECT ?x WHERE { SERVICE <http://example.org/sparql> { ?x ex:name ?n } }`, 'SERVICE'],
      [`${ex}DESCRIBE <http://example.com/shop/customer/1>`, 'DESCRIBE'],
      [`${ex}SELECT ?x WHERE { ?x ex:name ?n FILTER(regex(?n, ?x)) }`, 'regex pattern'],
    ]) {
      const response = await sparql(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ detail: string }>().detail).toContain(feature);
      expect(response.json<{ code: string }>().code).toBe('SPARQL_UNSUPPORTED');
    }
    const update = await sparql('INSERT DATA { <http://a> <http://b> <http://c> }');
    expect(update.statusCode).toBe(400);
    const empty = await sparql('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ code: string }>().code).toBe('SPARQL_QUERY_MISSING');
  });

  it('keeps literals and IRIs out of the SQL text as code: injection attempts are data', async () => {
    const hostile = [
      `${ex}SELECT ?c WHERE { ?c ex:name "x'); DROP TABLE shop.customers; --" }`,
      `${ex}SELECT ?c WHERE { ?c ex:name "x' OR '1'='1" }`,
      `${ex}SELECT ?c WHERE { ?c ex:name ?n FILTER(?n = "a\\' OR 1=1 --") }`,
      `${ex}SELECT ?n WHERE { <http://example.com/shop/customer/1'OR'1'='1> ex:name ?n }`,
      `${ex}SELECT ?n WHERE { <http://example.com/shop/customer/1%27%20OR%20%271%27=%271> ex:name ?n }`,
      `${ex}SELECT ?c WHERE { ?c ex:name ?n FILTER regex(?n, "'; SELECT 1; --") }`,
      `${ex}SELECT ?c WHERE { VALUES ?n { "'||(SELECT 1)||'" } ?c ex:name ?n }`,
    ];
    for (const query of hostile) {
      const response = await sparql(query);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
      expect(response.json<Bindings>().results.bindings, query).toEqual([]);
    }
    // The data is still there.
    expect(await bindings(`${ex}SELECT ?c WHERE { ?c a ex:Customer }`)).not.toHaveLength(0);
  });

  it('rejects a huge query (413) and deep nesting (400), never a 500', async () => {
    const huge = await sparql(`${ex}SELECT ?c WHERE { ?c ex:name "${'x'.repeat(200_000)}" }`);
    expect(huge.statusCode).toBe(413);
    const deepGroups = await sparql(`${ex}SELECT ?c WHERE ${'{ '.repeat(3000)}?c ex:name ?n${' }'.repeat(3000)}`);
    expect(deepGroups.statusCode).toBe(400);
    expect(deepGroups.json<{ detail: string }>().detail).toMatch(/nested/);
    const deepExpr = await sparql(`${ex}SELECT ?c WHERE { ?c ex:quantity ?q FILTER(${'!'.repeat(5000)}(?q > 1)) }`);
    expect(deepExpr.statusCode).toBe(400);
    const deepUnion = await sparql(
      `${ex}SELECT ?c WHERE { ${Array.from({ length: 400 }, () => '{ ?c ex:name ?n }').join(' UNION ')} }`,
    );
    expect([200, 400, 413]).toContain(deepUnion.statusCode);
    const manyPatterns = await sparql(
      `${ex}SELECT * WHERE { ${Array.from({ length: 12 }, (_, i) => `?s${i} ?p${i} ?o${i} .`).join(' ')} }`,
    );
    expect(manyPatterns.statusCode).toBe(400);
    expect(manyPatterns.json<{ detail: string }>().detail).toContain('alternatives');
  });
});

describe('an invalid mapping', () => {
  it('makes SPARQL answer 503 with the file, line and problem, logged; SQL and questions still serve', async () => {
    const dir = copyExampleWorkspace();
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    fs.writeFileSync(
      `${dir}/query/mapping.ttl`,
      '@prefix rr: <http://www.w3.org/ns/r2rml#> .\n<#M> rr:logicalTable [ rr:tableName "shop.customers" ] .\n',
    );
    const config = loadConfig({ HOT_RELOAD: 'false', DATA_DIR: `${dir}/.data` }, { workspace: dir });
    const broken = await buildServer(config, { logger });
    try {
      await broken.ready();
      const fault = 'mapping.ttl:2:1: triples map <#M> needs exactly one subject map (found 0)';
      for (const request of [
        { method: 'POST', url, headers: { 'content-type': 'application/sparql-query' }, payload: 'ASK {}' },
        { method: 'GET', url: `${url}/vocabulary` },
      ] as const) {
        const response = await broken.inject(request);
        expect(response.statusCode).toBe(503);
        expect(response.json<{ detail: string }>().detail).toContain(fault);
      }
      const sql = await broken.inject({
        method: 'POST',
        url: '/api/v1/query/sql',
        payload: { query: 'SELECT 1 AS x' },
      });
      expect(sql.statusCode).toBe(200);
      const question = { question: 'How many customers are there?' };
      const nl = await broken.inject({ method: 'POST', url: '/api/v1/query/natural-language', payload: question });
      expect(nl.statusCode).toBe(200);
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(logged).toContainEqual(expect.objectContaining({ level: 50, msg: expect.stringContaining(fault) }));
      expect(logged).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining(fault) }));
    } finally {
      await broken.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

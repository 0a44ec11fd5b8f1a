import fs from 'node:fs';
import path from 'node:path';
import N3 from 'n3';
import { DuckDBInstance } from '@duckdb/node-api';
import { openGraphFixture } from './graph-fixture.js';
import { rdfTerm } from '../../src/query/sparql/expressions.js';
import { MappingError } from '../../src/query/sparql/r2rml.js';
import { sameRows, type Row } from './rdf-compare.js';

/** One R2RML test case of a manifest. */
interface R2rmlCase {
  id: string;
  database: string;
  mapping: string;
  /** The expected N-Quads file; undefined for a mapping that must be rejected. */
  output?: string;
}

export interface R2rmlOutcome {
  id: string;
  passed: boolean;
  detail?: string;
}

const TEST = 'http://purl.org/NET/rdb2rdf-test#';
const DC = 'http://purl.org/dc/elements/1.1/';

/** The R2RML cases of one database folder's manifest.ttl. */
function readCases(folder: string): R2rmlCase[] {
  const store = new N3.Store(
    new N3.Parser({ baseIRI: 'http://example.org/manifest' }).parse(
      fs.readFileSync(path.join(folder, 'manifest.ttl'), 'utf8'),
    ),
  );
  const value = (s: N3.Quad['subject'], p: string) => store.getObjects(s, N3.DataFactory.namedNode(p), null)[0]?.value;
  return store
    .getSubjects(
      N3.DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
      N3.DataFactory.namedNode(`${TEST}R2RML`),
      null,
    )
    .map((s) => ({
      id: value(s as N3.Quad['subject'], `${DC}identifier`) ?? s.value,
      database: folder,
      mapping: value(s as N3.Quad['subject'], `${TEST}mappingDocument`)!,
      output:
        value(s as N3.Quad['subject'], `${TEST}hasExpectedOutput`) === 'true'
          ? value(s as N3.Quad['subject'], `${TEST}output`)
          : undefined,
    }));
}

/** The suites' SQL in DuckDB's dialect: binary types take no length, hex literals are from_hex(). */
export function duckdbDialect(statement: string): string {
  return statement.replace(/VARBINARY\s*\(\s*\d+\s*\)/gi, 'BLOB').replace(/\bX'([0-9A-Fa-f]*)'/g, "from_hex('$1')");
}

/** Splits an SQL script at semicolons outside quotes. */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const ch of script) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * Qualifies the unqualified table names of every rr:sqlQuery with `source` (the suites are written
 * for one database), using DuckDB's own parser so nothing but table references changes.
 */
export async function qualifySqlQueries(mapping: string, source: string): Promise<string> {
  const queries = [...mapping.matchAll(/rr:sqlQuery\s+("""[\s\S]*?"""|"(?:[^"\\]|\\.)*")/g)];
  if (queries.length === 0) return mapping;
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    let result = mapping;
    for (const match of queries) {
      const literal = match[1];
      const sql = literal.startsWith('"""') ? literal.slice(3, -3) : JSON.parse(literal.replace(/\\'/g, "'"));
      const reader = await connection.runAndReadAll(`SELECT json_serialize_sql($1::VARCHAR)`, [sql]);
      // Locations are 64-bit and lose precision as JS numbers; they are not needed to print the query.
      const ast = JSON.parse(String(reader.getRows()[0][0]).replace(/"query_location":\d+/g, '"query_location":0'));
      if (ast.error) continue;
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(visit);
        else if (node && typeof node === 'object') {
          const record = node as Record<string, unknown>;
          if (record.type === 'BASE_TABLE' && !record.schema_name && !record.catalog_name) record.schema_name = source;
          Object.values(record).forEach(visit);
        }
      };
      visit(ast);
      const back = await connection.runAndReadAll(`SELECT json_deserialize_sql($1::JSON)`, [JSON.stringify(ast)]);
      result = result.replace(literal, JSON.stringify(String(back.getRows()[0][0])));
    }
    return result;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Reads expected N-Quads as triples (graph names are not compared: the endpoint queries the default graph). */
function readExpected(file: string): Row[] {
  const quads = new N3.Parser({ format: 'N-Quads' }).parse(fs.readFileSync(file, 'utf8'));
  const seen = new Set<string>();
  const rows: Row[] = [];
  for (const q of quads) {
    const row = { s: rdfTerm(q.subject as never)!, p: rdfTerm(q.predicate as never)!, o: rdfTerm(q.object as never)! };
    const key = JSON.stringify(row);
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(row);
  }
  return rows;
}

/** Runs one case: the graph of `CONSTRUCT {?s ?p ?o} WHERE {?s ?p ?o}` against the expected quads. */
async function runCase(c: R2rmlCase, statements: string[]): Promise<R2rmlOutcome> {
  let mapping: string;
  try {
    mapping = await qualifySqlQueries(fs.readFileSync(path.join(c.database, c.mapping), 'utf8'), 'db');
  } catch (error) {
    return { id: c.id, passed: false, detail: `mapping unreadable: ${(error as Error).message}` };
  }
  let fixture;
  try {
    fixture = await openGraphFixture(statements, mapping, '', 'db', { baseIri: 'http://example.com/base/' });
  } catch (error) {
    if (!(error instanceof MappingError))
      return { id: c.id, passed: false, detail: `database not created: ${(error as Error).message.split('\n')[0]}` };
    return c.output ? { id: c.id, passed: false, detail: `rejected: ${error.message}` } : { id: c.id, passed: true };
  }
  try {
    const answer = await fixture.sparql.run('CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }');
    if (!c.output) return { id: c.id, passed: false, detail: 'an invalid mapping was accepted' };
    if (answer.kind !== 'construct') return { id: c.id, passed: false, detail: 'not a graph' };
    const actual = answer.triples.map(([s, p, o]) => ({ s, p, o }));
    const expected = readExpected(path.join(c.database, c.output));
    return sameRows(actual, expected, false)
      ? { id: c.id, passed: true }
      : { id: c.id, passed: false, detail: `graph differs: ${actual.length} triples, expected ${expected.length}` };
  } catch (error) {
    return c.output
      ? { id: c.id, passed: false, detail: `query failed: ${(error as Error).message.split('\n')[0]}` }
      : { id: c.id, passed: true };
  } finally {
    await fixture.close();
  }
}

/** Runs every R2RML case of the suite folder (D000..D026). */
export async function runR2rmlSuite(
  dir: string,
  options: { only?: string; onOutcome?: (o: R2rmlOutcome) => void } = {},
): Promise<R2rmlOutcome[]> {
  const outcomes: R2rmlOutcome[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const folder = path.join(dir, name);
    if (!fs.existsSync(path.join(folder, 'manifest.ttl'))) continue;
    const statements = splitStatements(fs.readFileSync(path.join(folder, 'create.sql'), 'utf8')).map(duckdbDialect);
    for (const c of readCases(folder)) {
      if (options.only && !c.id.includes(options.only)) continue;
      const outcome = await runCase(c, statements);
      outcomes.push(outcome);
      options.onOutcome?.(outcome);
    }
  }
  return outcomes;
}

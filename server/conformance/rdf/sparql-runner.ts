import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import N3 from 'n3';
import oxigraph from 'oxigraph';
import { openGraphFixture } from './graph-fixture.js';
import { isHierarchyAxiom, schemaOntology, underRdfsEntailment } from './entailment-regime.js';
import { rdfTerm } from '../../src/query/sparql/expressions.js';
import type { Term } from '../../src/query/sparql/rdf.js';
import { rowKeys, sameRows, type Row } from './rdf-compare.js';
import { sqlLiteral } from '../../src/core/sql-text.js';

/** One evaluation test of sparql-core-index.json. */
interface IndexEntry {
  tier: string;
  dir: string;
  name: string;
  query: string;
  data: string[];
  result: string;
}

export interface SparqlOutcome {
  tier: string;
  name: string;
  passed: boolean;
  detail?: string;
}

type Expected = { kind: 'boolean'; value: boolean } | { kind: 'rows'; rows: Row[] };

const RS = 'http://www.w3.org/2001/sw/DataAccess/tests/result-set#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

const unescapeXml = (text: string) =>
  text.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-fA-F]+|#\d+);/g, (_, e: string) =>
    e === 'lt'
      ? '<'
      : e === 'gt'
        ? '>'
        : e === 'amp'
          ? '&'
          : e === 'quot'
            ? '"'
            : e === 'apos'
              ? "'"
              : String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
  );

/** SPARQL XML results (.srx), read with patterns: the format is small and regular. */
function readSrx(text: string): Expected {
  const boolean = /<boolean>\s*(true|false)\s*<\/boolean>/.exec(text);
  if (boolean) return { kind: 'boolean', value: boolean[1] === 'true' };
  const rows: Row[] = [];
  for (const result of text.matchAll(/<result>([\s\S]*?)<\/result>/g)) {
    const row: Row = {};
    for (const b of result[1].matchAll(/<binding\s+name=["']([^"']+)["']\s*>([\s\S]*?)<\/binding>/g)) {
      const body = b[2].trim();
      let m: RegExpExecArray | null;
      if ((m = /^<uri>([\s\S]*)<\/uri>$/.exec(body))) row[b[1]] = { type: 'iri', value: unescapeXml(m[1]) };
      else if ((m = /^<bnode>([\s\S]*)<\/bnode>$/.exec(body))) row[b[1]] = { type: 'bnode', value: m[1] };
      else if ((m = /^<literal([^>]*?)(?:\/>|>([\s\S]*)<\/literal>)$/.exec(body))) {
        const datatype = /datatype=["']([^"']+)["']/.exec(m[1])?.[1];
        const language = /xml:lang=["']([^"']+)["']/.exec(m[1])?.[1];
        row[b[1]] = {
          type: 'literal',
          value: unescapeXml(m[2] ?? ''),
          language,
          datatype: language || datatype === 'http://www.w3.org/2001/XMLSchema#string' ? undefined : datatype,
        };
      }
    }
    rows.push(row);
  }
  return { kind: 'rows', rows };
}

/** SPARQL JSON results (.srj). */
function readSrj(text: string): Expected {
  const json = JSON.parse(text) as {
    boolean?: boolean;
    results?: { bindings: Record<string, { type: string; value: string; datatype?: string; 'xml:lang'?: string }>[] };
  };
  if (typeof json.boolean === 'boolean') return { kind: 'boolean', value: json.boolean };
  return {
    kind: 'rows',
    rows: (json.results?.bindings ?? []).map((b) =>
      Object.fromEntries(
        Object.entries(b).map(([k, t]): [string, Term] => [
          k,
          t.type === 'uri'
            ? { type: 'iri', value: t.value }
            : t.type === 'bnode'
              ? { type: 'bnode', value: t.value }
              : {
                  type: 'literal',
                  value: t.value,
                  language: t['xml:lang'],
                  datatype:
                    t['xml:lang'] || t.datatype === 'http://www.w3.org/2001/XMLSchema#string' ? undefined : t.datatype,
                },
        ]),
      ),
    ),
  };
}

/** Result sets written in RDF with the rs: vocabulary (.ttl), in rs:index order when given. */
function readRdfResults(file: string): Expected {
  const store = new N3.Store(parseRdf(file));
  const node = (p: string) => N3.DataFactory.namedNode(`${RS}${p}`);
  const set = store.getSubjects(node('boolean'), null, null)[0] ?? store.getSubjects(null, node('ResultSet'), null)[0];
  const bool = set ? store.getObjects(set, node('boolean'), null)[0] : undefined;
  if (bool) return { kind: 'boolean', value: bool.value === 'true' };
  const solutions = set ? store.getObjects(set, node('solution'), null) : [];
  const indexed = solutions
    .map((s) => ({ s, index: Number(store.getObjects(s, node('index'), null)[0]?.value ?? 0) }))
    .sort((a, b) => a.index - b.index);
  return {
    kind: 'rows',
    rows: indexed.map(({ s }) => {
      const row: Row = {};
      for (const b of store.getObjects(s, node('binding'), null)) {
        const name = store.getObjects(b, node('variable'), null)[0]?.value;
        const value = store.getObjects(b, node('value'), null)[0];
        if (name && value) row[name] = rdfTerm(value as never)!;
      }
      return row;
    }),
  };
}

/**
 * The triples of an RDF file: RDF/XML (`.rdf`) through Oxigraph's parser, N-Triples and Turtle through N3's.
 * Both give RDF/JS terms, which N3's store takes alike.
 */
function parseRdf(file: string): N3.Quad[] {
  const text = fs.readFileSync(file, 'utf8');
  const baseIRI = pathToFileURL(file).href;
  if (file.endsWith('.rdf'))
    return oxigraph.parse(text, { format: 'application/rdf+xml', base_iri: baseIRI }) as unknown as N3.Quad[];
  return new N3.Parser({ format: file.endsWith('.nt') ? 'N-Triples' : 'Turtle', baseIRI }).parse(text);
}

function readExpected(file: string): Expected {
  if (file.endsWith('.srx')) return readSrx(fs.readFileSync(file, 'utf8'));
  if (file.endsWith('.srj')) return readSrj(fs.readFileSync(file, 'utf8'));
  return readRdfResults(file);
}

/**
 * The data as a triples table and a mapping over it: one triples map per predicate and kind of
 * subject and object (R2RML term types and datatypes are fixed per map), so constant predicates prune.
 */
function loadData(quads: readonly N3.Quad[]): { statements: string[]; mapping: string } {
  const rows: string[] = [];
  const groups = new Map<string, { p: string; s: string; o: string; dt: string; lang: string; cls: string }>();
  for (const q of quads) {
    const s = q.subject.termType === 'BlankNode' ? 'b' : 'i';
    const o = q.object.termType === 'BlankNode' ? 'b' : q.object.termType === 'NamedNode' ? 'i' : 'l';
    const literal = q.object.termType === 'Literal' ? (q.object as N3.Literal) : undefined;
    const lang = literal?.language ?? '';
    const dt =
      literal && !lang && literal.datatype.value !== 'http://www.w3.org/2001/XMLSchema#string'
        ? literal.datatype.value
        : '';
    // Classes are constants of their maps, as rr:class writes them: the ontology then entails their super-classes.
    const cls = q.predicate.value === RDF_TYPE && o === 'i' ? q.object.value : '';
    rows.push(`(${[q.subject.value, s, q.predicate.value, q.object.value, o, dt, lang].map(sqlLiteral).join(', ')})`);
    groups.set(JSON.stringify([q.predicate.value, s, o, dt, lang, cls]), { p: q.predicate.value, s, o, dt, lang, cls });
  }
  const statements = [
    'CREATE TABLE triples (s VARCHAR, s_kind VARCHAR, p VARCHAR, o VARCHAR, o_kind VARCHAR, o_dt VARCHAR, ' +
      'o_lang VARCHAR)',
  ];
  for (let i = 0; i < rows.length; i += 500)
    statements.push(`INSERT INTO triples VALUES ${rows.slice(i, i + 500).join(', ')}`);
  const turtle = (text: string) => JSON.stringify(text);
  const maps = [...groups.values()].map((g, i) => {
    const where =
      `p = ${sqlLiteral(g.p)} AND s_kind = '${g.s}' AND o_kind = '${g.o}' AND o_dt = ` +
      `${sqlLiteral(g.dt)} AND o_lang = ${sqlLiteral(g.lang)}` +
      (g.cls ? ` AND o = ${sqlLiteral(g.cls)}` : '');
    const object = g.cls
      ? `rr:constant <${g.cls}>`
      : g.o === 'i'
        ? 'rr:termType rr:IRI'
        : g.o === 'b'
          ? 'rr:termType rr:BlankNode'
          : g.lang
            ? `rr:language ${turtle(g.lang)}`
            : g.dt
              ? `rr:datatype <${g.dt}>`
              : 'rr:termType rr:Literal';
    return `<#T${i}> rr:logicalTable [ rr:sqlQuery ${turtle(`SELECT s, o FROM db.triples WHERE ${where}`)} ] ;
  rr:subjectMap [ rr:column "s" ; rr:termType ${g.s === 'b' ? 'rr:BlankNode' : 'rr:IRI'} ] ;
  rr:predicateObjectMap [ rr:predicate <${g.p}> ; rr:objectMap [ ${g.cls ? '' : 'rr:column "o" ; '}${object} ] ] .`;
  });
  return {
    statements,
    mapping: maps.length ? `@prefix rr: <http://www.w3.org/ns/r2rml#> .\n${maps.join('\n')}\n` : '',
  };
}

/** The first row only one side has, each way: enough to see why a case fails. */
function rowDifference(actual: Row[], expected: Row[]): string {
  const a = rowKeys(actual);
  const e = rowKeys(expected);
  const onlyActual = a
    .filter((key) => !e.includes(key))
    .slice(0, 6)
    .join(' | ');
  const onlyExpected = e
    .filter((key) => !a.includes(key))
    .slice(0, 6)
    .join(' | ');
  return (onlyActual ? `; only ours: ${onlyActual}` : '') + (onlyExpected ? `; only expected: ${onlyExpected}` : '');
}

async function runTest(root: string, entry: IndexEntry): Promise<SparqlOutcome> {
  const fail = (detail: string): SparqlOutcome => ({
    tier: entry.tier,
    name: `${entry.dir}/${entry.name}`,
    passed: false,
    detail,
  });
  const quads = entry.data.flatMap((d) => parseRdf(path.join(root, d)));
  const queryFile = path.join(root, entry.query);
  const query = fs.readFileSync(queryFile, 'utf8');
  let expected: Expected;
  try {
    expected = readExpected(path.join(root, entry.result));
  } catch (error) {
    return fail(`expected results unreadable: ${(error as Error).message}`);
  }
  // Under RDFS entailment the schema is the ontology's, and the graph answers with the hierarchies' closure.
  const ontology = underRdfsEntailment(queryFile) ? schemaOntology(quads) : '';
  const { statements, mapping } = loadData(ontology ? quads.filter((q) => !isHierarchyAxiom(q)) : quads);
  let fixture;
  try {
    fixture = await openGraphFixture(statements, mapping, ontology);
  } catch (error) {
    return fail(`data not loaded: ${(error as Error).message.split('\n')[0].slice(0, 200)}`);
  }
  try {
    const answer = await fixture.sparql.run(query);
    if (answer.kind === 'ask')
      return expected.kind === 'boolean' && expected.value === answer.value
        ? { tier: entry.tier, name: `${entry.dir}/${entry.name}`, passed: true }
        : fail(`ASK gave ${answer.value}`);
    if (answer.kind !== 'select' || expected.kind !== 'rows') return fail(`unexpected ${answer.kind} result`);
    const actual = answer.rows.map((r) => Object.fromEntries(r));
    const ordered = /ORDER\s+BY/i.test(query);
    return sameRows(actual, expected.rows, ordered)
      ? { tier: entry.tier, name: `${entry.dir}/${entry.name}`, passed: true }
      : fail(
          `results differ: ${actual.length} rows, expected ${expected.rows.length}` +
            rowDifference(actual, expected.rows),
        );
  } catch (error) {
    return fail(`error: ${(error as Error).message.split('\n')[0].slice(0, 200)}`);
  } finally {
    await fixture.close();
  }
}

/** Runs the tier A and B tests of sparql-core-index.json. */
export async function runSparqlSuite(
  root: string,
  options: { only?: string; tiers?: string[]; onOutcome?: (o: SparqlOutcome) => void } = {},
): Promise<SparqlOutcome[]> {
  const tiers = options.tiers ?? ['A', 'B'];
  const index = JSON.parse(fs.readFileSync(path.join(root, 'sparql-core-index.json'), 'utf8')) as IndexEntry[];
  const outcomes: SparqlOutcome[] = [];
  for (const entry of index) {
    if (!tiers.includes(entry.tier)) continue;
    if (options.only && !`${entry.dir}/${entry.name}`.includes(options.only)) continue;
    const outcome = await runTest(root, entry);
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  return outcomes;
}

import oxigraph from 'oxigraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGraphFixture, type GraphFixture } from '../../../conformance/rdf/graph-fixture.js';
import { toTrinoSpelling } from '../engine/trino-dialect.js';
import { checkTrinoStatement } from '../test-support/trino-grammar.js';
import { HttpError } from '../../core/errors.js';

/**
 * Paths of any length (`*`, `+`, `?`) against oxigraph on the same triples: a `knows` graph with a cycle
 * (1 -> 2 -> 3 -> 1), a tail (3 -> 4) and a person nobody links (5), and a class hierarchy with a cycle.
 */
const ex = 'http://example.com/ns#';
const rdfs = 'http://www.w3.org/2000/01/rdf-schema#';
const prefixes = `PREFIX ex: <${ex}>\nPREFIX rdfs: <${rdfs}>\n`;
const knows = [
  [1, 2],
  [2, 3],
  [3, 1],
  [3, 4],
];
const names = ['Ada', 'Alan', 'Grace', 'Linus', 'Edsger'];
const classes = [
  ['Dog', 'Mammal'],
  ['Mammal', 'Animal'],
  ['Animal', 'Being'],
  ['Being', 'Animal'],
];

const statements = [
  'CREATE TABLE people (id INTEGER, name VARCHAR)',
  ...names.map((n, i) => `INSERT INTO people VALUES (${i + 1}, '${n}')`),
  'CREATE TABLE knows (a INTEGER, b INTEGER)',
  ...knows.map(([a, b]) => `INSERT INTO knows VALUES (${a}, ${b})`),
  'CREATE TABLE classes (c VARCHAR, parent VARCHAR)',
  ...classes.map(([c, p]) => `INSERT INTO classes VALUES ('${c}', '${p}')`),
];
const mapping = `@prefix rr: <http://www.w3.org/ns/r2rml#> . @prefix ex: <${ex}> . @prefix rdfs: <${rdfs}> .
<#People> rr:logicalTable [ rr:tableName "people" ] ;
  rr:subjectMap [ rr:template "${ex}person/{id}" ] ;
  rr:predicateObjectMap [ rr:predicate ex:name ; rr:objectMap [ rr:column "name" ] ] .
<#Knows> rr:logicalTable [ rr:tableName "knows" ] ;
  rr:subjectMap [ rr:template "${ex}person/{a}" ] ;
  rr:predicateObjectMap [ rr:predicate ex:knows ; rr:objectMap [ rr:template "${ex}person/{b}" ] ] .
<#Classes> rr:logicalTable [ rr:tableName "classes" ] ;
  rr:subjectMap [ rr:template "${ex}{c}" ] ;
  rr:predicateObjectMap [ rr:predicate rdfs:subClassOf ; rr:objectMap [ rr:template "${ex}{parent}" ] ] .
`;
const turtle = [
  ...names.map((n, i) => `<${ex}person/${i + 1}> <${ex}name> "${n}" .`),
  ...knows.map(([a, b]) => `<${ex}person/${a}> <${ex}knows> <${ex}person/${b}> .`),
  ...classes.map(([c, p]) => `<${ex}${c}> <${rdfs}subClassOf> <${ex}${p}> .`),
].join('\n');

let fixture: GraphFixture;
let store: oxigraph.Store;
beforeAll(async () => {
  fixture = await openGraphFixture(statements, mapping);
  store = new oxigraph.Store();
  store.load(turtle, { format: 'text/turtle' });
});
afterAll(async () => {
  await fixture?.close();
});

/** A solution as sorted `name=value` text. */
const row = (entries: [string, { value: string }][]) =>
  entries
    .map(([k, t]) => `${k}=${t.value}`)
    .sort()
    .join(' ');

/** The answers of the translator and of oxigraph, each a sorted multiset of solutions. */
async function both(query: string): Promise<{ mine: string[]; theirs: string[] }> {
  const text = prefixes + query;
  const answer = await fixture.sparql.run(text);
  if (answer.kind !== 'select') throw new Error('expected SELECT');
  const mine = answer.rows.map((r) => row([...r].filter(([, t]) => t !== undefined) as [string, { value: string }][]));
  const results = store.query(text) as Map<string, { value: string }>[];
  const theirs = results.map((r) => row([...r]));
  return { mine: mine.sort(), theirs: theirs.sort() };
}

const cases = [
  ['+ from a constant, round a cycle', 'SELECT ?x WHERE { <http://example.com/ns#person/1> ex:knows+ ?x }'],
  ['+ with both ends variables', 'SELECT ?a ?b WHERE { ?a ex:knows+ ?b }'],
  ['+ to a constant', 'SELECT ?a WHERE { ?a ex:knows+ <http://example.com/ns#person/4> }'],
  ['+ from a node to itself (same variable)', 'SELECT ?a WHERE { ?a ex:knows+ ?a }'],
  ['* on a class cycle', 'SELECT ?c WHERE { ex:Dog rdfs:subClassOf* ?c }'],
  ['* with both ends variables: every node with itself', 'SELECT ?a ?b WHERE { ?a rdfs:subClassOf* ?b }'],
  ['* to a constant', 'SELECT ?c WHERE { ?c rdfs:subClassOf* ex:Animal }'],
  ['? from a constant', 'SELECT ?x WHERE { <http://example.com/ns#person/3> ex:knows? ?x }'],
  ['? with both ends variables', 'SELECT ?a ?b WHERE { ?a ex:knows? ?b }'],
  ['+ inside a sequence', 'SELECT ?n WHERE { <http://example.com/ns#person/2> ex:knows+/ex:name ?n }'],
  ['* over an alternative', 'SELECT ?x WHERE { <http://example.com/ns#person/4> (ex:knows|^ex:knows)* ?x }'],
  ['+ over a sequence', 'SELECT ?x WHERE { <http://example.com/ns#person/1> (ex:knows/ex:knows)+ ?x }'],
  ['nested: (knows+)? inverse', 'SELECT ?x WHERE { <http://example.com/ns#person/4> ^(ex:knows+)? ?x }'],
  ['joined with other patterns', 'SELECT ?n WHERE { ?p ex:name "Linus" . ?q ex:knows* ?p . ?q ex:name ?n }'],
  ['blank node end', 'SELECT ?x WHERE { [] ex:knows+ ?x }'],
] as const;

describe('SPARQL property paths of any length (recursive SQL)', () => {
  it.each(cases)('%s: the same solutions as oxigraph', async (_, query) => {
    const { mine, theirs } = await both(query);
    expect(theirs.length).toBeGreaterThan(0);
    expect(mine).toEqual(theirs);
  });

  it('pairs a constant end no triple mentions with itself (SPARQL 1.1 §18.4, eval of ZeroOrMorePath)', async () => {
    // oxigraph answers nothing here; the algebra's zero-length path binds ?x to the constant unconditionally.
    const answer = await fixture.sparql.run(`${prefixes}SELECT ?x WHERE { ex:Unicorn rdfs:subClassOf* ?x }`);
    if (answer.kind !== 'select') throw new Error('expected SELECT');
    expect(answer.rows.map((r) => r.get('x')?.value)).toEqual([`${ex}Unicorn`]);
    const none = await fixture.sparql.run(`${prefixes}SELECT ?x WHERE { ex:Unicorn rdfs:subClassOf+ ?x }`);
    expect(none.kind === 'select' && none.rows).toEqual([]);
  });

  it('answers 400 SPARQL_PATH_TOO_DEEP when a pair needs more steps than the bound, never a cut answer', async () => {
    const dir = fixture.queries.setup.limits;
    const saved = dir.maxPathDepth;
    dir.maxPathDepth = 2;
    try {
      // 4 is three steps from 1 (1 -> 2 -> 3 -> 4): beyond a bound of 2.
      const error = await fixture.sparql
        .run(`${prefixes}SELECT ?x WHERE { <${ex}person/1> ex:knows+ ?x }`)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).code).toBe('SPARQL_PATH_TOO_DEEP');
      expect((error as HttpError).status).toBe(400);
      // With a bound of 3 every pair from 1 is reached (4 and 1 itself in three steps): the cycle alone is not
      // too deep, though the recursion meets it again at every step.
      dir.maxPathDepth = 3;
      const { mine, theirs } = await both(`SELECT ?x WHERE { <${ex}person/1> ex:knows+ ?x }`);
      expect(mine).toEqual(theirs);
    } finally {
      dir.maxPathDepth = saved;
    }
  });

  it('writes SQL the Trino grammar accepts, with no function Trino lacks', async () => {
    const failed: string[] = [];
    let statements = 0;
    for (const [, query] of cases) {
      const { translation } = await fixture.sparql.translate(fixture.sparql.parse(prefixes + query));
      for (const sql of [translation.sql, ...(translation.checks ?? [])]) {
        statements++;
        const { syntax, unknownFunctions } = checkTrinoStatement(toTrinoSpelling(sql));
        if (syntax.length + unknownFunctions.length > 0) failed.push(`${query}: ${[...syntax, ...unknownFunctions]}`);
      }
    }
    console.info(`[measure] SPARQL paths: ${statements} statements in Trino mode, ${statements - failed.length} pass`);
    expect(failed).toEqual([]);
  }, 120_000);
});

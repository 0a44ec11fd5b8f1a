import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotUnderstood } from '../../core/domain-errors.js';
import { EmbeddedTranslator } from '../nl/embedded-translator.js';
import { valueSampleSql, type SchemaContext } from '../nl/schema-context.js';
import { shopSchema } from '../nl/test-support/shop-schema.js';
import { checkTrinoStatement } from '../test-support/trino-grammar.js';
import { SqlParser } from './sql-parser.js';
import { toTrinoSpelling } from './trino-dialect.js';

const source = (relative: string) => readFileSync(new URL(relative, import.meta.url), 'utf8');

/** Every statement the SPARQL translator generates in its tests (its pinned snapshots; quotes are not escaped). */
const sparqlStatements = [
  ...source('../sparql/__snapshots__/translator.test.ts.snap').matchAll(/"sql": "(.*)",$/gm),
].map((m) => m[1].replace(/\\\\/g, '\\'));

/** The SQL the query tests send (`query: '...'` payloads). */
const sqlStatements = [
  'query-plugin.test.ts',
  'result-size.test.ts',
  'live-query-http.test.ts',
  'jobs/async-jobs.test.ts',
  'engine/trino-engine.test.ts',
].flatMap((file) =>
  [...source(`../${file}`).matchAll(/query: '((?:[^'\\]|\\.)*)'/g)]
    .map((m) => m[1].replace(/\\'/g, "'"))
    .filter((sql) => /^\s*(SELECT|WITH)\b/i.test(sql)),
);

/** The questions of the natural-language tests, and some about weekdays, averages and ratios. */
const questions = [
  ...[...source('../nl/natural-language.test.ts').matchAll(/ask\(app, '((?:[^'\\]|\\.)*)'\)/g)].map((m) => m[1]),
  'how many orders on weekends',
  'orders on Mondays',
  'average amount by weekday',
  'average order amount by region',
  'number of orders per month',
  'orders in the last 3 months',
  'customers who signed up 2 years ago',
  'ratio of paid orders to shipped orders',
  'days since the last order',
];

/** The shop of the translator's tests, with a quantity and the values the questions name. */
const schema: SchemaContext = {
  ...shopSchema,
  tables: shopSchema.tables.map((table) => {
    const columns = table.columns.map((c) =>
      c.kind === 'text' ? { ...c, values: [...c.values, ...(table.name === 'orders' ? ['lost'] : ['Malmö'])] } : c,
    );
    if (table.name === 'orders') columns.push({ name: 'quantity', type: 'INTEGER', kind: 'number', values: [] });
    return { ...table, columns };
  }),
};

/** Checks each statement in Trino's spelling; the failures, each with the statement. */
function failures(statements: string[]): string[] {
  return statements.flatMap((sql) => {
    const trinoSql = toTrinoSpelling(sql);
    const { syntax, unknownFunctions } = checkTrinoStatement(trinoSql);
    const problems = [...syntax, ...unknownFunctions.map((f) => `function not in Trino's list: ${f}`)];
    return problems.length > 0 ? [`${problems.join('; ')}\n  ${trinoSql}`] : [];
  });
}

describe("statements the service generates, in Trino's spelling, pass Trino's grammar and function list", () => {
  let parser: SqlParser;
  const nlStatements: string[] = [];
  /** The test SQL the service sends on (what its SELECT check refuses never reaches Trino). */
  const sqlAccepted: string[] = [];
  beforeAll(async () => {
    parser = await SqlParser.create();
    for (const sql of sqlStatements)
      if (
        await parser.parse(sql).then(
          () => true,
          () => false,
        )
      )
        sqlAccepted.push(sql);
    const translator = new EmbeddedTranslator();
    for (const question of questions) {
      try {
        const { sql } = await translator.translate(question, schema, async (s) => void (await parser.parse(s)));
        nlStatements.push(sql);
      } catch (error) {
        if (!(error instanceof NotUnderstood)) throw error;
      }
    }
    for (const table of schema.tables)
      nlStatements.push(
        valueSampleSql(
          table,
          table.columns.filter((c) => c.kind === 'text'),
        ),
      );
  });
  afterAll(() => parser.close());

  it.each([
    ['SPARQL', () => sparqlStatements, 100],
    ['SQL', () => sqlAccepted, 10],
    ['natural language', () => nlStatements, 20],
  ] as const)(
    '%s',
    (kind, statements, atLeast) => {
      const all = statements();
      const failed = failures(all);
      console.info(`[measure] ${kind}: ${all.length} statements in Trino mode, ${all.length - failed.length} pass`);
      expect(all.length).toBeGreaterThanOrEqual(atLeast);
      expect(failed).toEqual([]);
    },
    300_000,
  );
});

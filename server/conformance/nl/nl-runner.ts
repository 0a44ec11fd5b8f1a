import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { NotUnderstood } from '../../src/core/domain-errors.js';
import { NaturalLanguageService } from '../../src/query/nl/natural-language-service.js';
import { loadNlSettings } from '../../src/query/nl/nl-settings.js';
import { QueryService } from '../../src/query/query-service.js';
import { loadQuerySetup } from '../../src/query/sources.js';
import { readSuite, type SuiteDatabase, type SuiteQuestion } from './nl-suite.js';
import { expandDefogGold, sameResult } from './result-match.js';
import { duckdbDialect, loadDump, rewriteToChar, type LoadedDump } from './suite-database.js';

export type Verdict = 'correct' | 'wrong' | 'refused' | 'error' | 'gold-failed';

export interface QuestionOutcome {
  item: SuiteQuestion;
  verdict: Verdict;
  sql?: string;
  detail?: string;
  /** Translate, run and compare. */
  ms: number;
  /** Translation alone (the statement not run), undefined when the translator refused. */
  translateMs?: number;
}

/** The translator's own time for `question`: the SQL built and not run. */
async function translationTime(nl: NaturalLanguageService, question: string): Promise<number | undefined> {
  const schema = await nl.schemaContext();
  const started = performance.now();
  try {
    await nl.translator.translate(question, schema, async () => undefined);
    return performance.now() - started;
  } catch {
    return undefined;
  }
}

/** The sources.yaml of one suite database: one DuckDB source over the dump's schema, and its foreign keys as
 * relationships. */
function sourcesYaml(db: string, file: string, { keys, schema }: LoadedDump, synonymsFile?: string): string {
  const relationships = keys
    .map((k) => `    - from: ${db}.${k.table}.${k.column}\n      to: ${db}.${k.refTable}.${k.refColumn}`)
    .join('\n');
  const synonyms = synonymsFile
    ? fs
        .readFileSync(synonymsFile, 'utf8')
        .split('\n')
        .map((line) => `    ${line}`)
    : [];
  return [
    'sources:',
    `  - name: ${db}`,
    '    type: relational',
    '    connector: duckdb',
    `    path: ${JSON.stringify(file)}`,
    `    schema: ${schema}`,
    ...(keys.length || synonyms.length ? ['natural_language:'] : []),
    ...(keys.length ? ['  relationships:', relationships] : []),
    ...(synonyms.length ? ['  synonyms:', ...synonyms] : []),
    '',
  ].join('\n');
}

/** Rows of the first gold variant that runs; undefined when none runs in DuckDB. */
async function goldRows(connection: DuckDBConnection, item: SuiteQuestion): Promise<unknown[][] | undefined> {
  if (item.goldRows) return item.goldRows;
  for (const query of expandDefogGold(item.goldQueries[0])) {
    try {
      const reader = await connection.runAndReadAll(rewriteToChar(duckdbDialect(query)));
      return reader.getRowsJson() as unknown[][];
    } catch {
      // The next variant, if any.
    }
  }
  return undefined;
}

/** Whether any gold variant gives the generated rows (defog lists alternatives). */
async function matchesGold(
  connection: DuckDBConnection,
  item: SuiteQuestion,
  rows: unknown[][],
): Promise<boolean | undefined> {
  if (item.goldRows) return sameResult(item.goldRows, rows, true);
  let ran = false;
  for (const query of expandDefogGold(item.goldQueries[0])) {
    try {
      const reader = await connection.runAndReadAll(rewriteToChar(duckdbDialect(query)));
      ran = true;
      if (sameResult(reader.getRowsJson() as unknown[][], rows, false)) return true;
    } catch {
      // A variant that does not run in DuckDB.
    }
  }
  return ran ? false : undefined;
}

/** A suite database loaded and served: the natural-language service over it, and its DuckDB file. */
export interface ServedDatabase {
  nl: NaturalLanguageService;
  file: string;
  close(): Promise<void>;
}

/** Loads `database`'s dump into a DuckDB file under `workDir` and serves it as one source, as a workspace would. */
export async function serveSuiteDatabase(database: SuiteDatabase, workDir: string): Promise<ServedDatabase> {
  const file = path.join(workDir, `${database.set}_${database.name}.duckdb`);
  const dump = await loadDump(database.dump, file);
  const yamlFile = path.join(workDir, `${database.set}_${database.name}.yaml`);
  fs.writeFileSync(yamlFile, sourcesYaml(database.name, file, dump, database.synonyms));
  const service = await QueryService.create(loadQuerySetup(yamlFile), path.join(workDir, `data_${database.name}`), {
    error: () => undefined,
  });
  return { nl: new NaturalLanguageService(service, loadNlSettings(yamlFile)), file, close: () => service.close() };
}

/** Asks every question of one database through the natural-language service and judges the results. */
async function runDatabase(
  database: SuiteDatabase,
  items: SuiteQuestion[],
  workDir: string,
): Promise<QuestionOutcome[]> {
  const { nl, file, close } = await serveSuiteDatabase(database, workDir);
  const gold = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await gold.connect();
  const outcomes: QuestionOutcome[] = [];
  try {
    await nl.schemaContext();
    for (const item of items) {
      const translateMs = await translationTime(nl, item.question);
      const started = performance.now();
      try {
        const { generated_query, outcome } = await nl.ask(item.question);
        const ms = performance.now() - started;
        const rows = outcome.rows.map((row) => outcome.columns.map((c) => row[c.name]));
        const match = await matchesGold(connection, item, rows);
        outcomes.push({
          item,
          verdict: match === undefined ? 'gold-failed' : match ? 'correct' : 'wrong',
          sql: generated_query,
          ms,
          translateMs,
        });
      } catch (error) {
        const ms = performance.now() - started;
        const refused = error instanceof NotUnderstood;
        const goldRuns = (await goldRows(connection, item)) !== undefined;
        outcomes.push({
          item,
          verdict: !goldRuns ? 'gold-failed' : refused ? 'refused' : 'error',
          detail: (error as Error).message,
          ms,
        });
      }
    }
  } finally {
    connection.closeSync();
    gold.closeSync();
    await close();
  }
  return outcomes;
}

/** Runs the nl2sql suites under `dir` (databases filtered by `only`, a substring of `set/db`). */
export async function runNlSuite(
  dir: string,
  options: { only?: string; onOutcome?: (o: QuestionOutcome) => void } = {},
): Promise<QuestionOutcome[]> {
  const { databases, questions } = readSuite(dir);
  if (databases.length === 0)
    throw new Error(`no spider_dev_subset or defog_sql_eval folder under ${dir}, nor questions.json and a dump in it`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-nl-conformance-'));
  const outcomes: QuestionOutcome[] = [];
  try {
    for (const database of databases) {
      if (options.only && !`${database.set}/${database.name}`.includes(options.only)) continue;
      const items = questions.filter((q) => q.set === database.set && q.db === database.name);
      if (items.length === 0) continue;
      for (const outcome of await runDatabase(database, items, workDir)) {
        outcomes.push(outcome);
        options.onOutcome?.(outcome);
      }
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  return outcomes;
}

const percent = (part: number, whole: number): string => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

/** One line of counts: execution accuracy and wrong answers over the questions whose gold query runs. */
function summaryLine(label: string, outcomes: QuestionOutcome[]): string {
  const count = (v: Verdict) => outcomes.filter((o) => o.verdict === v).length;
  const judged = outcomes.length - count('gold-failed');
  const wrong = count('wrong') + count('error');
  return (
    `${label.padEnd(34)} ${String(outcomes.length).padStart(4)} questions  accuracy ` +
    `${percent(count('correct'), judged).padStart(6)}  ` +
    (`wrong ${percent(wrong, judged).padStart(6)}  422 ${percent(count('refused'), judged).padStart(6)}  ` +
      (`(correct ${count('correct')}, wrong ${count('wrong')}, error ${count('error')}, refused ` +
        `${count('refused')}, gold not runnable ${count('gold-failed')})`))
  );
}

/** "median x ms, p95 y ms" of some durations. */
function medianAndP95(values: number[]): string {
  if (values.length === 0) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return (
    `median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} ms, p95 ` +
    `${sorted[Math.floor(sorted.length * 0.95)].toFixed(2)} ms`
  );
}

/** Prints accuracy per set and per category, the share answered 422, and the time per question. */
export function printNlReport(outcomes: QuestionOutcome[]): void {
  const titles = { spider: 'Spider dev subset', defog: 'defog sql-eval', own: 'own question set' } as const;
  for (const set of ['spider', 'defog', 'own'] as const) {
    const ofSet = outcomes.filter((o) => o.item.set === set);
    if (ofSet.length === 0) continue;
    console.log(summaryLine(titles[set], ofSet));
    for (const category of [...new Set(ofSet.map((o) => o.item.category))].sort())
      console.log(
        summaryLine(
          `  ${category}`,
          ofSet.filter((o) => o.item.category === category),
        ),
      );
    console.log(`  time per question (translate + run): ${medianAndP95(ofSet.map((o) => o.ms))}`);
    console.log(
      `  translation alone (questions translated): ` +
        `${medianAndP95(ofSet.flatMap((o) => (o.translateMs === undefined ? [] : [o.translateMs])))}`,
    );
  }
}

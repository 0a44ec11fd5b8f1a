#!/usr/bin/env node
// Natural-language benchmark (issue 9). Run after `npm run build`:
//   node bench/query-nl.mjs            (ROUNDS=200 by default)
// Over the example workspace (query/): the time to build the schema context (tables, sampled values),
// the embedded translator's time per question (translation only, the SQL checked by the parser), and
// the time of a whole answer (translate + run through the engine + answer sentence), as medians and p95.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (module) => import(path.join(root, 'server/dist/src/query', module));
const { loadQuerySetup } = await dist('sources.js');
const { QueryService } = await dist('query-service.js');
const { NaturalLanguageService } = await dist('nl/natural-language-service.js');
const { loadNlSettings } = await dist('nl/nl-settings.js');
const { EmbeddedTranslator } = await dist('nl/embedded-translator.js');
const { SqlParser } = await dist('engine/sql-parser.js');

const rounds = Number(process.env.ROUNDS ?? 200);
const questions = [
  'How many customers are there?',
  'How many customers are in Europe?',
  'What is the average order amount by region?',
  'Total revenue per product category',
  'top 5 products by price',
  'How many orders over 100?',
  'orders with quantity at least 4',
  'How many customers signed up in 2023?',
  'shipped orders in March 2024',
  'Which product has the highest price?',
  'average rating by category',
  'number of clicks for each action',
  'top 3 customers by revenue',
  'count of orders where status is refunded',
  'how many unicorns are there',
];

const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-nl-bench-'));
const sourcesFile = path.join(root, 'query/sources.yaml');
const service = await QueryService.create(loadQuerySetup(sourcesFile), dataDir, { error: () => undefined });
const nl = new NaturalLanguageService(service, loadNlSettings(sourcesFile));
const parser = await SqlParser.create();
try {
  let started = performance.now();
  const schema = await nl.schemaContext();
  console.log(
    `schema context (${schema.tables.length} tables, sampled values, ${schema.relationships.length} ` +
      `relationships): ${fmt(performance.now() - started)}`,
  );

  const translator = new EmbeddedTranslator();
  const check = async (sql) => void (await parser.parse(sql));
  const translateTimes = [];
  const parseFree = [];
  let refused = 0;
  for (let round = 0; round < rounds; round++) {
    for (const question of questions) {
      started = performance.now();
      try {
        await translator.translate(question, schema, async () => undefined);
      } catch {
        if (round === 0) refused++;
      }
      parseFree.push(performance.now() - started);
      started = performance.now();
      await translator.translate(question, schema, check).catch(() => undefined);
      translateTimes.push(performance.now() - started);
    }
  }
  console.log(
    `embedded translation per question (${questions.length} questions x ${rounds} rounds, ${refused} refused ` +
      `with 422):`,
  );
  console.log(
    `  translate only:            median ${fmt(quantile(parseFree, 0.5))}, p95 ${fmt(quantile(parseFree, 0.95))}`,
  );
  console.log(
    `  translate + parser check:  median ${fmt(quantile(translateTimes, 0.5))}, p95 ` +
      `${fmt(quantile(translateTimes, 0.95))}`,
  );

  const answerTimes = [];
  for (let round = 0; round < Math.max(1, Math.floor(rounds / 20)); round++) {
    for (const question of questions) {
      started = performance.now();
      await nl.ask(question).catch(() => undefined);
      answerTimes.push(performance.now() - started);
    }
  }
  console.log(
    `  whole answer (translate + run + sentence): median ${fmt(quantile(answerTimes, 0.5))}, p95 ` +
      `${fmt(quantile(answerTimes, 0.95))}`,
  );
} finally {
  parser.close();
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

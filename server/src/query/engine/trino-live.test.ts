import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceCatalog } from '../source-catalog.js';
import { setupFromText } from '../test-support/query-fixtures.js';
import { SqlParser } from './sql-parser.js';
import { TrinoEngine } from './trino-engine.js';

/**
 * Opt-in: with TRINO_URL set (e.g. `TRINO_URL=http://127.0.0.1:8080 npx vitest run
 * server/src/query/engine/trino-live.test.ts` beside `docker run -p 8080:8080 trinodb/trino`), the dialect
 * layer's respellings run on a real Trino and must give DuckDB's answers. Without it the suite is skipped.
 */
const trinoUrl = process.env.TRINO_URL;
if (!trinoUrl) console.info('trino-live.test.ts: skipped, TRINO_URL is not set (no Trino runs here)');

describe.skipIf(!trinoUrl)('the dialect layer against a real Trino (TRINO_URL)', () => {
  let parser: SqlParser;
  let engine: TrinoEngine;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-trino-live-'));
  beforeAll(async () => {
    parser = await SqlParser.create();
    const setup = setupFromText(dir, `engine: trino\ntrino: { server: "${trinoUrl}", user: workbench }\nsources: []\n`);
    engine = new TrinoEngine(new SourceCatalog(setup.sources), parser, setup.trino!, setup.limits);
  });
  afterAll(() => {
    parser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const value = async (sql: string): Promise<unknown> => {
    const result = await engine.run(sql, { maxRows: 10, timeoutMs: 60_000 });
    return Object.values(result.rows[0])[0];
  };

  it.each([
    ["SELECT dayofweek(DATE '2024-03-03')", 0],
    ["SELECT dayofweek(DATE '2024-03-09')", 6],
    ['SELECT avg(x) FROM (VALUES (CAST(1.00 AS DECIMAL(10,2))), (2.00), (2.00)) v(x)', 5 / 3],
    ['SELECT 7 / 2', 3.5],
    ["SELECT contains('Malmö', 'lm')", true],
    ["SELECT strftime(TIMESTAMP '2024-03-01 10:11:12', '%Y-%m-%dT%H:%M:%S')", '2024-03-01T10:11:12'],
    ['SELECT arg_max(v, struct_pack(t := k, n := v)) FROM (VALUES (1, 10), (2, 5), (2, 7)) x(k, v)', 7],
    // A SPARQL path's recursion (UNION ALL, a DISTINCT step) round a cycle, deeper than Trino's default bound of 10.
    [
      'WITH RECURSIVE e(a, b) AS (VALUES (1, 2), (2, 3), (3, 1)), r(a, b, d) AS (SELECT a, b, 1 FROM e UNION ALL ' +
        'SELECT DISTINCT x.a, y.b, x.d + 1 FROM r x JOIN e y ON x.b = y.a WHERE x.d <= 12) ' +
        'SELECT count(*) FROM (SELECT DISTINCT a, b FROM r) p',
      9,
    ],
  ])('%s gives what DuckDB gives', async (sql, expected) => {
    const got = await value(sql);
    if (typeof expected === 'number') expect(Number(got)).toBeCloseTo(expected, 12);
    else expect(got).toBe(expected);
  });
});

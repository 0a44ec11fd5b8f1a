import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfigFile } from '../../core/config-file.js';
import { Deadline } from '../deadline.js';
import { DuckDBEngine } from '../engine/duckdb-engine.js';
import { SqlParser } from '../engine/sql-parser.js';
import { SourceCatalog } from '../source-catalog.js';
import { querySetupOf, type QuerySetup } from '../sources.js';

/** Service URLs of the machine's test services, overridable by environment variables. */
export const serviceUrls = {
  postgres: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432',
  mysql: process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
  redis: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  nats: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
};

/** The repository's example workspace `query/` folder. */
export const exampleQueryDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../query');

/** A unique lower-case name for databases, keys and streams of one test run. */
export const uniqueName = (prefix: string): string =>
  `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

/** A temporary folder holding a copy of the example `query/` folder. */
export function copyExampleWorkspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-query-ws-'));
  fs.cpSync(exampleQueryDir, path.join(dir, 'query'), { recursive: true });
  return dir;
}

/** Reads sources.yaml text written into `dir` (relative paths resolve against it). */
export function setupFromText(dir: string, yaml: string, env: Record<string, string> = {}): QuerySetup {
  const file = path.join(dir, `sources-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, yaml);
  return querySetupOf(readConfigFile(file, env)!);
}

/** A DuckDB engine over `setup`, with a `close()` that releases everything. */
export async function engineFor(
  setup: QuerySetup,
): Promise<{ engine: DuckDBEngine; catalog: SourceCatalog; close(): Promise<void> }> {
  const catalog = new SourceCatalog(setup.sources);
  const parser = await SqlParser.create();
  const engine = new DuckDBEngine(catalog, parser, setup.limits);
  return {
    engine,
    catalog,
    close: async () => {
      await catalog.close();
      parser.close();
    },
  };
}

/** A query that keeps DuckDB busy for a long time (ten billion row pairs), to test timeouts and cancels. */
export const slowQuery = 'SELECT sum(a.range * b.range) FROM range(100000) a, range(100000) b';

/** A deadline for calling a connector directly in a test: generous, so only a hang trips it. */
export const testDeadline = (): Deadline => Deadline.of(AbortSignal.timeout(10_000));

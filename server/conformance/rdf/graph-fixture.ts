import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { querySetupOf } from '../../src/query/sources.js';
import { readConfigFile } from '../../src/core/config-file.js';
import { QueryService } from '../../src/query/query-service.js';
import { SparqlService } from '../../src/query/sparql/sparql-service.js';
import type { MappingOptions } from '../../src/query/sparql/r2rml.js';

/** A SPARQL service over one DuckDB database file built from SQL: for tests and conformance runs. */
export interface GraphFixture {
  sparql: SparqlService;
  queries: QueryService;
  dir: string;
  close(): Promise<void>;
}

const silentLog = { error: () => {} };

/**
 * Creates a database file from `statements` as source `source`, writes `mapping` and `ontology`
 * next to its sources.yaml and opens a SPARQL service on them. Unqualified rr:tableName values
 * are read from `source`.
 */
export async function openGraphFixture(
  statements: string[],
  mapping: string,
  ontology = '',
  source = 'db',
  options: MappingOptions = {},
): Promise<GraphFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-sparql-'));
  const file = path.join(dir, 'data.duckdb');
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    for (const statement of statements) await connection.run(statement);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  fs.writeFileSync(
    path.join(dir, 'sources.yaml'),
    `engine: duckdb\nlimits:\n  max_query_length: 10000000\nsources:\n  - name: ${source}\n    type: ` +
      `relational\n    description: test data\n    connector: duckdb\n    path: data.duckdb\n`,
  );
  fs.writeFileSync(path.join(dir, 'mapping.ttl'), mapping);
  fs.writeFileSync(path.join(dir, 'ontology.ttl'), ontology);
  const setup = querySetupOf(readConfigFile(path.join(dir, 'sources.yaml'))!);
  const queries = await QueryService.create(setup, path.join(dir, 'jobs'), silentLog);
  try {
    const sparql = SparqlService.fromFolder(queries, dir, { defaultSource: source, ...options });
    return {
      sparql,
      queries,
      dir,
      close: async () => {
        await queries.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await queries.close();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EmbeddedTranslator } from '../embedded-translator.js';
import type { Translation } from '../translator.js';
import { columnKind, tableKey, type Relationship, type SchemaContext, type SchemaTable } from '../schema-context.js';

/** A small in-memory database under one source name, with the embedded translator asking questions of it. */
export interface SmallDatabase {
  schema: SchemaContext;
  /**
   * Translates `question` (a tie between equally near values going to a `prefer` column) and runs the SQL: the
   * statement, its rows and the ties `prefer` settled (throws the translator's 422).
   */
  ask(question: string, prefer?: string[]): Promise<{ sql: string; rows: unknown[][]; picked?: Translation['picked'] }>;
  /** Rows of a hand-written query, to compare an answer with. */
  rows(sql: string): Promise<unknown[][]>;
  close(): void;
}

/**
 * Creates the tables of `ddl` (CREATE and INSERT statements, unqualified names) in a catalog named
 * `source`, and a schema context over them as the service builds it (columns, every distinct text
 * value as the sample, the given relationships as `table.column` pairs).
 */
export async function smallDatabase(
  source: string,
  ddl: string,
  relationships: [string, string][] = [],
): Promise<SmallDatabase> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection: DuckDBConnection = await instance.connect();
  await connection.run(`ATTACH ':memory:' AS ${source}; USE ${source}; ${ddl}`);
  // Plain JS values, with BIGINT counts as numbers so tests compare them with number literals.
  const read = async (sql: string): Promise<unknown[][]> =>
    (await connection.runAndReadAll(sql))
      .getRowsJS()
      .map((row) => row.map((value) => (typeof value === 'bigint' ? Number(value) : value)));
  const tables: SchemaTable[] = [];
  for (const [name] of await read(
    `SELECT table_name FROM information_schema.tables WHERE table_catalog = '${source}' ORDER BY table_name`,
  )) {
    const columns = await read(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = '${source}' AND ` +
        `table_name = '${String(name)}' ORDER BY ordinal_position`,
    );
    const table: SchemaTable = { source, name: String(name), key: tableKey(source, String(name)), columns: [] };
    for (const [column, type] of columns) {
      const kind = columnKind(String(type));
      const values =
        kind === 'text'
          ? (
              await read(
                `SELECT DISTINCT "${String(column)}" FROM "${String(name)}" WHERE "${String(column)}" IS NOT NULL`,
              )
            ).map((r) => String(r[0]))
          : [];
      table.columns.push({ name: String(column), type: String(type), kind, values });
    }
    tables.push(table);
  }
  const side = (ref: string): { table: string; column: string } => {
    const [table, column] = ref.split('.');
    return { table: tableKey(source, table), column };
  };
  const schema: SchemaContext = {
    tables,
    relationships: relationships.map(([from, to]): Relationship => ({ from: side(from), to: side(to) })),
    synonyms: [],
  };
  const translator = new EmbeddedTranslator();
  return {
    schema,
    rows: read,
    async ask(question, prefer) {
      const check = async (candidate: string): Promise<void> => void (await read(candidate));
      const { sql, picked } = await translator.translate(question, schema, check, undefined, { prefer });
      return { sql, rows: await read(sql), picked };
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

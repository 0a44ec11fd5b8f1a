import { DuckDBInstance } from '@duckdb/node-api';
import { QueryRejected } from '../../core/domain-errors.js';
import { charOffset, lineAndColumn } from '../../core/text-position.js';
import type { FunctionKinds } from './aggregate-pushdown.js';
import { refuseServerIntrospection } from './introspection-guard.js';
import { sqlLiteral } from '../../core/sql-text.js';

interface SerializedSql {
  error: boolean;
  error_type?: string;
  error_message?: string;
  position?: string;
  statements?: { node: unknown }[];
}

/**
 * Parses SQL with DuckDB's own parser (`json_serialize_sql`), which serialises SELECT statements only:
 * anything else (COPY, ATTACH, INSTALL, SET, PRAGMA, DDL, DML) fails to serialise and is refused here,
 * before any data is touched. One parser instance serves every query; it holds no data.
 */
export class SqlParser {
  private constructor(
    private readonly instance: DuckDBInstance,
    /** Aggregate, volatile and macro function names of this DuckDB, to read the trees it parses. */
    readonly functions: FunctionKinds,
  ) {}

  static async create(): Promise<SqlParser> {
    const instance = await DuckDBInstance.create(':memory:', {
      enable_external_access: 'false',
      autoinstall_known_extensions: 'false',
    });
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        `SELECT DISTINCT lower(function_name), function_type = 'aggregate' FROM duckdb_functions() WHERE ` +
          `function_type IN ('aggregate', 'macro') OR stability = 'VOLATILE'`,
      );
      const rows = reader.getRows() as [string, boolean][];
      return new SqlParser(instance, {
        aggregates: new Set(rows.filter(([, aggregate]) => aggregate).map(([name]) => name)),
        unsafe: new Set(rows.filter(([, aggregate]) => !aggregate).map(([name]) => name)),
      });
    } finally {
      connection.closeSync();
    }
  }

  /**
   * Returns the syntax tree (DuckDB's JSON form) of the one SELECT statement in `sql`; throws
   * {@link QueryRejected} with the position of a syntax error, or naming what is not allowed.
   */
  async parse(sql: string): Promise<unknown> {
    if (sql.includes('\0')) throw new QueryRejected('The query contains a NUL character');
    if (sql.trim() === '') throw new QueryRejected('The query is empty');
    const connection = await this.instance.connect();
    let serialized: SerializedSql;
    try {
      const reader = await connection.runAndReadAll(`SELECT json_serialize_sql(${sqlLiteral(sql)})`);
      serialized = JSON.parse(String(reader.getRows()[0][0])) as SerializedSql;
    } finally {
      connection.closeSync();
    }
    if (serialized.error) {
      const message = serialized.error_message ?? 'the query could not be parsed';
      if (serialized.error_type === 'parser') {
        const offset = charOffset(sql, Number(serialized.position ?? 0));
        const { line, column } = lineAndColumn(sql, offset);
        throw new QueryRejected(`Syntax error at line ${line}, column ${column}: ${message}`, {
          position: offset,
          line,
          column,
        });
      }
      if (/Only SELECT statements/i.test(message))
        throw new QueryRejected('Only SELECT queries are allowed (no COPY, ATTACH, INSTALL, SET, PRAGMA, DDL or DML)');
      throw new QueryRejected(message);
    }
    const statements = serialized.statements ?? [];
    if (statements.length !== 1)
      throw new QueryRejected(`Send exactly one SELECT statement; the query holds ${statements.length}`);
    refuseServerIntrospection(statements[0].node);
    return statements[0].node;
  }

  close(): void {
    this.instance.closeSync();
  }
}

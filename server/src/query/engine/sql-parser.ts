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
 * A statement `EXPLAIN [ANALYZE] <select>`: whether it is analysed (run, with timings and rows), and the SELECT with
 * the keywords blanked, so every place in it is where it is in the text sent.
 */
export interface Explained {
  analyze: boolean;
  statement: string;
}

/** Leading blanks and comments, then EXPLAIN and maybe ANALYZE as words of their own. */
const explainKeywords = /^(?:\s|--[^\n]*|\/\*[\s\S]*?\*\/)*EXPLAIN(\s+ANALYZE)?(?![\w$])/i;

/** The EXPLAIN of `sql`, when it starts so. */
export function explainOf(sql: string): Explained | undefined {
  const match = explainKeywords.exec(sql);
  if (!match) return undefined;
  const blanked = match[0].replace(/[^\n]/g, ' ');
  return { analyze: match[1] !== undefined, statement: blanked + sql.slice(match[0].length) };
}

/** The SQL DuckDB runs for `explained`: its plan (or its profile, analysed) as one JSON value. */
export function explainSql({ analyze, statement }: Explained): string {
  return `EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT json) ${statement}`;
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

  /**
   * {@link parse}, also taking `EXPLAIN` or `EXPLAIN ANALYZE` of one SELECT: the SELECT's tree, and the EXPLAIN when
   * there is one. An EXPLAIN of anything else is refused as such.
   */
  async parseQuery(sql: string): Promise<{ ast: unknown; explain?: Explained }> {
    const explain = explainOf(sql);
    if (!explain) return { ast: await this.parse(sql) };
    try {
      return { ast: await this.parse(explain.statement), explain };
    } catch (error) {
      if (error instanceof QueryRejected && /^(Only SELECT|Send exactly one)/.test(error.message))
        throw new QueryRejected(`EXPLAIN and EXPLAIN ANALYZE are allowed for one SELECT only: ${error.message}`);
      throw error;
    }
  }

  close(): void {
    this.instance.closeSync();
  }
}

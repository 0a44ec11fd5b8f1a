/**
 * SQL text quoting, the one place the server writes user-controlled names and values into SQL.
 * Every generated statement (connector pushdown, SPARQL and natural-language translation, the
 * scratch DuckDB) goes through these two functions.
 */

/** The identifier quote of each SQL dialect the server writes: ANSI double quotes, or MySQL backticks. */
export type SqlDialect = 'ansi' | 'mysql';

/** A string literal: `O'Brien` -> `'O''Brien'`. */
export const sqlLiteral = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** A quoted identifier: `order` -> `"order"` (or `` `order` `` for MySQL); quote characters are doubled. */
export function sqlIdent(name: string, dialect: SqlDialect = 'ansi'): string {
  return dialect === 'mysql' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}

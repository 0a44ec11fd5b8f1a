import fs from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

/** A foreign key found in a dump's DDL. */
export interface DumpForeignKey {
  table: string;
  column: string;
  refTable: string;
  refColumn: string;
}

const identifier = String.raw`(?:[\w"\x60]+\.)?["\x60]?(\w+)["\x60]?`;
const tableBlock = new RegExp(String.raw`CREATE TABLE (?:IF NOT EXISTS )?${identifier}\s*\(([\s\S]*?)\n\s*\);`, 'gi');
const tableForeignKey = new RegExp(
  String.raw`FOREIGN KEY\s*\(\s*${identifier}\s*\)\s*REFERENCES\s*${identifier}\s*\(\s*${identifier}\s*\)`,
  'gi',
);
const inlineReference = new RegExp(
  String.raw`^\s*${identifier}\s+[^,\n]*?REFERENCES\s+${identifier}\s*\(\s*${identifier}\s*\)`,
  'gim',
);

/** The foreign keys declared in the CREATE TABLE statements of a SQL dump (table constraints and inline REFERENCES). */
export function foreignKeysOf(sql: string): DumpForeignKey[] {
  const found: DumpForeignKey[] = [];
  for (const [, table, body] of sql.matchAll(tableBlock)) {
    for (const [, column, refTable, refColumn] of body.matchAll(tableForeignKey))
      found.push({ table, column, refTable, refColumn });
    for (const [, column, refTable, refColumn] of body.matchAll(inlineReference))
      if (column.toUpperCase() !== 'FOREIGN') found.push({ table, column, refTable, refColumn });
  }
  return found;
}

/**
 * A dump rewritten so DuckDB loads it: no transaction or PRAGMA lines, no `public.` schema, SERIAL as
 * INTEGER, SQLite's `bool` as VARCHAR (Spider stores 'T'/'F'), backticks as double quotes, and foreign
 * key clauses removed (the suites' keys do not always match in type; they are kept as relationships instead).
 */
export function duckdbDialect(sql: string): string {
  return sql
    .replace(/^(PRAGMA|BEGIN TRANSACTION|COMMIT)[^\n]*$/gim, '')
    .replace(/\bpublic\./g, '')
    .replace(/\bSERIAL\b/gi, 'INTEGER')
    .replace(/(\s)bool\b/gi, '$1VARCHAR')
    .replace(/`/g, '"')
    .replace(
      new RegExp(
        String.raw`,\s*(CONSTRAINT\s+\w+\s+)?FOREIGN KEY\s*\([^)]*\)\s*REFERENCES\s*[\w."]+\s*\([^)]*\)` +
          String.raw`(\s*ON (DELETE|UPDATE) \w+( \w+)?)*`,
        'gi',
      ),
      '',
    )
    .replace(/\s+REFERENCES\s+[\w."]+\s*\([^)]*\)(\s*ON (DELETE|UPDATE) \w+( \w+)?)*/gi, '');
}

/** Loads a suite's SQL dump into a new DuckDB database file at `file`; returns the dump's foreign keys. */
const toCharPatterns: [RegExp, string][] = [
  // MySQL-style codes that one dump passes to to_char.
  [/%i/g, '%M'],
  [/%s/g, '%S'],
  [/YYYY/g, '%Y'],
  [/HH24/g, '%H'],
  [/MI/g, '%M'],
  [/SS/g, '%S'],
  [/MM/g, '%m'],
  [/DD/g, '%d'],
];

/**
 * PostgreSQL's `to_char(value, 'format')` with a literal format, as DuckDB's strftime (DuckDB needs a
 * constant format, so a macro will not do). Only the common date patterns are mapped.
 */
export function rewriteToChar(sql: string): string {
  return sql.replace(
    /to_char\(((?:[^,()']|'[^']*'|\((?:[^()]|\([^()]*\))*\))+?),\s*'([^']*)'\)/gi,
    (_, value: string, format: string) => {
      const converted = toCharPatterns.reduce((text, [pattern, code]) => text.replace(pattern, code), format);
      return `strftime(CAST(${value} AS TIMESTAMP), '${converted}')`;
    },
  );
}

/** A dump loaded into a DuckDB file: its foreign keys, and the schema its tables are in. */
export interface LoadedDump {
  keys: DumpForeignKey[];
  schema: string;
}

/** The schema a dump creates its tables in: the one it creates (`CREATE SCHEMA x`), or `main`. */
export function dumpSchema(sql: string): string {
  return /^CREATE SCHEMA (?:IF NOT EXISTS )?"?(\w+)"?/im.exec(sql)?.[1] ?? 'main';
}

export async function loadDump(dumpFile: string, file: string): Promise<LoadedDump> {
  const sql = fs.readFileSync(dumpFile, 'utf8');
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    await connection.run(rewriteToChar(duckdbDialect(sql)));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return { keys: foreignKeysOf(sql), schema: dumpSchema(sql) };
}

import type { DuckDBResult, Json } from '@duckdb/node-api';
import { httpError } from '../../core/errors.js';
import { nextTurn } from '../../core/next-turn.js';
import { sliceBytes } from './result-slice.js';
import { ByteBudget, ValuesTooLarge, chunkReaders } from './result-values.js';
import type { ResultColumn, SqlResult } from '../../contract/index.js';

/** The bounds a result is collected under: rows always, bytes of its JSON rows when given. */
export interface ResultBounds {
  maxRows: number;
  /** Largest size of the rows as JSON (UTF-8 bytes); no bound when undefined. */
  maxBytes?: number;
}

/**
 * A JavaScript object lists keys that read as array indexes (`3`) before all others, whatever the
 * order they were added in, and a `__proto__` key is not an own key at all: neither could keep its place.
 */
function keepsItsPlace(name: string): boolean {
  if (name === '__proto__') return false;
  return !/^(0|[1-9]\d*)$/.test(name) || Number(name) >= 2 ** 32 - 1;
}

/**
 * The names a result's columns and row keys use, so that every row object lists the columns in
 * their order and under their names (docs/query.md, "Column names"): a name a JavaScript object would
 * move or drop (`3`, `__proto__`) is written with a leading underscore (`_3`), and a repeated name
 * gets `:1`, `:2`... (`SELECT 1 AS a, 2 AS a, 3` has the columns `a`, `a:1`, `_3`).
 */
export function resultColumnNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = keepsItsPlace(name) ? name : `_${name}`;
    let unique = base;
    for (let n = 1; taken.has(unique); n++) unique = `${base}:${n}`;
    taken.add(unique);
    return unique;
  });
}

/** The UTF-8 size of `row` as JSON; Infinity for a row longer than the longest string JavaScript can hold. */
function jsonBytes(row: Record<string, Json>): number {
  try {
    return Buffer.byteLength(JSON.stringify(row));
  } catch (error) {
    if (error instanceof RangeError) return Number.POSITIVE_INFINITY;
    throw error;
  }
}

/**
 * Collects a result row by row under its {@link ResultBounds}: each row is measured as JSON when it is
 * added, so the rows held never exceed the byte bound. The first row that does not fit ends the
 * result as truncated; a first row that alone is larger than the bound is a 413.
 */
export class ResultRows {
  readonly names: string[];
  readonly rows: Record<string, Json>[] = [];
  private bytes = 2;
  private reason: string | undefined;

  /** The size of the rows so far as JSON, in bytes (counted only under a byte bound). */
  get size(): number {
    return this.bytes;
  }

  constructor(
    private readonly columns: readonly { name: string; type: string }[],
    private readonly bounds: ResultBounds,
  ) {
    this.names = resultColumnNames(columns.map((c) => c.name));
  }

  /**
   * Whether another row is wanted. Call when one more row exists: at the row limit the result is then
   * marked truncated. False once the result is truncated.
   */
  wantsMore(): boolean {
    if (this.reason === undefined && this.rows.length >= this.bounds.maxRows)
      this.reason = `the row limit, limits.max_rows = ${this.bounds.maxRows}`;
    return this.reason === undefined;
  }

  /**
   * The JSON bytes the next row's values may still take (the room left under the byte bound, less the comma
   * before the row); Infinity without a byte bound. Meant for measuring values while they are converted.
   */
  get room(): number {
    return this.bounds.maxBytes === undefined ? Number.POSITIVE_INFINITY : this.bounds.maxBytes - this.bytes - 1;
  }

  /**
   * Ends the result at the byte limit because the next row does not fit: a 413 when it would have been the
   * first row, else the result is marked truncated. Returns false, as {@link add} does for such a row.
   */
  overflow(): false {
    const maxBytes = this.bounds.maxBytes ?? 0;
    if (this.rows.length === 0) throw httpError('RESULT_TOO_LARGE', [maxBytes]);
    this.reason = `the byte limit, limits.max_result_bytes = ${maxBytes}`;
    return false;
  }

  /** Adds a row of values in column order; false (and the result truncated) when it does not fit. */
  add(values: readonly Json[]): boolean {
    const row: Record<string, Json> = {};
    for (let i = 0; i < this.names.length; i++) row[this.names[i]] = values[i] ?? null;
    const { maxBytes } = this.bounds;
    if (maxBytes !== undefined) {
      // The row as the response will carry it, with the comma before it.
      const size = jsonBytes(row) + 1;
      if (this.bytes + size > maxBytes) return this.overflow();
      this.bytes += size;
    }
    this.rows.push(row);
    return true;
  }

  /**
   * The result so far, as the API shows it (`truncated_reason` names the limit that cut it), with the rows'
   * size as JSON in `bytes`, which is for the metrics and left out of the answer.
   */
  result(elapsedMs: number): SqlResult & { bytes: number } {
    const columns: ResultColumn[] = this.columns.map((c, i) => ({ name: this.names[i], type: c.type }));
    const reason = this.reason === undefined ? {} : { truncated_reason: `the result was cut at ${this.reason}` };
    return {
      columns,
      rows: this.rows,
      row_count: this.rows.length,
      truncated: this.reason !== undefined,
      ...reason,
      elapsed_ms: elapsedMs,
      bytes: this.bytes,
    };
  }
}

/**
 * Reads a streaming DuckDB result chunk by chunk, converting one row at a time under `bounds`, and
 * stops reading (the query is then stopped by closing its connection) once the result is full: the
 * server never holds more rows than the bounds allow, however large the result the SQL asks for. Each value
 * is converted from DuckDB's vectors and measured as it is (result-values.ts), so a single value larger than
 * the room left (a list of millions of items, a long string) stops the result before it is converted whole.
 * Conversion stops when `signal` aborts (the query's deadline), with its reason.
 */
export async function readDuckDBResult(
  result: DuckDBResult,
  bounds: ResultBounds,
  elapsedMs: () => number,
  signal?: AbortSignal,
): Promise<SqlResult & { bytes: number }> {
  const types = Array.from({ length: result.columnCount }, (_, i) => result.columnType(i));
  const columns = result.columnNames().map((name, i) => ({ name, type: types[i].toString() }));
  const collected = new ResultRows(columns, bounds);
  const values: Json[] = new Array<Json>(columns.length);
  let nextSlice = sliceBytes;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    try {
      const readers = chunkReaders(chunk, types);
      for (let row = 0; row < chunk.rowCount; row++) {
        if (!collected.wantsMore()) return collected.result(elapsedMs());
        const budget = new ByteBudget(collected.room);
        try {
          for (let column = 0; column < readers.length; column++) values[column] = readers[column](row, budget);
        } catch (error) {
          if (!(error instanceof ValuesTooLarge)) throw error;
          collected.overflow();
          return collected.result(elapsedMs());
        }
        if (!collected.add(values)) return collected.result(elapsedMs());
        // A chunk holds 2048 rows, which can be hundreds of megabytes of text: converting it in slices lets
        // the requests that arrive meanwhile (a SELECT 1 beside) be served between them.
        if (collected.size >= nextSlice) {
          nextSlice = collected.size + sliceBytes;
          await nextTurn();
          signal?.throwIfAborted();
        }
      }
    } finally {
      // The chunk's values live in native memory that V8 does not see, and would stay until a garbage
      // collection happened to finalise the chunk: its strings are freed as soon as they are converted.
      chunk.reset();
    }
  }
  return collected.result(elapsedMs());
}

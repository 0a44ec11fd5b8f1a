import type { JsonValue, SqlResult } from '../../../server/src/contract/index.js';

export type SortDirection = 'asc' | 'desc';

const numericTypePattern =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL)/i;

/** Whether a column of engine type `type` (`DECIMAL(18,2)`, `BIGINT`, ...) holds numbers. */
export function isNumericType(type: string): boolean {
  return numericTypePattern.test(type);
}

/** A cell as text: NULL for null, JSON for objects and arrays, the value otherwise. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A numeric value of a cell: numbers and numeric strings (big DECIMAL/BIGINT arrive as strings). */
export function numericValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && /^[-+]?\d*\.?\d+(e[-+]?\d+)?$/i.test(value.trim()))
    return Number(value);
  return undefined;
}

const isNull = (value: unknown) => value === null || value === undefined;

/** Two non-NULL cells in ascending order: numbers by value, booleans false first, the rest as text. */
function compareCells(a: unknown, b: unknown): number {
  const x = numericValue(a);
  const y = numericValue(b);
  if (x !== undefined && y !== undefined) return x - y;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return cellText(a).localeCompare(cellText(b));
}

/**
 * The rows sorted by one column (a stable copy; the input is left as it is), NULLs last in either direction, as
 * DuckDB's ORDER BY puts them.
 */
export function sortRows<T extends Record<string, unknown>>(
  rows: readonly T[],
  column: string,
  direction: SortDirection,
): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((p, q) => {
      const [a, b] = [p.row[column], q.row[column]];
      const nulls = Number(isNull(a)) - Number(isNull(b));
      return nulls || (isNull(a) ? 0 : sign * compareCells(a, b)) || p.index - q.index;
    })
    .map((entry) => entry.row);
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // Quote what would break a CSV reader, and what a spreadsheet would run as a formula.
  const guarded = /^[=+\-@\t\r]/.test(text) && numericValue(text) === undefined ? `'${text}` : text;
  return /[",\r\n]/.test(guarded) || guarded !== text ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** The result as RFC 4180 CSV with a header line; NULL is an empty field. */
export function toCsv(result: Pick<SqlResult, 'columns' | 'rows'>): string {
  const lines = [result.columns.map((c) => csvField(c.name)).join(',')];
  for (const row of result.rows) lines.push(result.columns.map((c) => csvField(row[c.name])).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** A decimal text's value as sign, significant digits and the power of ten of the last one (`-1.50` -> -, 15, -1). */
function decimalValue(text: string): string {
  const match = /^([-+]?)(\d*)(?:\.(\d*))?(?:e([-+]?\d+))?$/i.exec(text.trim());
  if (!match) return text;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = (whole + fraction).replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return '0';
  const power = Number(exponent) - fraction.length + (digits.length - significant.length);
  return `${sign === '-' ? '-' : ''}${significant}e${power}`;
}

/**
 * A numeric column's cell as JSON would best keep it: big DECIMAL/BIGINT/HUGEINT values arrive as strings
 * (a double cannot hold every one), and one becomes a JSON number when the double read from it prints as
 * the same decimal value (`"1234.50"` -> 1234.5); otherwise (`"12345678901234567891"`, `"0.1000000000000000001"`)
 * it stays a string, so no reader loses digits.
 */
export function jsonNumber(value: JsonValue): JsonValue {
  if (typeof value !== 'string') return value;
  const number = numericValue(value);
  if (number === undefined) return value;
  return decimalValue(String(number)) === decimalValue(value) ? number : value;
}

/** The result as a JSON array of row objects; numeric columns' values are numbers where {@link jsonNumber} allows. */
export function toJson(result: Pick<SqlResult, 'columns' | 'rows'>): string {
  const numeric = result.columns.filter((c) => isNumericType(c.type)).map((c) => c.name);
  const rows =
    numeric.length === 0
      ? result.rows
      : result.rows.map((row) => {
          const copy = { ...row };
          for (const name of numeric) copy[name] = jsonNumber(row[name]);
          return copy;
        });
  return JSON.stringify(rows, null, 2);
}

/** The rows as tab-separated text (what a spreadsheet pastes as cells). */
export function toTsv(result: Pick<SqlResult, 'columns' | 'rows'>): string {
  const clean = (value: unknown) =>
    value === null || value === undefined ? '' : cellText(value).replace(/[\t\r\n]+/g, ' ');
  return [
    result.columns.map((c) => c.name).join('\t'),
    ...result.rows.map((row) => result.columns.map((c) => clean(row[c.name])).join('\t')),
  ].join('\n');
}

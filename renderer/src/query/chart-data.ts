import type { SqlResult } from '../../../server/src/contract/index.js';
import { cellText, numericValue } from './result-format.js';

/** What a chart of a result draws: one label per row and one or more numeric series. */
export interface ChartData {
  labels: string[];
  series: { name: string; values: (number | null)[] }[];
  min: number;
  max: number;
}

const numericType =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL)/i;

/**
 * The chart of a result: numeric columns (by type) are the series, the first other column labels the
 * rows (the row number when there is none). At most `maxRows` rows and `maxSeries` series are drawn.
 * Undefined when no column is numeric.
 */
export function chartData(
  result: Pick<SqlResult, 'columns' | 'rows'>,
  maxRows = 500,
  maxSeries = 6,
): ChartData | undefined {
  const numeric = result.columns.filter((c) => numericType.test(c.type));
  if (numeric.length === 0) return undefined;
  const labelColumn = result.columns.find((c) => !numericType.test(c.type));
  const series = (labelColumn ? numeric : numeric.slice(1).length > 0 ? numeric.slice(1) : numeric).slice(0, maxSeries);
  const labelOf = labelColumn ?? (series === numeric ? undefined : numeric[0]);
  const rows = result.rows.slice(0, maxRows);
  const labels = rows.map((row, i) => (labelOf ? cellText(row[labelOf.name]) : String(i + 1)));
  const data = series.map((c) => ({ name: c.name, values: rows.map((row) => numericValue(row[c.name]) ?? null) }));
  const all = data.flatMap((s) => s.values).filter((v): v is number => v !== null);
  // Bars start at zero; a series entirely above or below zero still shows its axis.
  const min = Math.min(0, ...all);
  const max = Math.max(0, ...all);
  return { labels, series: data, min, max: max === min ? min + 1 : max };
}

/** Whether a question's result is a grouped aggregate worth a chart beside its rows: its SQL groups, it has several
 * rows and a numeric column. */
export function isGroupedAggregate(result: Pick<SqlResult, 'columns' | 'rows'>, sql: string): boolean {
  return /\bGROUP\s+BY\b/i.test(sql) && result.rows.length >= 2 && result.columns.some((c) => numericType.test(c.type));
}

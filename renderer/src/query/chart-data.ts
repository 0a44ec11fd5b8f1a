import type { ResultColumn, SqlResult } from '../../../server/src/contract/index.js';
import { cellText, isNumericType, numericValue } from './result-format.js';

/** The ways a result can be drawn. */
export type ChartKind = 'bar' | 'line' | 'scatter' | 'pie';

export const chartKinds: ChartKind[] = ['bar', 'line', 'scatter', 'pie'];

/** What the chart draws: the column along x (the row number when none), the numeric columns along y, and how. */
export interface ChartChoice {
  x?: string;
  y: string[];
  kind: ChartKind;
}

/** The value axis a series is read against. */
export type AxisSide = 'left' | 'right';

/** The range of one value axis, and the series drawn against it. */
export interface ValueAxis {
  min: number;
  max: number;
  series: string[];
}

/** What a chart of a result draws: one label (and, for a numeric x, one position) per row, and the series. */
export interface ChartData {
  labels: string[];
  /** The x column's numbers (scatter); undefined when x is not numeric. */
  positions?: (number | null)[];
  series: { name: string; values: (number | null)[]; axis: AxisSide }[];
  axes: { left: ValueAxis; right?: ValueAxis };
}

/** Series more than this factor apart in size go on different axes (a count of 920 beside a revenue of 256k). */
export const axisRatio = 10;

const numericColumns = (columns: readonly ResultColumn[]) => columns.filter((c) => isNumericType(c.type));

/** The largest absolute value of a series (0 when it has none). */
function magnitude(values: readonly (number | null)[]): number {
  return values.reduce<number>((m, v) => (v === null ? m : Math.max(m, Math.abs(v))), 0);
}

/** How far apart two magnitudes are, as a factor (1 when equal; Infinity against 0). */
function spread(a: number, b: number): number {
  if (a === b) return 1;
  return Math.min(a, b) === 0 ? Infinity : Math.max(a, b) / Math.min(a, b);
}

/**
 * The axis of each series: the first sets the left axis; a series within {@link axisRatio} of it shares it,
 * the first one further off sets the right axis, and any later one joins whichever axis is nearer in size.
 */
export function assignAxes(series: readonly { values: readonly (number | null)[] }[]): AxisSide[] {
  const sizes = series.map((s) => magnitude(s.values));
  let right: number | undefined;
  return sizes.map((size, i) => {
    if (i === 0 || spread(size, sizes[0]) <= axisRatio) return 'left';
    if (right === undefined) {
      right = size;
      return 'right';
    }
    return spread(size, right) < spread(size, sizes[0]) ? 'right' : 'left';
  });
}

/** The range of the values of some series; it includes zero, as bars start there. */
function axisOf(series: ChartData['series']): ValueAxis {
  const all = series.flatMap((s) => s.values).filter((v): v is number => v !== null);
  const min = Math.min(0, ...all);
  const max = Math.max(0, ...all);
  return { min, max: max === min ? min + 1 : max, series: series.map((s) => s.name) };
}

/**
 * The first choice for a result, as the chart always drew it: the first non-numeric column along x (or, with
 * only numeric columns, the first of them), the other numeric columns along y (at most `maxSeries`), as bars.
 * Undefined when no column is numeric.
 */
export function defaultChoice(result: Pick<SqlResult, 'columns'>, maxSeries = 6): ChartChoice | undefined {
  const numeric = numericColumns(result.columns);
  if (numeric.length === 0) return undefined;
  const label = result.columns.find((c) => !isNumericType(c.type)) ?? (numeric.length > 1 ? numeric[0] : undefined);
  const y = numeric.filter((c) => c !== label).slice(0, maxSeries);
  return { x: label?.name, y: y.map((c) => c.name), kind: 'bar' };
}

/** The kinds that make sense for a choice: scatter needs a numeric x, pie one series of no negative values. */
export function kindsFor(result: Pick<SqlResult, 'columns' | 'rows'>, choice: Omit<ChartChoice, 'kind'>): ChartKind[] {
  const xColumn = result.columns.find((c) => c.name === choice.x);
  const first = choice.y[0];
  const pie =
    choice.y.length === 1 &&
    result.rows.every((row) => (numericValue(row[first]) ?? 0) >= 0) &&
    result.rows.some((row) => (numericValue(row[first]) ?? 0) > 0);
  return chartKinds.filter(
    (kind) => (kind !== 'scatter' || (xColumn && isNumericType(xColumn.type))) && (kind !== 'pie' || pie),
  );
}

/** A choice that fits the result: unknown columns dropped, the kind back to bar when it no longer makes sense. */
export function fitChoice(result: Pick<SqlResult, 'columns' | 'rows'>, choice: ChartChoice): ChartChoice | undefined {
  const names = new Set(result.columns.map((c) => c.name));
  const numeric = new Set(numericColumns(result.columns).map((c) => c.name));
  const y = choice.y.filter((name) => numeric.has(name));
  if (y.length === 0) return undefined;
  const x = choice.x !== undefined && names.has(choice.x) ? choice.x : undefined;
  const kind = kindsFor(result, { x, y }).includes(choice.kind) ? choice.kind : 'bar';
  return { x, y, kind };
}

/** The key under which a chart choice is remembered: the result's column names and types. */
export function shapeKey(columns: readonly ResultColumn[]): string {
  return columns.map((c) => `${c.name}:${c.type}`).join('|');
}

/** The chart of at most `maxRows` rows of a result as `choice` says; undefined when it names no numeric column. */
export function chartData(
  result: Pick<SqlResult, 'columns' | 'rows'>,
  choice: ChartChoice,
  maxRows = 500,
): ChartData | undefined {
  const fitted = fitChoice(result, choice);
  if (!fitted) return undefined;
  const rows = result.rows.slice(0, maxRows);
  const xColumn = result.columns.find((c) => c.name === fitted.x);
  const labels = rows.map((row, i) => (xColumn ? cellText(row[xColumn.name]) : String(i + 1)));
  const positions =
    xColumn && isNumericType(xColumn.type) ? rows.map((row) => numericValue(row[xColumn.name]) ?? null) : undefined;
  const values = fitted.y.map((name) => ({ name, values: rows.map((row) => numericValue(row[name]) ?? null) }));
  const sides = assignAxes(values);
  const series = values.map((s, i) => ({ ...s, axis: sides[i] }));
  const right = series.filter((s) => s.axis === 'right');
  return {
    labels,
    positions,
    series,
    axes: { left: axisOf(series.filter((s) => s.axis === 'left')), right: right.length ? axisOf(right) : undefined },
  };
}

/**
 * Whether a question's result is a grouped aggregate worth a chart beside its rows: its SQL groups, it has several
 * rows and a numeric column.
 */
export function isGroupedAggregate(result: Pick<SqlResult, 'columns' | 'rows'>, sql: string): boolean {
  return /\bGROUP\s+BY\b/i.test(sql) && result.rows.length >= 2 && numericColumns(result.columns).length > 0;
}

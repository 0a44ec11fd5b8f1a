/** SQL over date columns: truncation to a grouping, calendar periods, days of the week, days elapsed. */
import type { Bucket } from './date-buckets.js';
import type { DateUnit } from './date-phrases.js';
import type { SchemaColumn } from './schema-context.js';

/**
 * A date column grouped by `bucket`: the day name, the column itself for days of a DATE, else the
 * first day of its unit as a DATE (a month is a date, not the instant `date_trunc` gives).
 * `column` is the SQL of the column.
 */
export function bucketSql(bucket: Bucket, column: string, type: SchemaColumn): string {
  if (bucket === 'weekday') return `dayname(${column})`;
  if (bucket === 'day' && /^DATE$/i.test(type.type)) return column;
  return `CAST(date_trunc('${bucket}', ${column}) AS DATE)`;
}

/** The first day of the calendar unit `amount` units before the current one. */
const unitStart = (unit: DateUnit, amount: number): string =>
  amount === 0
    ? `date_trunc('${unit}', current_date)`
    : `date_trunc('${unit}', current_date) - INTERVAL ${amount} ${unit.toUpperCase()}`;

/**
 * The condition "`column` lies in the `amount` whole calendar units before the current one" (the
 * current unit itself when `amount` is 0).
 */
export function calendarCondition(column: string, amount: number, unit: DateUnit): string {
  const end = amount === 0 ? `${unitStart(unit, 0)} + INTERVAL 1 ${unit.toUpperCase()}` : unitStart(unit, 0);
  return `${column} >= ${unitStart(unit, amount)} AND ${column} < ${end}`;
}

/** "`column` is within the last `amount` units" (a rolling window ending today). */
export const recentCondition = (column: string, amount: number, unit: DateUnit): string =>
  `${column} >= current_date - INTERVAL ${amount} ${unit.toUpperCase()}`;

/** "`column` falls in the calendar unit `amount` units ago" ("2 years ago": the whole of that year). */
export const agoCondition = (column: string, amount: number, unit: DateUnit): string =>
  `date_trunc('${unit}', ${column}) = date_trunc('${unit}', current_date - INTERVAL ${amount} ${unit.toUpperCase()})`;

/** "`column` (a number of a year) is the year `amount` years ago". */
export const yearsAgoCondition = (column: string, amount: number): string =>
  `${column} = year(current_date) - ${amount}`;

/** "`column` falls on one of `days` (0 Sunday ... 6 Saturday)". */
export const weekdayCondition = (column: string, days: readonly number[]): string =>
  days.length === 1 ? `dayofweek(${column}) = ${days[0]}` : `dayofweek(${column}) IN (${days.join(', ')})`;

/** Whole days from the date `latest` (an aggregate such as `max(...)`) to today. */
export const daysSince = (latest: string): string => `date_diff('day', ${latest}, current_date)`;

import { yearColumnOf, type ColumnRef } from './column-roles.js';
import type { Cue } from './cues.js';
import { namesCondition, namesColumn } from './date-names.js';
import { dayNames, monthNames, monthsOfPeriod, openEnd, openStart } from './date-phrases.js';
import { agoCondition, calendarCondition, recentCondition, weekdayCondition, yearsAgoCondition } from './date-sql.js';
import type { CueOf, PlanContext } from './plan-context.js';
import { sqlLiteral } from '../../core/sql-text.js';

/**
 * The WHERE condition of a date phrase ("in the last 30 days", "in the previous month", "2 years ago",
 * "on weekends", "in Q2 2024", "in March"); other cues are left alone.
 */
export function dateCondition(plan: PlanContext, cue: Cue): void {
  if (cue.kind === 'recent') {
    const date = dateColumn(plan, cue.at);
    plan.where.condition(
      date,
      (c) => recentCondition(c, cue.amount, cue.unit),
      `${date.column.name} is in the last ${cue.amount} ${cue.unit}(s)`,
    );
  } else if (cue.kind === 'calendar') {
    const date = dateColumn(plan, cue.at);
    const which =
      cue.amount === 0 ? `the current ${cue.unit}` : `the ${cue.amount} ${cue.unit}(s) before the current one`;
    plan.where.condition(date, (c) => calendarCondition(c, cue.amount, cue.unit), `${date.column.name} is in ${which}`);
  } else if (cue.kind === 'ago') agoFilter(plan, cue);
  else if (cue.kind === 'weekday') weekdayFilter(plan, cue.days, cue.at);
  else if (cue.kind === 'period') {
    const date = findDateColumn(plan, cue.at);
    const [from, to] = [sqlLiteral(cue.from), sqlLiteral(cue.to)];
    if (date)
      plan.where.condition(
        date,
        (c) => `${c} >= DATE ${from} AND ${c} < DATE ${to}`,
        `${date.column.name} is from ${cue.from} to before ${cue.to}`,
      );
    else monthNameFilter(plan, monthsOfPeriod(cue.from, cue.to));
  } else if (cue.kind === 'month') {
    const date = findDateColumn(plan, cue.at);
    if (date)
      plan.where.condition(date, (c) => `month(${c}) = ${cue.month}`, `${date.column.name} is in month ${cue.month}`);
    else monthNameFilter(plan, { months: [cue.month] });
  }
}

/** "in June 2021 and in December 2021" asks for two sets of rows, which one WHERE cannot say ("after X and before Y"
 * is one range). */
export function refuseTwoPeriods(plan: PlanContext): void {
  const bounded = plan.cues.filter(
    (c) => c.kind === 'month' || (c.kind === 'period' && c.from !== openStart && c.to !== openEnd),
  );
  if (bounded.length > 1)
    plan.refuse(
      'The question names two periods; ask about one period (or a range: "between June 2021 and December 2021")',
    );
}

/** "registered 2 years ago": a column holding years equals that year; a date falls in that calendar unit. */
function agoFilter(plan: PlanContext, cue: CueOf<'ago'>): void {
  const year = cue.unit === 'year' ? yearColumn(plan, cue.at) : undefined;
  if (year?.kind === 'number') {
    plan.where.condition(
      year.ref,
      (c) => yearsAgoCondition(c, cue.amount),
      `${year.ref.column.name} is ${cue.amount} year(s) ago`,
    );
    return;
  }
  const date = year?.ref ?? dateColumn(plan, cue.at);
  plan.where.condition(
    date,
    (c) => agoCondition(c, cue.amount, cue.unit),
    `${date.column.name} is ${cue.amount} ${cue.unit}(s) ago`,
  );
}

/**
 * "on weekends", "on Mondays": a column of day names in the question's tables ("Monday", as a
 * check-in's day) holds them as text; otherwise the day of the week of a date column.
 */
function weekdayFilter(plan: PlanContext, days: readonly number[], at: number): void {
  const named = linkedNamesColumn(plan, dayNames);
  if (named) {
    const { values, rhs } = namesCondition(
      named.column,
      days.map((d) => dayNames[d]),
    );
    plan.where.filter(named, rhs, `${named.column.name} is ${values.join(' or ')}`);
    return;
  }
  const date = dateColumn(plan, at);
  plan.where.condition(
    date,
    (c) => weekdayCondition(c, days),
    `${date.column.name} falls on ${days.map((d) => dayNames[d]).join(' or ')}`,
  );
}

/**
 * A month or a period of whole months over a table that stores months by name ("April") beside a year
 * column: the names, and the year when the period has one.
 */
function monthNameFilter(plan: PlanContext, period: { year?: number; months: number[] } | undefined): void {
  const named = linkedNamesColumn(plan, monthNames);
  if (!named)
    plan.refuse(
      'The question names a date or month, but none of its tables has a date column or a column of month names',
    );
  if (!period)
    plan.refuse(
      `A period that is not whole months of one year cannot be compared with ${named.column.name}, which holds ` +
        `month names`,
    );
  const { values, rhs } = namesCondition(
    named.column,
    period.months.map((m) => monthNames[m - 1]),
  );
  plan.where.filter(named, rhs, `${named.column.name} is ${values.join(' or ')}`);
  if (period.year === undefined) return;
  const year = yearColumnOf(named.table);
  if (!year)
    plan.refuse(`${named.table.name} stores months by name but has no year column to compare ${period.year} with`);
  plan.where.filter(
    { table: named.table, column: year },
    `= ${period.year}`,
    `${year.name} is ${period.year}`,
    year.kind === 'text',
  );
}

/** A column of the question's tables holding `names` (see date-names.ts); the words naming it ("in the month of") are
 * part of the filter. */
function linkedNamesColumn(plan: PlanContext, names: readonly string[]): ColumnRef | undefined {
  const named = namesColumn(plan.tables, names);
  for (const l of plan.links)
    if (named && l.chosen.kind === 'column' && l.chosen.column === named.column) plan.used.add(l);
  return named;
}

/** The column a year is about: a linked or own column holding years as numbers or text, else a date column. */
export function yearColumn(plan: PlanContext, near: number): { kind: 'date' | 'number'; ref: ColumnRef } {
  const linked = plan.links.find(
    (l) => l.chosen.kind === 'column' && /year/i.test(l.chosen.column.name) && l.chosen.column.kind !== 'date',
  );
  if (linked && linked.chosen.kind === 'column') {
    plan.used.add(linked);
    return { kind: 'number', ref: { table: linked.chosen.table, column: linked.chosen.column } };
  }
  for (const table of plan.tables) {
    const year = yearColumnOf(table);
    if (year) return { kind: 'number', ref: { table, column: year } };
  }
  return { kind: 'date', ref: dateColumn(plan, near) };
}

/**
 * The date column a date phrase at token `near` is about: a linked one, else the first of the table
 * named nearest before the phrase ("customers who made sell transactions on 2023-04-01": the
 * transaction's), else of the question's other tables. Refused when there is none.
 */
export function dateColumn(plan: PlanContext, near: number): ColumnRef {
  return (
    findDateColumn(plan, near) ??
    plan.refuse('The question names a date or year, but none of its tables has a date column')
  );
}

/** The date column of a date phrase at token `near` (see {@link dateColumn}), or undefined when the question's tables
 * have none. */
function findDateColumn(plan: PlanContext, near: number): ColumnRef | undefined {
  const linked = plan.links.find((l) => l.chosen.kind === 'column' && l.chosen.column.kind === 'date');
  if (linked && linked.chosen.kind === 'column') {
    // "predicted to graduate": every word naming the column is part of the date phrase.
    for (const l of plan.links)
      if (l.chosen.kind === 'column' && l.chosen.column === linked.chosen.column) plan.used.add(l);
    return { table: linked.chosen.table, column: linked.chosen.column };
  }
  const before = plan.links
    .filter((l) => l.end <= near)
    .reverse()
    .map((l) => l.chosen.table);
  for (const table of [...before.filter((t) => plan.tables.includes(t)), ...plan.tables]) {
    const date = table.columns.find((c) => c.kind === 'date');
    if (date) return { table, column: date };
  }
  return undefined;
}

/**
 * The columns the date groupings of the question group by, one per unit: a column named for the unit
 * in the question's tables (`year`, a `month` of names) as it is, else the date column truncated.
 */
export function bucketGroups(plan: PlanContext): ColumnRef[] {
  const refs: ColumnRef[] = [];
  for (const { bucket, at } of plan.buckets) {
    if (refs.some((r) => (r.bucket ?? r.column.name.toLowerCase()) === bucket)) continue;
    const table = plan.tables.find((t) => t.columns.some((c) => c.name.toLowerCase() === bucket && c.kind !== 'date'));
    const named = table?.columns.find((c) => c.name.toLowerCase() === bucket);
    refs.push(table && named ? { table, column: named } : { ...dateColumn(plan, at), bucket });
  }
  return refs;
}

/** "as a date" needs a date grouping to describe, "in days" / "as an integer" a count of days: refused where there is
 * none. */
export function checkFormats(plan: PlanContext, buckets: readonly ColumnRef[]): void {
  for (const cue of plan.cue('format')) {
    if (cue.as === 'date' && !buckets.some((b) => b.bucket && b.bucket !== 'weekday'))
      plan.refuse('"as a date" needs a grouping by a calendar unit ("per month") to describe');
    if (cue.as === 'days' && plan.cue('elapsed').length === 0 && !plan.dateSpan)
      plan.refuse('"in days" or "as an integer" is only read for the days since the latest date or between two dates');
  }
}

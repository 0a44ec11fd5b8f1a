import { columnSql, comparisonSql, defaultMeasure, describeComparison, type ColumnRef } from './column-roles.js';
import type { CueOf, PlanContext } from './plan-context.js';
import { yearColumn } from './plan-dates.js';
import type { SchemaColumn, SchemaTable } from './schema-context.js';
import { sqlIdent } from '../../core/sql-text.js';

type CompareCue = CueOf<'compare'>;

/**
 * The condition of a comparison ("over 100", "older than 30", "after 2013", "above the average age"),
 * or, for "more than 2 papers", the plan's count condition.
 */
export function compare(plan: PlanContext, cue: CompareCue): void {
  if (cue.average) return compareWithAverage(plan, cue);
  if (cue.implied) {
    const target =
      plan.impliedColumn(cue.implied) ??
      plan.refuse(`Could not tell which column "${plan.tokens[cue.at].text}" compares`);
    const rhs = comparisonSql(cue.op, cue.values);
    plan.where.filter(target, rhs, `${target.column.name} ${describeComparison(rhs)}`);
    return;
  }
  const compared =
    cue.values.length === 0
      ? columnThenNumber(plan, cue)
      : cue.year
        ? comparedYear(plan, cue)
        : comparedNumber(plan, cue);
  if (!compared) return;
  const { target, values } = compared;
  if (values.length > 1 && cue.op !== '=' && cue.op !== 'between')
    plan.refuse(`Cannot compare with several numbers at "${plan.tokens[cue.at].text}"`);
  // A year kept as text (Spider's "Year" columns) is compared as a number.
  const textYear = target.column.kind === 'text' && /year/i.test(target.column.name);
  if (target.column.kind !== 'number' && !textYear)
    plan.refuse(`Cannot compare ${target.column.name} (${target.column.type}) with a number`);
  if (cue.or) {
    const either = eitherSql(cue, values);
    const number = (c: string): string => (textYear ? `TRY_CAST(${c} AS INTEGER)` : c);
    plan.where.condition(target, (c) => either.sql(number(c)), `${target.column.name} ${either.description}`);
    return;
  }
  const rhs = comparisonSql(cue.op, values);
  plan.where.filter(target, rhs, `${target.column.name} ${describeComparison(rhs)}`, textYear);
}

/** "after 2013 or before 2008" over an expression: `(x > 2013 OR x < 2008)`, and its words for the answer. */
function eitherSql(cue: CompareCue, values: number[]): { sql: (expression: string) => string; description: string } {
  const bounds = [comparisonSql(cue.op, values), comparisonSql(cue.or!.op, [cue.or!.value])];
  return {
    sql: (expression) => `(${bounds.map((b) => `${expression} ${b}`).join(' OR ')})`,
    description: bounds.map(describeComparison).join(' or '),
  };
}

interface Compared {
  target: ColumnRef;
  values: number[];
}

/** "above age 20": a column, then the number. */
function columnThenNumber(plan: PlanContext, cue: CompareCue): Compared {
  const link = plan.linkAfter(cue.end);
  const number = link ? plan.tokens[link.end] : undefined;
  if (!link || link.chosen.kind !== 'column' || number?.kind !== 'number')
    plan.refuse(`Could not read the comparison at "${plan.tokens[cue.at].text}"`);
  plan.used.add(link);
  return { target: { table: link.chosen.table, column: link.chosen.column }, values: [Number(number.text)] };
}

/** "after 2013": a column of years, else the year of a date column (written here, so undefined). */
function comparedYear(plan: PlanContext, cue: CompareCue): Compared | undefined {
  const year = yearColumn(plan, cue.at);
  if (year.kind === 'number') return { target: year.ref, values: cue.values };
  const rhs = comparisonSql(cue.op, cue.values);
  const either = cue.or ? eitherSql(cue, cue.values) : undefined;
  plan.where.condition(
    year.ref,
    (c) => (either ? either.sql(`year(${c})`) : `year(${c}) ${rhs}`),
    `the year of ${year.ref.column.name} ${either?.description ?? describeComparison(rhs)}`,
  );
  return undefined;
}

/**
 * "price over 100": the number column named before, else one named right after ("over 100 pages"); "orders over
 * 100": the table's one obvious number;
 * "more than one employee": a count condition (kept in `plan.having`, so undefined).
 */
function comparedNumber(plan: PlanContext, cue: CompareCue): Compared | undefined {
  const before = plan.numberColumnBefore(cue.at);
  const after = plan.linkAfter(cue.end);
  const counted =
    after?.chosen.kind === 'table' && after.chosen.table !== before?.chosen.table ? after.chosen.table : undefined;
  if (after && counted && cue.values.length === 1 && cue.op !== 'between' && !cue.or && !plan.having) {
    plan.used.add(after);
    plan.having = { op: cue.op, value: cue.values[0], table: counted };
    plan.addTable(counted);
    return undefined;
  }
  if (after && counted) plan.refuse(`Cannot compare a count of ${counted.name} ("${plan.words(cue.at, after.end)}")`);
  if (cue.counts) plan.refuse(`Could not tell what "${plan.words(cue.at, cue.end)}" counts`);
  if (before && before.chosen.kind === 'column') {
    plan.used.add(before);
    return { target: { table: before.chosen.table, column: before.chosen.column }, values: cue.values };
  }
  // "fewer than 100000 people" (population), "more than 5000 area": the number column named right after the number.
  if (after?.start === cue.end && after.chosen.kind === 'column' && after.chosen.column.kind === 'number') {
    plan.used.add(after);
    return { target: { table: after.chosen.table, column: after.chosen.column }, values: cue.values };
  }
  const main = plan.tables[0];
  const measure = main ? defaultMeasure(main) : undefined;
  if (!main || !measure) plan.refuse(`Could not tell which number "${plan.words(cue.at, cue.end)}" compares`);
  return { target: { table: main, column: measure }, values: cue.values };
}

/** "singers above the average age": the column against its average over the whole table. */
function compareWithAverage(plan: PlanContext, cue: CompareCue): void {
  const implied = cue.implied ? plan.impliedColumn(cue.implied) : undefined;
  const after = plan.linkAfter(cue.end);
  const link = implied
    ? undefined
    : after?.chosen.kind === 'column' && after.chosen.column.kind === 'number' && !plan.used.has(after)
      ? after
      : plan.numberColumnBefore(cue.at);
  if (!implied && (!link || link.chosen.kind !== 'column'))
    plan.refuse(`Could not tell which number "${plan.tokens[cue.at].text} the average" compares`);
  if (link) plan.used.add(link);
  const { table, column } = implied ?? (link!.chosen as { table: SchemaTable; column: SchemaColumn });
  // "amount more than the average amount": the column named before is the same comparison.
  const before = plan.numberColumnBefore(cue.at);
  if (before?.chosen.kind === 'column' && before.chosen.column === column) plan.used.add(before);
  const average = `(SELECT avg(${columnSql(column)}) FROM ${sqlIdent(table.source)}.${sqlIdent(table.name)})`;
  plan.where.condition({ table, column }, (c) => `${c} ${cue.op} ${average}`, `${column.name} ${cue.op} its average`);
}

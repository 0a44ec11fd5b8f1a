import { aggregateNames, amountMeasure, isFlagColumn, type ColumnRef } from './column-roles.js';
import type { Aggregate } from './cues.js';
import { daysSince } from './date-sql.js';
import type { CueOf, PlanContext, Resolved } from './plan-context.js';
import { dateColumn } from './plan-dates.js';

/** "average", "total", "how many" ... */
export type AggregateCue = CueOf<'aggregate'>;
/** "highest", "oldest", "most" ... */
export type SuperlativeCue = CueOf<'superlative'>;

/** An aggregate of the SELECT list: `fn` over a column, shown as `name`, optionally inside `wrap` ("days since the
 * latest"). */
export interface Measure {
  fn: Aggregate;
  ref: ColumnRef;
  name: string;
  wrap?: (aggregate: string) => string;
  /** What the value is, for the answer sentence, when not "<aggregate> <column> of <table>". */
  meaning?: string;
}

/** The aggregate words that ask for an aggregate, some read as a column instead ("number of products" with a
 * Number_products column). */
export function readAggregates(plan: PlanContext): AggregateCue[] {
  const aggregates = plan.cue('aggregate');
  // "number of products" where a column is called Number_products: the column, not a count.
  const numberColumn = (a: AggregateCue): boolean => {
    const next = a.fn === 'count' ? plan.links.find((l) => l.start === a.end) : undefined;
    return (
      next?.chosen.kind === 'column' && /num/i.test(next.chosen.column.name) && next.chosen.column.kind === 'number'
    );
  };
  // ...and "maximum number of final tables" is the maximum of that number.
  const afterAggregate = (a: AggregateCue): boolean =>
    a.fn === 'count' && aggregates.some((b) => b.fn !== 'count' && b.end === a.at);
  // "the total number of citations" with a citation_num column is the sum of that column.
  return aggregates.flatMap((a) =>
    numberColumn(a) && plan.tokens[a.at].text === 'total'
      ? [{ ...a, fn: 'sum' as const }]
      : numberColumn(a) || afterAggregate(a)
        ? []
        : [a],
  );
}

/** What a question counts: the cue ("how many", or a counting superlative) and the link counted, when any. */
export interface Counting {
  countCue?: AggregateCue;
  countTarget?: Resolved;
  /** "the most common": the superlative counts the rows of each group. */
  frequency: boolean;
}

/**
 * What is counted: the table (or column) right after "how many" / "number of"; "the stadium with the
 * most concerts": a superlative right before a table counts that table.
 */
export function readCount(
  plan: PlanContext,
  aggregates: readonly AggregateCue[],
  superlative: SuperlativeCue | undefined,
): Counting {
  const frequency = superlative?.implied === 'frequency';
  // Only "most", "least" and "fewest" count: "the highest mountains" ranks them by a number.
  const counting = superlative !== undefined && ['most', 'least', 'fewest'].includes(plan.tokens[superlative.at].text);
  const mostOf =
    frequency ||
    (superlative && counting && !superlative.implied && plan.linkAfter(superlative.end)?.chosen.kind === 'table')
      ? superlative
      : undefined;
  const countCue =
    aggregates.find((a) => a.fn === 'count') ??
    (mostOf && superlative
      ? { kind: 'aggregate' as const, fn: 'count' as const, at: superlative.at, end: superlative.end }
      : undefined);
  const first =
    countCue && !(frequency && !aggregates.some((a) => a.fn === 'count')) ? plan.linkAfter(countCue.end) : undefined;
  // "how many priority shipments": a yes/no column read as an adjective is a condition (already written), and what
  // is counted is the table after it, not the column's distinct values.
  const adjective =
    first?.chosen.kind === 'column' && isFlagColumn(first.chosen.column) && plan.used.has(first)
      ? plan.linkAfter(first.end)
      : undefined;
  const countTarget = adjective?.chosen.kind === 'table' ? adjective : first;
  if (countTarget) plan.used.add(countTarget);
  return { countCue, countTarget, frequency };
}

/** What is averaged, summed or taken the maximum of, and "how long since the last ...": the days from the latest date
 * to today. */
export function readMeasures(plan: PlanContext, aggregates: readonly AggregateCue[]): Measure[] {
  const measures: Measure[] = [];
  for (const a of aggregates.filter((x) => x.fn !== 'count')) {
    const ref = measured(plan, a) ?? plan.refuse(`Could not tell which number to take the ${aggregateNames[a.fn]} of`);
    // "their average ratings ordered by the highest average rating": one aggregate, named twice.
    if (!measures.some((m) => m.fn === a.fn && m.ref.column === ref.column))
      measures.push({ fn: a.fn, ref, name: `${a.fn}_${ref.column.name}` });
  }
  for (const cue of plan.cue('elapsed')) {
    const ref = dateColumn(plan, cue.at);
    measures.push({
      fn: 'max',
      ref,
      name: `days_since_latest_${ref.column.name}`,
      wrap: daysSince,
      meaning: `days since the latest ${ref.column.name}`,
    });
  }
  return measures;
}

/**
 * What an aggregate word takes: the first number column after it (not a value already filtered on),
 * else the amount of the table right after it ("total sales": the sale price).
 */
function measured(plan: PlanContext, a: AggregateCue): ColumnRef | undefined {
  const isFilter = (l: Resolved): boolean => plan.used.has(l) && l.chosen.kind === 'value';
  const link = plan.links.find(
    (l) => l.start >= a.end && l.chosen.kind === 'column' && l.chosen.column.kind === 'number' && !isFilter(l),
  );
  if (link?.chosen.kind === 'column') {
    plan.used.add(link);
    return { table: link.chosen.table, column: link.chosen.column };
  }
  const next = plan.linkAfter(a.end);
  const amount = next?.chosen.kind === 'table' ? amountMeasure(next.chosen.table) : undefined;
  if (!next || !amount) return undefined;
  plan.used.add(next);
  return { table: next.chosen.table, column: amount };
}

/** "ordered from highest to lowest": a superlative then orders every row instead of picking one. */
export function rangeOrder(plan: PlanContext): CueOf<'direction'> | undefined {
  return plan.cue('direction').find((d) => d.range);
}

/** The column a superlative ranks by: the number column after it, or the one it implies (oldest: age). */
export function superlativeColumn(plan: PlanContext, cue: SuperlativeCue): ColumnRef | undefined {
  const unused = (l: Resolved | undefined): ColumnRef | undefined => {
    if (l?.chosen.kind !== 'column' || l.chosen.column.kind !== 'number' || plan.used.has(l)) return undefined;
    plan.used.add(l);
    return { table: l.chosen.table, column: l.chosen.column };
  };
  const range = rangeOrder(plan);
  return (
    unused(plan.linkAfter(cue.end)) ??
    // "the highest mountains, ordered from highest to lowest altitude": the column after the range.
    unused(range ? plan.linkAfter(range.end) : undefined) ??
    // "the shop whose number of products is the largest": a superlative ending the question ranks the number before it.
    unused(cue.end === plan.tokens.length ? plan.numberColumnBefore(cue.at) : undefined) ??
    (cue.implied ? plan.impliedColumn(cue.implied) : undefined) ??
    (plan.cue('aggregate').length > 0
      ? undefined
      : plan.refuse('Could not tell what "highest", "lowest", "most" or "least" compares'))
  );
}

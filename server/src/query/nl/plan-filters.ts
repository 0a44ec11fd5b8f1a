import { flagOpposite, flagSql, isFlagColumn, labelColumn, type ColumnRef } from './column-roles.js';
import { compare } from './plan-comparisons.js';
import type { PlanContext, Resolved } from './plan-context.js';
import { dateCondition, refuseTwoPeriods } from './plan-dates.js';
import { withoutBefore } from './question-reading.js';
import { fillerWords } from './question-words.js';
import type { SchemaColumn } from './schema-context.js';
import { textMatchSql, type TextMatch } from './text-match.js';
import { sqlLiteral } from '../../core/sql-text.js';

/** Turns value links, yes/no columns, text matches, numbers, comparisons and date phrases into WHERE conditions. */
export function readFilters(plan: PlanContext): void {
  refuseOrAcrossColumns(plan);
  for (const link of plan.links) if (link.chosen.kind === 'value') valueFilter(plan, link);
  flagFilters(plan);
  for (const link of plan.missing) {
    const resolved = plan.links.find((l) => l.start === link.start);
    if (resolved?.chosen.kind !== 'column') plan.refuse(`Could not tell which column has no value`);
    plan.used.add(resolved);
    plan.where.filter(
      { table: resolved.chosen.table, column: resolved.chosen.column },
      'IS NULL',
      `${resolved.chosen.column.name} is missing`,
    );
  }
  for (const match of plan.textMatches) textMatchFilter(plan, match);
  for (const { link, value } of plan.equalities) {
    const resolved = plan.links.find((l) => l.start === link.start);
    if (resolved?.chosen.kind !== 'column' || resolved.chosen.column.kind !== 'number')
      plan.refuse(`Could not tell what the number ${value} is`);
    plan.used.add(resolved);
    plan.where.filter(
      { table: resolved.chosen.table, column: resolved.chosen.column },
      `= ${value}`,
      `${resolved.chosen.column.name} is ${value}`,
    );
  }
  refuseTwoPeriods(plan);
  for (const cue of plan.cues) {
    if (cue.kind === 'compare') compare(plan, cue);
    else dateCondition(plan, cue);
  }
  presenceFilters(plan);
}

/** Words of having before an article and a column whose rows must hold a value. */
const havingWords = new Set(['have', 'has', 'had', 'with']);

/** Whether a text column holds yes/no words ("Yes", "N"): every row has a value, so presence says nothing of it. */
const holdsYesNo = (column: SchemaColumn): boolean =>
  column.kind === 'text' &&
  column.values.length > 0 &&
  column.values.every((v) => /^(yes|no|y|n|true|false)$/i.test(v));

/**
 * "students who have a minor", "members with a card", "have declared a major": a column that is not yes/no, named
 * right after a verb of having and "a"/"an" and used for nothing else, keeps the rows where it has a value (the
 * counterpart of "without a segment"). A word of the column's own name may stand before the article ("declared" of
 * `declare_major`, "registered" of `registered_card`), read with it.
 */
function presenceFilters(plan: PlanContext): void {
  for (const link of plan.links) {
    if (plan.used.has(link) || link.chosen.kind !== 'column' || isFlagColumn(link.chosen.column)) continue;
    if (holdsYesNo(link.chosen.column)) continue;
    if (!['a', 'an'].includes(plan.tokens[link.start - 1]?.text ?? '')) continue;
    const { table, column } = link.chosen;
    const verbAt = link.start - 2;
    const verb = plan.links.find((l) => l.start === verbAt && l.end === verbAt + 1);
    const word = plan.tokens[verbAt]?.text ?? '';
    const ofName =
      verb === undefined
        ? word.length >= 5 && column.name.toLowerCase().includes(word.slice(0, 5))
        : verb.chosen.kind === 'column' && verb.chosen.column === column && !plan.used.has(verb);
    const at = havingWords.has(word) ? verbAt : ofName ? verbAt - 1 : -1;
    if (!havingWords.has(plan.tokens[at]?.text ?? '')) continue;
    plan.used.add(link);
    if (verb && at < verbAt) plan.used.add(verb);
    plan.where.filter({ table, column }, 'IS NOT NULL', `${column.name} has a value`);
  }
}

/** An "or" between values that were resolved to different columns would need OR across columns: refused. */
function refuseOrAcrossColumns(plan: PlanContext): void {
  for (const [k, t] of plan.tokens.entries()) {
    if (t.text !== 'or' || plan.cues.some((c) => c.at <= k && k < c.end)) continue;
    const before = plan.links.find((l) => l.end === k);
    const after = plan.links.find((l) => l.start === k + 1);
    if (!before || !after || alternatives(plan, before).indexOf(after) < 0)
      plan.refuse('"or" between conditions on different columns is not supported');
  }
}

/** A value link as `column = value` ("refunded"), or with the values "or" chains to it as `column IN (...)`. */
function valueFilter(plan: PlanContext, link: Resolved): void {
  const chosen = link.chosen as Extract<Resolved['chosen'], { kind: 'value' }>;
  plan.used.add(link);
  // "status is refunded": the column named before its value is part of the filter.
  const named = plan.links.find(
    (l) =>
      l.end <= link.start &&
      l.chosen.kind === 'column' &&
      l.chosen.column === chosen.column &&
      plan.linkAfter(l.end) === link,
  );
  if (named) plan.used.add(named);
  // ...and so is one named right after it ("Italian food": food_type = 'italian').
  const after = plan.linkAfter(link.end);
  if (after?.chosen.kind === 'column' && after.chosen.column === chosen.column) plan.used.add(after);
  const ref = { table: chosen.table, column: chosen.column };
  const chain = alternatives(plan, link);
  // "nationality is not Russia": read only as the one value of the column named before "not" (question-reading.ts).
  const negation = plan.negated.find((n) => n.value.start === link.start);
  if (negation) {
    const column = plan.links.find((l) => l.start === negation.column.start);
    if (column?.chosen.kind !== 'column' || column.chosen.column !== chosen.column || chain.length > 1)
      plan.refuse(`Could not tell which values of ${chosen.column.name} "not ${chosen.value}" keeps`);
    plan.used.add(column);
    plan.where.filter(ref, `<> ${sqlLiteral(chosen.value)}`, `${chosen.column.name} is not ${chosen.value}`);
    return;
  }
  if (chain.length > 1) {
    for (const l of chain) plan.used.add(l);
    if (link !== chain[0]) return;
    const values = [...new Set(chain.map((l) => (l.chosen as { value: string }).value))];
    plan.where.filter(
      ref,
      `IN (${values.map(sqlLiteral).join(', ')})`,
      `${chosen.column.name} is ${values.join(' or ')}`,
    );
    return;
  }
  // "from LAX to ORD" matched twice on one column: the two values are different roles, not one filter.
  const other = plan.links.find(
    (l) =>
      l !== link && l.chosen.kind === 'value' && l.chosen.column === chosen.column && l.chosen.value !== chosen.value,
  );
  if (other)
    plan.refuse(
      `Two values of ${chosen.column.name} ("${chosen.value}", "${(other.chosen as { value: string }).value}") ` +
        `cannot both hold; say which column each belongs to`,
    );
  plan.where.filter(ref, `= ${sqlLiteral(chosen.value)}`, `${chosen.column.name} is ${chosen.value}`);
}

/** The value links of `link`'s column chained to it by "or" ("A or C"), in question order; just `link` when there is
 * no "or". */
function alternatives(plan: PlanContext, link: Resolved): Resolved[] {
  const { links, tokens } = plan;
  const column = (link.chosen as { column: SchemaColumn }).column;
  const chain = [link];
  const ofColumn = (l: Resolved): boolean => l.chosen.kind === 'value' && l.chosen.column === column;
  const joined = (a: Resolved, b: Resolved): boolean =>
    b.start === a.end + 1 && tokens[a.end].text === 'or' && ofColumn(a) && ofColumn(b);
  for (let at = links.indexOf(link); at > 0 && joined(links[at - 1], links[at]); at--) chain.unshift(links[at - 1]);
  for (let at = links.indexOf(link); at < links.length - 1 && joined(links[at], links[at + 1]); at++)
    chain.push(links[at + 1]);
  return chain;
}

/**
 * "courses that have a final exam", "placebo treatments", "courses without exams": a yes/no column the
 * question names and uses for nothing else holds (or, after "without" or named by its opposite word, does not).
 */
function flagFilters(plan: PlanContext): void {
  for (const link of plan.links) {
    if (plan.used.has(link) || link.chosen.kind !== 'column' || !isFlagColumn(link.chosen.column)) continue;
    plan.used.add(link);
    // "without a pool", and "closed" for `is_open`, say the flag does not hold.
    const opposite = plan.tokens[link.start].text === flagOpposite(link.chosen.column);
    const holds = (withoutBefore(plan.tokens, link) === undefined) !== opposite;
    plan.where.filter(
      { table: link.chosen.table, column: link.chosen.column },
      flagSql(link.chosen.column, holds),
      `${link.chosen.column.name} is ${holds}`,
    );
  }
}

/**
 * "journals whose names start with \"J\"", "diagnoses containing 'psoriasis'", "with \"IEEE\" in its
 * name": the text column named before the phrase (or after it, "in its name"), or the label of the
 * table named before it, matched ignoring case.
 */
function textMatchFilter(plan: PlanContext, match: TextMatch): void {
  const link =
    match.columnAt !== undefined
      ? plan.linkAfter(match.columnAt)
      : [...plan.links].reverse().find((l) => l.end <= match.at);
  const between = link && match.columnAt === undefined ? plan.tokens.slice(link.end, match.at) : [];
  const chosen = link && between.every((t) => t.kind === 'word' && fillerWords.has(t.text)) ? link.chosen : undefined;
  const ref: ColumnRef | undefined =
    chosen?.kind === 'column' && chosen.column.kind === 'text'
      ? { table: chosen.table, column: chosen.column }
      : chosen?.kind === 'table' && labelColumn(chosen.table).kind === 'text'
        ? { table: chosen.table, column: labelColumn(chosen.table) }
        : undefined;
  const how = { prefix: 'starts with', suffix: 'ends with', contains: 'contains' }[match.mode];
  if (!link || !ref)
    plan.refuse(
      `Could not tell which text should ` +
        `${{ prefix: 'start with', suffix: 'end with', contains: 'contain' }[match.mode]} "${match.text}"`,
    );
  if (chosen?.kind === 'column') plan.used.add(link);
  plan.where.condition(ref, (c) => textMatchSql(match.mode, c, match.text), `${ref.column.name} ${how} ${match.text}`);
}

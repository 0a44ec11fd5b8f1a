import type { PlanContext, Resolved } from './plan-context.js';
import type { QueryShape } from './plan-select.js';
import { nameWords } from './question-words.js';

/**
 * Words that end a "which X have ..." clause: a request for columns to be shown ("List their names"), or a second
 * question ("..., and what is the enrollment number?").
 */
const clauseEnds = new Set([
  'list',
  'show',
  'give',
  'return',
  'display',
  'include',
  'including',
  'also',
  'and',
  'what',
]);
/** Verbs after "which X" whose object is a condition on the rows, not something to show. */
const predicateVerbs = new Set(['have', 'has', 'had']);

/**
 * The confidence check run on every plan before its SQL is answered: the query must answer the form of the
 * question, and every column it uses must have a reason in the question's words. A plan that fails is refused (a 422
 * saying which part does not match) rather than answered with a fluent sentence over the wrong rows.
 *
 * - a count is a number of rows or of different values, never of the values of a column the question fixes to one
 *   ("how many priority shipments" is not `count(DISTINCT priority) ... WHERE priority`);
 * - "top N X by ..." ranks X: its rows are listed, or grouped when an aggregate ranks them;
 * - "which X ..." / "what X ..." shows X;
 * - in "which X have <something>", what follows the verb is a condition on X: a column there that no condition
 *   read is an unread condition, not a column to show;
 * - what a grouping phrase names is what is grouped: "reviews for each business category" is not grouped by
 *   business with the category table left unused;
 * - a number aggregated comes from the rows the question names: "the average rating of businesses" is not an
 *   average over their reviews (many per business) when no word names reviews.
 */
export function checkConfidence(plan: PlanContext, shape: QueryShape): void {
  countsMoreThanOneValue(plan, shape);
  ranksTheNamedRows(plan, shape);
  showsWhatWhichAsks(plan, shape);
  readsWhatRowsHave(plan, shape);
  groupsWhatItNames(plan, shape);
  measuresTheNamedRows(plan, shape);
}

const aggregated = (shape: QueryShape): boolean => shape.countCue !== undefined || shape.measures.length > 0;

/** Whether the query's rows or groups are those of `link` (its table's rows listed or grouped, or its column shown). */
function shows(shape: QueryShape, link: Resolved): boolean {
  if (shape.groupLinks.some((g) => g.start === link.start)) return true;
  const { chosen } = link;
  if (chosen.kind === 'table')
    return (
      (!aggregated(shape) && shape.main === chosen.table) ||
      shape.projection.some((p) => p.table === chosen.table) ||
      shape.groupLinks.some((g) => g.chosen.table === chosen.table)
    );
  if (chosen.kind === 'column')
    return (
      shape.projection.some((p) => p.column === chosen.column) ||
      shape.groupLinks.some((g) => g.chosen.kind === 'column' && g.chosen.column === chosen.column) ||
      (!aggregated(shape) && shape.main === chosen.table)
    );
  return true;
}

function countsMoreThanOneValue(plan: PlanContext, { countTarget }: QueryShape): void {
  if (countTarget?.chosen.kind !== 'column' || !plan.where.pins(countTarget.chosen.column)) return;
  plan.refuse(
    `"${plan.words(countTarget.start, countTarget.end)}" would count the different values of ` +
      `${countTarget.chosen.column.name}, which the question fixes to one value; say what is counted`,
  );
}

function ranksTheNamedRows(plan: PlanContext, shape: QueryShape): void {
  if (!shape.top) return;
  const ranked = plan.linkAfter(shape.top.end);
  if (ranked?.chosen.kind !== 'table' || shows(shape, ranked)) return;
  plan.refuse(
    `"${plan.words(shape.top.at, ranked.end)}" asks for ${ranked.chosen.table.name}, but the query would rank ` +
      `something else; say what they are ranked by`,
  );
}

function showsWhatWhichAsks(plan: PlanContext, shape: QueryShape): void {
  if (!['which', 'what'].includes(plan.tokens[0]?.text ?? '')) return;
  const at = shape.top?.at === 1 ? shape.top.end : 1;
  const asked = plan.links.find((l) => l.start === at);
  if (!asked || asked.chosen.kind === 'value' || shows(shape, asked)) return;
  plan.refuse(
    `The question asks which ${plan.words(asked.start, asked.end)}, but the query would not list them; rephrase ` +
      `what is asked for`,
  );
}

function readsWhatRowsHave(plan: PlanContext, shape: QueryShape): void {
  if (plan.tokens[0]?.text !== 'which') return;
  const subject = plan.links.find((l) => l.start === 1 || l.start === shape.top?.end);
  if (subject?.chosen.kind !== 'table' || !predicateVerbs.has(plan.tokens[subject.end]?.text ?? '')) return;
  const clauseEnd = plan.tokens.findIndex((t, k) => k > subject.end && clauseEnds.has(t.text));
  const end = clauseEnd < 0 ? plan.tokens.length : clauseEnd;
  const unread = plan.links.find(
    (l) => l.start > subject.end && l.end <= end && l.chosen.kind === 'column' && !plan.used.has(l),
  );
  if (unread)
    plan.refuse(
      `Could not tell what "${plan.words(subject.end, unread.end)}" requires of ` +
        `${subject.chosen.table.name}; only values, comparisons and yes/no columns are read as conditions`,
    );
}

function groupsWhatItNames(plan: PlanContext, shape: QueryShape): void {
  for (const group of shape.groupLinks) {
    const next = plan.links.find((l) => l.start === group.end);
    if (next?.chosen.kind !== 'table' || plan.used.has(next) || shows(shape, next)) continue;
    if (next.chosen.table === group.chosen.table || plan.where.mentions(next.chosen.table)) continue;
    plan.refuse(
      `"${plan.words(group.start, next.end)}" would group by ${group.chosen.table.name}, leaving ` +
        `${next.chosen.table.name} unused; say which column to group by`,
    );
  }
}

function measuresTheNamedRows(plan: PlanContext, shape: QueryShape): void {
  const named = new Set(plan.links.filter((l) => l.chosen.kind === 'table').map((l) => l.chosen.table));
  for (const { ref } of shape.measures) {
    const { table } = ref;
    if (named.has(table) || table === shape.main || plan.toOne(shape.main, table)) continue;
    const link = plan.links.find((l) => l.chosen.kind === 'column' && l.chosen.column === ref.column);
    const words = nameWords(table.name);
    if (link && plan.tokens.slice(link.start, link.end).some((t) => words.includes(t.lemma))) continue;
    plan.refuse(
      `${ref.column.name} is a column of ${table.name}, which has many rows for each of ${shape.main.name}; say ` +
        `whether the ${table.name} rows are meant ("${table.name} ${ref.column.name}")`,
    );
  }
}

import { NotUnderstood } from '../../core/domain-errors.js';
import type { PlannedQuery, PlanParts } from './plan-parts.js';
import { readCues } from './question-grammar.js';
import type { Translation } from './translator.js';
import { fillerWords, tokenize, wordsAt, type Token } from './question-words.js';
import { sqlIdent } from '../../core/sql-text.js';

/** Plans one plain question (no ratio) into a query with its parts; throws NotUnderstood when it cannot. */
export type PlanQuestion = (question: string) => PlannedQuery;

const ratioWords = new Set(['ratio', 'proportion', 'fraction', 'percentage']);
/** Words before "ratio of" that ask for it without changing it ("calculate the ratio of"). */
const askWords = new Set(['calculate', 'compute', 'get']);
/** "how does the ratio ... vary across X": the verb turns the rest into a grouping. */
const varyWords = new Set(['vary', 'varies', 'differ', 'differs', 'change', 'changes']);
const varyPrepositions = new Set(['across', 'by', 'over', 'among', 'between', 'for', 'per']);
/** Prepositions that start a phrase the two sides of a ratio may share ("... in New York"). */
const sharedPrepositions = new Set(['in', 'at', 'within', 'from', 'for']);
const groupWords = new Set(['each', 'every', 'per', 'by']);

const words = (tokens: readonly Token[]): string => tokens.map((t) => t.text).join(' ');
const hasAggregate = (tokens: readonly Token[]): boolean => readCues(tokens).cues.some((c) => c.kind === 'aggregate');

/** The two sides of "ratio of A to B", the phrases both share, and how the result is ordered. */
interface RatioReading {
  numerator: Token[];
  denominator: Token[];
  /** A grouping both sides take ("for each course id"). */
  grouping: Token[];
  /** A trailing phrase that may qualify both sides ("in New York"), or only the denominator. */
  qualifier: Token[];
  scale: number;
  order?: 'ASC' | 'DESC';
  /** "the percentage of claims that are approved": the numerator is the denominator's rows under a condition. */
  share?: boolean;
}

/** Where the grouping phrase of a side starts ("for each X", "per X", "by X"), or -1. */
function groupStart(tokens: readonly Token[]): number {
  const at = tokens.findIndex(
    (t, k) => groupWords.has(t.text) && !(t.text === 'by' && /ed$|en$/.test(tokens[k - 1]?.text ?? '')),
  );
  if (at < 0) return -1;
  return at > 0 && ['for', 'in', 'within', 'across', 'of'].includes(tokens[at - 1].text) ? at - 1 : at;
}

/** Reads "the ratio of A to B ..." ("proportion of A out of all B", "percentage of ..."); undefined when the question
 * is no ratio. */
export function readRatio(question: string): RatioReading[] | undefined {
  const tokens = tokenize(question);
  const at = tokens.findIndex((t, k) => ratioWords.has(t.text) && tokens[k + 1]?.text === 'of');
  if (at < 0 || !tokens.slice(0, at).every((t) => fillerWords.has(t.text) || askWords.has(t.text))) return undefined;
  let body = tokens.slice(at + 2);
  let order: RatioReading['order'];
  // "..., ordered by descending ratio": the ratio itself orders the result.
  const orderAt = body.findIndex(
    (t, k) =>
      ['ordered', 'sorted', 'order', 'sort'].includes(t.text) && body.slice(k).some((w) => ratioWords.has(w.text)),
  );
  if (orderAt >= 0) {
    order = body.slice(orderAt).some((t) => ['descending', 'desc', 'highest', 'largest'].includes(t.text))
      ? 'DESC'
      : 'ASC';
    body = body.slice(0, orderAt);
  }
  // "vary across different categories": a grouping by what follows.
  let varied: Token[] = [];
  const varyAt = body.findIndex((t) => varyWords.has(t.text));
  if (varyAt >= 0) {
    const preposition = body[varyAt + 1];
    if (!preposition || !varyPrepositions.has(preposition.text)) return [];
    const rest = body.slice(varyAt + 2).filter((t) => !['different', 'the', 'all', 'various'].includes(t.text));
    varied = [{ text: 'by', lemma: 'by', kind: 'word' }, ...rest];
    body = body.slice(0, varyAt);
  }
  const readings: RatioReading[] = [];
  // "the ratio of population per area": "per" divides too, unless "to" / "versus" / "out of" does (then it groups).
  const separated = body.some((t, k) => ['to', 'versus'].includes(t.text) || wordsAt(body, k, ['out', 'of']));
  for (let k = 1; k < body.length - 1; k++) {
    const out = body[k].text === 'out' && body[k + 1]?.text === 'of';
    const per = body[k].text === 'per' && !separated;
    if (body[k].text !== 'to' && body[k].text !== 'versus' && !out && !per) continue;
    const numerator = body.slice(0, k);
    let denominator = body.slice(k + (out ? 2 : 1));
    if (denominator[0]?.text === 'all') denominator = denominator.slice(1);
    let grouping = varied;
    const group = groupStart(denominator);
    if (group > 0 && varied.length === 0) {
      grouping = denominator.slice(group);
      denominator = denominator.slice(0, group);
    }
    const shared = denominator.findLastIndex((t, i) => i > 0 && sharedPrepositions.has(t.text));
    const qualifier = shared > 0 ? denominator.slice(shared) : [];
    if (numerator.length > 0 && denominator.length > 0)
      readings.push({
        numerator,
        denominator: shared > 0 ? denominator.slice(0, shared) : denominator,
        grouping,
        qualifier,
        scale: tokens[at].text === 'percentage' ? 100 : 1,
        order,
      });
  }
  if (readings.length === 0 && varied.length === 0) {
    const share = shareOfRows(body, tokens[at].text === 'percentage' ? 100 : 1, order);
    if (share) readings.push(share);
  }
  return readings;
}

/** Words that join the rows of a share to the condition they meet ("claims that are approved"). */
const shareVerbs = new Set(['are', 'were', 'is', 'was', 'that', 'which', 'who', 'have', 'has', 'had', 'with']);

/**
 * "the percentage of claims that are approved", "what fraction of warehouses are bonded": the rows the body names
 * first are the denominator, the same rows meeting what follows the verb the numerator.
 */
function shareOfRows(body: Token[], scale: number, order: RatioReading['order']): RatioReading | undefined {
  const verb = body.findIndex((t, k) => k > 0 && shareVerbs.has(t.text));
  if (verb < 0 || verb === body.length - 1) return undefined;
  return { numerator: body, denominator: body.slice(0, verb), grouping: [], qualifier: [], scale, order, share: true };
}

const columnNames = (conditions: readonly string[]): Set<string> =>
  new Set(conditions.flatMap((c) => [...c.matchAll(/\."([^"]+)"/g)].map((m) => m[1])));

/** The aggregate of a plan's SELECT list without its alias (`count(*) AS "count"` -> `count(*)`). */
const expression = (item: string): string => item.replace(/ AS "[^"]*"$/, '');

/**
 * One side of a ratio: a count of what it names ("publications" -> how many publications), an
 * aggregate it states ("the total number of credits"), or a column read per row ("helpfulness scores").
 */
function planSide(side: Token[], plan: PlanQuestion): PlannedQuery {
  if (hasAggregate(side)) return plan(words(side));
  const counted = planOrUndefined(() => plan(`how many ${words(side)}`));
  if (counted?.parts.counted === 'rows') return counted;
  return plan(words(side));
}

/** A side's one value: its single aggregate (or column), after the grouping columns. */
function valueOf(parts: PlanParts, refuse: (reason: string) => never): string {
  const values = parts.select.slice(parts.aggregated ? parts.keys.length : 0);
  if (values.length !== 1) refuse(`Each side of a ratio must be one number; one side has ${values.length}`);
  return expression(values[0]);
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, k) => x === b[k]);

/**
 * The SQL of a ratio from its two planned sides: two scalar counts divide as scalar subqueries; two
 * aggregates over the same tables and groups divide per group, each side keeping its own conditions
 * as a FILTER; two columns of the same rows divide per row; a grouped side divides by a scalar one.
 */
function combine(a: PlannedQuery, b: PlannedQuery, reading: RatioReading, refuse: (reason: string) => never): string {
  const [pa, pb] = [a.parts, b.parts];
  if (pa.limited || pb.limited) refuse('A side of a ratio that keeps only some rows or groups is not supported');
  const divide = (x: string, y: string): string =>
    `CAST(${x} AS DOUBLE) ${reading.scale !== 1 ? `* ${reading.scale} ` : ''}/ NULLIF(${y}, 0) AS ${sqlIdent('ratio')}`;
  const order = reading.order ? ` ORDER BY ${sqlIdent('ratio')} ${reading.order} NULLS LAST` : '';
  const where = (conditions: readonly string[]): string =>
    conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  const grouped = (p: PlanParts): boolean => p.groupBy.length > 0;
  if (pa.aggregated && pb.aggregated && !grouped(pa) && !grouped(pb)) {
    valueOf(pa, refuse);
    valueOf(pb, refuse);
    return `SELECT ${divide(`(${a.sql})`, `(${b.sql})`)}`;
  }
  if (pa.aggregated && grouped(pa) && pb.aggregated && !grouped(pb)) {
    valueOf(pb, refuse);
    return (
      `SELECT ${[...pa.keys, divide(valueOf(pa, refuse), `(${b.sql})`)].join(', ')} FROM ` +
      `${pa.from}${where(pa.where)} GROUP BY ${pa.groupBy.join(', ')}${order}`
    );
  }
  if (pa.aggregated && pb.aggregated && pa.keys.length > 0 && sameList(pa.keyIds, pb.keyIds) && pa.from !== pb.from) {
    // Groups of the same column counted over different tables ("publications to keywords within each domain"):
    // each side grouped on its own, the two joined on the group columns.
    const side = (p: PlanParts): string =>
      `SELECT ${[...p.keys.map((k, i) => `${k} AS "k${i}"`), `${valueOf(p, refuse)} AS "v"`].join(', ')} FROM ` +
      `${p.from}${where(p.where)} GROUP BY ${p.groupBy.join(', ')}`;
    const keys = pa.keys.map(
      (_, i) => `coalesce(a."k${i}", b."k${i}") AS ${sqlIdent(pa.keys[i].replace(/^.*\."|"$/g, ''))}`,
    );
    const on = pa.keys.map((_, i) => `a."k${i}" = b."k${i}"`).join(' AND ');
    return (
      `SELECT ${[...keys, divide('coalesce(a."v", 0)', 'b."v"')].join(', ')} FROM (${side(pa)}) AS a FULL ` +
      `JOIN (${side(pb)}) AS b ON ${on}${order}`
    );
  }
  if (
    !pa.aggregated &&
    !pb.aggregated &&
    pa.keys.length === 0 &&
    pb.keys.length === 0 &&
    !sameList(pa.where, pb.where)
  ) {
    // "the length of the Mississippi to the length of the Rhine": one value each (a subquery with more rows fails to
    // run).
    valueOf(pa, refuse);
    valueOf(pb, refuse);
    return `SELECT ${divide(`(${a.sql})`, `(${b.sql})`)}`;
  }
  if (
    pa.from !== pb.from ||
    !sameList(pa.keys, pb.keys) ||
    !sameList(pa.groupBy, pb.groupBy) ||
    pa.aggregated !== pb.aggregated
  )
    refuse('The two sides of the ratio do not count over the same tables and groups');
  if (pa.aggregated) {
    // Conditions both sides share stay in WHERE; each side's own become a FILTER of its aggregate.
    const shared = pa.where.filter((c) => pb.where.includes(c));
    const own = (p: PlanParts): string => {
      const rest = p.where.filter((c) => !shared.includes(c));
      return rest.length ? `${valueOf(p, refuse)} FILTER (WHERE ${rest.join(' AND ')})` : valueOf(p, refuse);
    };
    return (
      `SELECT ${[...pa.keys, divide(own(pa), own(pb))].join(', ')} FROM ${pa.from}${where(shared)} GROUP ` +
      `BY ${pa.groupBy.join(', ')}${order}`
    );
  }
  if (!sameList(pa.where, pb.where)) refuse('The two columns of the ratio are read under different conditions');
  return (
    `SELECT ${[...pa.keys, divide(valueOf(pa, refuse), valueOf(pb, refuse))].join(', ')} FROM ` +
    `${pa.from}${where(pa.where)}${order}`
  );
}

/** A plan, or undefined when the planner does not understand the question. */
function planOrUndefined(make: () => PlannedQuery): PlannedQuery | undefined {
  try {
    return make();
  } catch (error) {
    if (error instanceof NotUnderstood) return undefined;
    throw error;
  }
}

/** The numerator with the denominator's trailing qualifier, when that only adds conditions on columns the numerator
 * leaves free. */
function shareQualifier(numerator: PlannedQuery, qualified: PlannedQuery): PlannedQuery {
  const own = columnNames(numerator.parts.where);
  const added = columnNames(qualified.parts.where.filter((c) => !numerator.parts.where.includes(c)));
  return sameList(qualified.parts.select, numerator.parts.select) && ![...added].some((c) => own.has(c))
    ? qualified
    : numerator;
}

/**
 * Translates a ratio question ("the ratio of A to B", "the proportion of A out of all B") by planning
 * each side as its own question and dividing one by the other. A trailing phrase of the denominator
 * ("... in New York") qualifies both sides unless the numerator already constrains the same column.
 * Returns undefined when the question asks for no ratio.
 */
export function translateRatio(
  question: string,
  plan: PlanQuestion,
  refuse: (reason: string) => never,
): Translation | undefined {
  const readings = readRatio(question);
  if (readings === undefined) return undefined;
  let failure: unknown;
  for (const reading of readings) {
    try {
      const denominator = planSide([...reading.denominator, ...reading.qualifier, ...reading.grouping], plan);
      let numerator = planSide([...reading.numerator, ...reading.grouping], plan);
      if (reading.qualifier.length > 0) {
        const qualified = planOrUndefined(() =>
          planSide([...reading.numerator, ...reading.qualifier, ...reading.grouping], plan),
        );
        if (qualified) numerator = shareQualifier(numerator, qualified);
      }
      // A share whose condition was not read would divide the rows by themselves.
      if (reading.share && numerator.parts.where.length <= denominator.parts.where.length)
        refuse(`Could not tell which condition "${words(reading.numerator)}" puts on its rows`);
      const sql = combine(numerator, denominator, reading, refuse);
      const grouped = numerator.parts.groupBy.length > 0;
      return {
        sql,
        grouped,
        meaning: grouped
          ? undefined
          : `${reading.scale === 100 ? 'percentage' : 'ratio'} of ${words(reading.numerator)} to ` +
            `${words(reading.denominator)}`,
      };
    } catch (error) {
      if (!(error instanceof NotUnderstood)) throw error;
      failure ??= error;
    }
  }
  if (failure) throw failure;
  refuse('Could not tell what the ratio divides: say "the ratio of <something> to <something else>"');
}

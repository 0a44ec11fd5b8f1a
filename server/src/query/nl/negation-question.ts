import { NotUnderstood } from '../../core/domain-errors.js';
import { keepRows, keysOf, mainTable, referencedKey, type PlanWithAddition } from './composed-rows.js';
import type { PlannedQuery } from './plan-parts.js';
import type { SchemaColumn, SchemaContext, SchemaTable } from './schema-context.js';
import type { Translation } from './translator.js';
import { tokenize, type Token } from './question-words.js';

const relativeWords = new Set(['that', 'who', 'which']);
const auxiliaries = new Set(['do', 'does', 'did', 'have', 'has', 'had', 'is', 'are', 'was', 'were']);
const beVerbs = new Set(['is', 'are', 'was', 'were']);
const articles = new Set(['any', 'a', 'an', 'the']);

/** The question without its negated part (the rows asked for), and the negated part. */
interface NegationReading {
  rows: string;
  negated: Token[];
}

const words = (tokens: readonly Token[]): string => tokens.map((t) => t.text).join(' ');

/** Drops the articles a negated part starts with ("any concert", "a port"). */
function withoutArticles(tokens: Token[]): Token[] {
  let at = 0;
  while (at < tokens.length && articles.has(tokens[at].text)) at++;
  return tokens.slice(at);
}

/**
 * Reads "X without (any) Y", "X with no Y", "X (that / who / which) have no Y", "did not (verb) Y", "never (verb) Y",
 * "are not Y". Undefined when the question has none of these, or negates more than once or otherwise.
 */
export function readNegation(question: string): NegationReading | undefined {
  // "Which captains have no vessels? Give their names.": the other sentences say what to show of the rows.
  const sentences = question.split(/(?<=[?.!])\s+/);
  const found = sentences.map((s) => ({ sentence: s, at: negationIn(tokenize(s)) }));
  const negative = found.filter((f) => f.at !== undefined);
  if (negative.length !== 1 || negative[0].at === null) return undefined;
  const tokens = tokenize(negative[0].sentence);
  const { at, end } = negative[0].at!;
  const negated = withoutArticles(tokens.slice(end));
  const others = found.filter((f) => f !== negative[0]).map((f) => f.sentence);
  return negated.length > 0 && at > 0
    ? { rows: [words(tokens.slice(0, at)), ...others].join(' '), negated }
    : undefined;
}

/**
 * Where the one negation of a sentence starts and ends; null when the sentence negates in another way or twice,
 * undefined when it does not negate.
 */
function negationIn(tokens: readonly Token[]): { at: number; end: number } | null | undefined {
  const negations: { at: number; end: number }[] = [];
  let other = false;
  for (const [k, t] of tokens.entries()) {
    const next = tokens[k + 1]?.text;
    // "who have no", "that did not", "which never": the relative word belongs to the negation.
    const at = relativeWords.has(tokens[k - 1]?.text ?? '') ? k - 1 : k;
    if (negations.some((n) => n.at <= k && k < n.end)) continue;
    if (t.text === 'without') negations.push({ at: k, end: k + 1 });
    else if (t.text === 'with' && next === 'no') negations.push({ at: k, end: k + 2 });
    else if (['have', 'has', 'had'].includes(t.text) && next === 'no') negations.push({ at, end: k + 2 });
    // "whose nationality is not X" is a condition on a column, not rows excluded: "is not" only after "who", "that".
    else if (auxiliaries.has(t.text) && next === 'not' && (at < k || !beVerbs.has(t.text)))
      negations.push({ at, end: k + 2 });
    else if (t.text === 'never' || /^[a-z]+n't$/.test(t.text)) negations.push({ at, end: k + 1 });
    else if (['not', 'no', 'never', 'none', 'except'].includes(t.text) || /n't$/.test(t.text)) other = true;
  }
  if (negations.length === 0 && !other) return undefined;
  return negations.length === 1 && !other ? negations[0] : null;
}

/**
 * The keys of `rows` some row of the negated part relates to, as a subquery: the negated words planned as their own
 * question with `rows` joined to it. A verb right after the negation ("did not visit any museum") that links to
 * nothing is left out ("any museum").
 */
function relatedKeys(
  reading: NegationReading,
  rows: SchemaTable,
  key: SchemaColumn,
  plan: PlanWithAddition,
  refuse: (reason: string) => never,
): string {
  let negated: PlannedQuery;
  try {
    negated = plan(words(reading.negated), { join: rows });
  } catch (error) {
    if (!(error instanceof NotUnderstood) || reading.negated.length < 2) throw error;
    negated = plan(words(withoutArticles(reading.negated.slice(1))), { join: rows });
  }
  const { parts } = negated;
  if (mainTable(parts) === rows && parts.where.length === 0)
    refuse(`Could not tell what "${words(reading.negated)}" excludes of ${rows.name}`);
  return keysOf(parts, rows, key, words(reading.negated), refuse);
}

/**
 * Translates "stadiums without any concert", "employees who never received an evaluation", "stadiums that did not
 * have a concert in 2014", "people who are not from Russia": the rows asked for are planned as a question of their
 * own, keeping those whose key is not among the keys the negated part relates to (`NOT IN`, one subquery). Returns
 * undefined when the question has no such negation.
 */
export function translateNegation(
  question: string,
  schema: SchemaContext,
  plan: PlanWithAddition,
  refuse: (reason: string) => never,
): Translation | undefined {
  const reading = readNegation(question);
  if (!reading) return undefined;
  const table = mainTable(plan(reading.rows).parts);
  const key = table && referencedKey(schema, table);
  if (!table || !key) return refuse(`Could not tell which rows "${words(reading.negated)}" excludes`);
  const sql = relatedKeys(reading, table, key, plan, refuse);
  return keepRows(
    plan,
    reading.rows,
    table,
    key,
    { sql, negated: true, description: `without ${words(reading.negated)}` },
    refuse,
  );
}

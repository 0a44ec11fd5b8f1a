/** The phrases of a question that speak about calendar time: quarters, weekdays, calendar periods, "ago", "since the
 * last". */
import { wordsAt, type Token } from './question-words.js';
import { wordTable } from '../../core/json.js';

/** A calendar unit a date is truncated to, compared in, or counted in. */
export type DateUnit = 'day' | 'week' | 'month' | 'quarter' | 'year';

/** A date phrase found at token `at` (its last token is `end - 1`). */
export type DateCue =
  /** Dates from `from` to before `to` (ISO days): "in the 1st quarter of 2023". */
  | { kind: 'period'; from: string; to: string; at: number; end: number }
  /** Days of the week (0 Sunday ... 6 Saturday): "on weekends", "on Mondays". */
  | { kind: 'weekday'; days: number[]; at: number; end: number }
  /** Whole calendar units before the current one (`amount` 0: the current one): "the previous week", "this year". */
  | { kind: 'calendar'; amount: number; unit: DateUnit; at: number; end: number }
  /** The calendar unit `amount` units back: "registered 2 years ago". */
  | { kind: 'ago'; amount: number; unit: DateUnit; at: number; end: number }
  /** Days from the latest date to today: "how long has it been since the last ...". */
  | { kind: 'elapsed'; at: number; end: number }
  /**
   * How a result is to be written, which the SQL already does: "as a date" (a truncated date), "as an
   * integer" or "in days" (a day count). Kept as a cue so the plan can refuse it where it does not hold.
   */
  | { kind: 'format'; as: 'date' | 'days'; at: number; end: number };

/** The ends of a period bounded on one side only ("after 2024-03-01"). */
export const openStart = '0001-01-01';
export const openEnd = '9999-12-31';

export const monthNames = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
export const dayNames = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const unitWords = wordTable<DateUnit>({
  day: 'day',
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
});
const ordinals = wordTable<number>({ first: 1, second: 2, third: 3, fourth: 4 });
const ordinalSuffixes = new Set(['st', 'nd', 'rd', 'th']);
/** Words after "since (the)" that make it the latest row's date: "since the last admitted student". */
const latestWords = [['last'], ['latest'], ['most', 'recent'], ['newest']];

/** Whether a token is a plausible year (1900-2100). */
export const isYear = (t: Token | undefined): boolean =>
  t?.kind === 'number' && /^\d{4}$/.test(t.text) && Number(t.text) >= 1900 && Number(t.text) <= 2100;
/** The unit a word names, singular or plural ("weeks"). */
export const unitOf = (t: Token | undefined): DateUnit | undefined => (t ? unitWords[t.lemma] : undefined);

/** "1st", "first", "Q1": the quarter number and where its words end, or undefined. */
function quarterAt(tokens: readonly Token[], at: number): { quarter: number; end: number } | undefined {
  const t = tokens[at];
  const q = /^q([1-4])$/.exec(t?.text ?? '');
  if (q) return { quarter: Number(q[1]), end: at + 1 };
  let quarter = ordinals[t?.text ?? ''];
  let end = at + 1;
  if (t?.kind === 'number' && ordinalSuffixes.has(tokens[at + 1]?.text ?? '')) {
    quarter = Number(t.text);
    end = at + 2;
  }
  if (!quarter || quarter > 4 || tokens[end]?.text !== 'quarter') return undefined;
  return { quarter, end: end + 1 };
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The days of `month` (1-12) of `year`: from its first day to before the next month's. */
export function monthPeriod(month: number, year: number): { from: string; to: string } {
  return { from: `${year}-${pad(month)}-01`, to: month === 12 ? `${year + 1}-01-01` : `${year}-${pad(month + 1)}-01` };
}

/** "(in) the 1st quarter of 2023", "Q1 2023": the three months of that quarter. */
function quarterPeriod(tokens: readonly Token[], at: number): DateCue | undefined {
  const quarter = quarterAt(tokens, at);
  if (!quarter) return undefined;
  const yearAt = quarter.end + (['of', 'in'].includes(tokens[quarter.end]?.text ?? '') ? 1 : 0);
  if (!isYear(tokens[yearAt])) return undefined;
  const year = Number(tokens[yearAt].text);
  const first = 3 * (quarter.quarter - 1) + 1;
  return {
    kind: 'period',
    from: monthPeriod(first, year).from,
    to: monthPeriod(first + 2, year).to,
    at,
    end: yearAt + 1,
  };
}

/** "weekends", "weekdays", "Mondays": the days of the week a word names. */
function weekdays(t: Token): number[] | undefined {
  if (t.lemma === 'weekend') return [0, 6];
  if (t.lemma === 'weekday') return [1, 2, 3, 4, 5];
  const day = dayNames.indexOf(t.lemma);
  return day >= 0 ? [day] : undefined;
}

/** "(not including | excluding) the current week": the current unit left out, which a calendar period does anyway. */
function currentExcluded(tokens: readonly Token[], at: number, unit: DateUnit): number {
  const skip = wordsAt(tokens, at, ['not', 'including']) ? 2 : wordsAt(tokens, at, ['excluding']) ? 1 : 0;
  if (skip === 0) return at;
  const the = tokens[at + skip]?.text === 'the' ? 1 : 0;
  const current = ['current', 'this'].includes(tokens[at + skip + the]?.text ?? '') ? 1 : 0;
  return current && unitOf(tokens[at + skip + the + 1]) === unit ? at + skip + the + 2 : at;
}

/**
 * "the previous week", "the previous 3 months", "the last 10 calendar months", "this year", "the last 6
 * months not including the current month": whole calendar units. A plain "the last 30 days" is a rolling
 * window (see the grammar's `recent` cue) and is left alone here.
 */
function calendarPeriod(tokens: readonly Token[], at: number): DateCue | undefined {
  const word = tokens[at]?.text;
  if (word === 'this' || word === 'current') {
    const unit = unitOf(tokens[at + 1]);
    return unit && tokens[at + 1].text === unit ? { kind: 'calendar', amount: 0, unit, at, end: at + 2 } : undefined;
  }
  if (word !== 'previous' && word !== 'last' && word !== 'past') return undefined;
  let k = at + 1;
  const amount = tokens[k]?.kind === 'number' ? Number(tokens[k++].text) : 1;
  const calendar = tokens[k]?.text === 'calendar' || (tokens[k]?.text === 'iso' && tokens[k + 1]?.lemma === 'week');
  if (calendar) k++;
  const unit = unitOf(tokens[k]);
  if (!unit || amount < 1 || amount > 10_000) return undefined;
  const end = currentExcluded(tokens, k + 1, unit);
  // "the last 30 days" without "calendar", "previous" or the current unit excluded stays a rolling window.
  if (word !== 'previous' && !calendar && end === k + 1) return undefined;
  return { kind: 'calendar', amount, unit, at, end };
}

/**
 * "how long has it been (in days) since the last", "how many days since the latest": two cues, the
 * question words (a day count) and the "since" part (the latest date).
 */
function elapsed(tokens: readonly Token[], at: number): DateCue[] | undefined {
  const asked = wordsAt(tokens, at, ['how', 'long']) ? 2 : wordsAt(tokens, at, ['how', 'many', 'days']) ? 3 : 0;
  if (asked === 0) return undefined;
  let k = at + asked;
  for (const phrase of [
    ['has', 'it', 'been'],
    ['have', 'passed'],
    ['has', 'passed'],
    ['in', 'days'],
  ])
    if (wordsAt(tokens, k, phrase)) k += phrase.length;
  if (tokens[k]?.text !== 'since') return undefined;
  const the = tokens[k + 1]?.text === 'the' ? 1 : 0;
  const latest = latestWords.find((w) => wordsAt(tokens, k + 1 + the, w));
  if (!latest) return undefined;
  return [
    { kind: 'format', as: 'days', at, end: k },
    { kind: 'elapsed', at: k, end: k + 1 + the + latest.length },
  ];
}

/** "as a date", "as an integer", "in days", "in no. of days", "give the answer as an integer". */
function format(tokens: readonly Token[], at: number): DateCue | undefined {
  let k = at;
  if (wordsAt(tokens, k, ['give', 'the', 'answer']) || wordsAt(tokens, k, ['return', 'the', 'answer'])) k += 3;
  if (tokens[k]?.text === 'as') {
    const article = ['a', 'an'].includes(tokens[k + 1]?.text ?? '') ? 1 : 0;
    const type = tokens[k + 1 + article]?.text;
    if (type === 'date') return { kind: 'format', as: 'date', at, end: k + 2 + article };
    if (type === 'integer') return { kind: 'format', as: 'days', at, end: k + 2 + article };
    return undefined;
  }
  if (k !== at || tokens[k]?.text !== 'in') return undefined;
  for (const phrase of [['days'], ['no', 'of', 'days'], ['number', 'of', 'days']])
    if (wordsAt(tokens, k + 1, phrase)) return { kind: 'format', as: 'days', at, end: k + 1 + phrase.length };
  return undefined;
}

/** "represented as the first date of the quarter", "as the first day in the month": what a truncated date is. */
function firstDay(tokens: readonly Token[], at: number): DateCue | undefined {
  if (!wordsAt(tokens, at, ['as', 'the', 'first']) || !['day', 'date'].includes(tokens[at + 3]?.text ?? ''))
    return undefined;
  if (!['of', 'in'].includes(tokens[at + 4]?.text ?? '')) return undefined;
  const the = ['the', 'each', 'its'].includes(tokens[at + 5]?.text ?? '') ? 1 : 0;
  return unitOf(tokens[at + 5 + the]) ? { kind: 'format', as: 'date', at, end: at + 6 + the } : undefined;
}

/** The day an ISO date token names: from that day to before the next, or undefined for no such day. */
export function dayPeriod(t: Token): { from: string; to: string } | undefined {
  const day = new Date(`${t.text}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return undefined;
  return { from: t.text, to: new Date(day.getTime() + 86_400_000).toISOString().slice(0, 10) };
}

/** A month and year ("June 2021") or an ISO day at token `at`: the first day it covers, the day after it, and where it
 * ends. */
function spanAt(tokens: readonly Token[], at: number): { from: string; to: string; end: number } | undefined {
  const t = tokens[at];
  const month = monthNames.indexOf(t?.text ?? '');
  if (month >= 0 && isYear(tokens[at + 1]))
    return { ...monthPeriod(month + 1, Number(tokens[at + 1].text)), end: at + 2 };
  const day = t?.kind === 'date' ? dayPeriod(t) : undefined;
  return day && { ...day, end: at + 1 };
}

/** "between June 2021 and December 2021", "between 2023-01-01 and 2023-03-31": both ends included. */
function betweenPeriod(tokens: readonly Token[], at: number): DateCue | undefined {
  if (tokens[at]?.text !== 'between') return undefined;
  const first = spanAt(tokens, at + 1);
  const last = first && tokens[first.end]?.text === 'and' ? spanAt(tokens, first.end + 1) : undefined;
  if (!first || !last || last.to <= first.from) return undefined;
  return { kind: 'period', from: first.from, to: last.to, at, end: last.end };
}

/** "2 years ago", "3 months ago". */
function ago(tokens: readonly Token[], at: number): DateCue | undefined {
  const amount = tokens[at];
  const unit = unitOf(tokens[at + 1]);
  if (amount?.kind !== 'number' || !unit || tokens[at + 2]?.text !== 'ago' || Number(amount.text) > 10_000)
    return undefined;
  return { kind: 'ago', amount: Number(amount.text), unit, at, end: at + 3 };
}

/** The date phrases starting at token `at` (several when a phrase has parts apart), or undefined. */
export function readDateCues(tokens: readonly Token[], at: number): DateCue[] | undefined {
  // "on weekends", "during the weekend": after a preposition, so a column called "weekday" is still that column.
  const before = tokens[at - 1]?.text === 'the' ? tokens[at - 2] : tokens[at - 1];
  const days = ['on', 'during', 'over'].includes(before?.text ?? '') ? weekdays(tokens[at]) : undefined;
  if (days) return [{ kind: 'weekday', days, at, end: at + 1 }];
  const one =
    betweenPeriod(tokens, at) ??
    quarterPeriod(tokens, at) ??
    calendarPeriod(tokens, at) ??
    ago(tokens, at) ??
    format(tokens, at) ??
    firstDay(tokens, at);
  return one ? [one] : elapsed(tokens, at);
}

/** The whole months (1-12) of one year a period from `from` to before `to` (ISO days) covers, or undefined when it is
 * not such a period. */
export function monthsOfPeriod(from: string, to: string): { year: number; months: number[] } | undefined {
  const start = /^(\d{4})-(\d{2})-01$/.exec(from);
  const end = /^(\d{4})-(\d{2})-01$/.exec(to);
  if (!start || !end) return undefined;
  const year = Number(start[1]);
  const last = Number(end[1]) === year ? Number(end[2]) - 1 : Number(end[1]) === year + 1 && end[2] === '01' ? 12 : 0;
  const first = Number(start[2]);
  if (last < first) return undefined;
  return { year, months: Array.from({ length: last - first + 1 }, (_, k) => first + k) };
}

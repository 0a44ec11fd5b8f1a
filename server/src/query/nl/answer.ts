import type { Json } from '@duckdb/node-api';
import type { SqlResult } from '../../contract/index.js';
import { wordTable } from '../../core/json.js';

/** Rows named in a summary of a grouped result. */
const summaryRows = 5;

const aggregatePrefixes = wordTable<string>({ avg: 'average', sum: 'total', min: 'minimum', max: 'maximum' });

/** A column name as words: `avg_amount` -> "average amount", `signup_date` -> "signup date". */
const humanise = (name: string): string =>
  name
    .replace(/^(avg|sum|min|max)_/, (_, fn: string) => `${aggregatePrefixes[fn]} `)
    .replace(/_/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A value as a sentence shows it: numbers with at most two decimals, text as is. */
function formatValue(value: Json): string {
  if (value === null) return 'nothing (null)';
  if (typeof value === 'number')
    return Number.isInteger(value)
      ? value.toLocaleString('en-US')
      : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
  if (typeof value === 'string')
    return /^-?\d+(\.\d+)?$/.test(value) && value.includes('.')
      ? Number(value).toLocaleString('en-US', { maximumFractionDigits: 2 })
      : value;
  return JSON.stringify(value);
}

const isNumeric = (value: Json): boolean =>
  typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value));

/**
 * How many rows (or groups) a result stands for: all of them ("12 rows"), or when a limit cut it, the number that
 * match (`matched`, counted apart; "more than" the rows shown when unknown) and the number shown.
 */
function matchCount(result: SqlResult, matched: number | undefined, noun: string): string {
  const shown = result.rows.length.toLocaleString('en-US');
  if (!result.truncated) return `${shown} ${result.rows.length === 1 ? noun : `${noun}s`}`;
  const total = matched !== undefined && matched > result.rows.length ? matched.toLocaleString('en-US') : undefined;
  return `${total ?? `more than ${shown}`} ${noun}s match; ${shown} shown`;
}

/** Which limit cut the result, as a clause. */
const cutReason = (result: SqlResult): string => result.truncated_reason ?? 'the result was cut at a limit';

/**
 * One readable sentence from a result: a single value with its meaning, a grouped result (labels and
 * a final number column) with its top rows, other rows counted with the first one shown, an empty
 * result said as such; led by `asked`, the question's words for what is counted or compared, when known.
 * A result a limit cut says how many rows match (`matched`, counted apart; "more than" when unknown) and how many
 * are shown, never the rows shown as the rows that match.
 */
export function answerSentence(
  result: SqlResult,
  meaning?: string,
  grouped = false,
  asked?: string,
  matched?: number,
): string {
  const sentence = resultSentence(result, meaning, grouped, matched);
  if (!asked || result.rows.length === 0) return sentence;
  // The question's own words beside what the query computed, so a misreading shows.
  return `"${asked[0].toUpperCase()}${asked.slice(1)}": ${sentence[0].toLowerCase()}${sentence.slice(1)}`;
}

function resultSentence(
  result: SqlResult,
  meaning: string | undefined,
  grouped: boolean,
  matched: number | undefined,
): string {
  const { rows, columns } = result;
  if (rows.length === 0) return 'No rows match the question.';
  if (rows.length === 1 && columns.length === 1 && !result.truncated) {
    const value = rows[0][columns[0].name];
    return `The ${meaning ?? humanise(columns[0].name)} is ${formatValue(value)}.`;
  }
  const last = columns[columns.length - 1];
  if (grouped && columns.length >= 2 && rows.every((r) => r[last.name] === null || isNumeric(r[last.name]))) {
    const labels = columns.slice(0, -1).map((c) => c.name);
    const shown = rows
      .slice(0, summaryRows)
      .map((r) => `${labels.map((l) => formatValue(r[l])).join(' / ')}: ${formatValue(r[last.name])}`);
    const rest = rows.length > summaryRows ? `, and ${rows.length - summaryRows} more` : '';
    const title = humanise(last.name);
    return (
      `${title[0].toUpperCase()}${title.slice(1)} by ${labels.map(humanise).join(' and ')} ` +
      `(${matchCount(result, matched, 'group')}${result.truncated ? `, ${cutReason(result)}` : ''}): ` +
      `${shown.join('; ')}${rest}.`
    );
  }
  const first = columns.map((c) => `${humanise(c.name)} ${formatValue(rows[0][c.name])}`).join(', ');
  if (rows.length === 1 && !result.truncated) return `One row matches: ${first}.`;
  const count = matchCount(result, matched, 'row');
  const counted = result.truncated ? `${count} (${cutReason(result)})` : `${count} match`;
  return `${counted[0].toUpperCase()}${counted.slice(1)}; the first has ${first}.`;
}

/** Groupings of dates a question asks for ("monthly", "per quarter", "which month", "each day of the week"). */
import { unitOf, type DateUnit } from './date-phrases.js';
import type { Token } from './question-words.js';
import { wordTable } from '../../core/json.js';

/** A calendar unit dates are grouped by, or the day of the week. */
export type Bucket = DateUnit | 'weekday';

/** A date grouping named by tokens `[at, end)`. */
export interface BucketMention {
  bucket: Bucket;
  at: number;
  end: number;
}

const adjectives = wordTable<DateUnit>({
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  quarterly: 'quarter',
  yearly: 'year',
  annual: 'year',
  annually: 'year',
});

/**
 * The date groupings among the words nothing else claimed (`free`): an adjective ("monthly",
 * "quarterly"), a unit after a grouping word ("per month", "for each quarter": `groupEnds` holds the
 * token after each "per"/"each"/"by"), a unit asked for ("which month", "what year"), "day of the week"
 * in those places, and a unit already grouped by named again ("... and the month"). A unit that names a
 * column or table of the schema was linked to it and is not free, so "each month" over a `month` column
 * stays that column.
 */
export function readBuckets(
  tokens: readonly Token[],
  free: (k: number) => boolean,
  groupEnds: ReadonlySet<number>,
): BucketMention[] {
  const found: BucketMention[] = [];
  for (let k = 0; k < tokens.length; k++) {
    if (!free(k)) continue;
    const adjective = adjectives[tokens[k].text];
    if (adjective) {
      found.push({ bucket: adjective, at: k, end: k + 1 });
      continue;
    }
    const unit = unitOf(tokens[k]);
    if (!unit) continue;
    const start = tokens[k - 1]?.text === 'the' ? k - 1 : k;
    const asked = groupEnds.has(start) || ['which', 'what'].includes(tokens[start - 1]?.text ?? '');
    const weekday =
      unit === 'day' && ['of', 'the', 'week'].every((w, n) => tokens[k + 1 + n]?.text === w && free(k + 1 + n));
    const bucket: Bucket = weekday ? 'weekday' : unit;
    if (asked || found.some((f) => f.bucket === bucket)) {
      found.push({ bucket, at: k, end: weekday ? k + 4 : k + 1 });
      if (weekday) k += 3;
    }
  }
  return found;
}

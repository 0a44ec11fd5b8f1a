import {
  betweenNumbers,
  comparativeThan,
  comparatorPhrase,
  eitherBound,
  exactCount,
  monthName,
  onDay,
  orBound,
  recentSpan,
  yearNumber,
} from './condition-rules.js';
import type { Cue, CueRule, Reading } from './cues.js';
import { readDateCues } from './date-phrases.js';
import type { Token } from './question-words.js';
import {
  aggregateWord,
  announcingBoth,
  byAfterSortVerb,
  countPhrase,
  directionRange,
  directionWords,
  distinctWord,
  exactMatchInstruction,
  groupPhrase,
  mostPhrase,
  orderPhrase,
  passiveBy,
  superlativeWord,
  topCount,
  units,
} from './shape-rules.js';

/**
 * The grammar: its rules in the order they are tried at each token, the first that matches reading the
 * phrase there. Where two rules could read the same words, the earlier one wins: two bounds joined by "or"
 * ("after 2013 or before 2008") first, then "N or more" / "2014 or after" (else "in 2014" would be read as the
 * year alone), date phrases before everything else ("between June 2021 and ...", "the last 6 calendar
 * months"), an order's "by" and a passive "by" before a
 * grouping "by", two-word superlatives ("most common") before the single words, and the
 * comparisons before a bare year ("after 2020" is a bound, "in 2020" the year).
 */
const cueRules: readonly CueRule[] = [
  eitherBound,
  orBound,
  exactCount,
  ({ tokens }, i) => readDateCues(tokens, i),
  countPhrase,
  topCount,
  orderPhrase,
  byAfterSortVerb,
  directionRange,
  mostPhrase,
  units,
  exactMatchInstruction,
  announcingBoth,
  directionWords,
  passiveBy,
  groupPhrase,
  distinctWord,
  recentSpan,
  betweenNumbers,
  monthName,
  comparativeThan,
  comparatorPhrase,
  superlativeWord,
  aggregateWord,
  yearNumber,
  onDay,
];

/**
 * Reads the phrases that shape a query (aggregates, grouping, comparisons, dates, top-N, ordering)
 * and returns them with the set of tokens they used. Whatever is left is for the schema linker.
 */
export function readCues(tokens: readonly Token[]): {
  cues: Cue[];
  taken: Set<number>;
} {
  const cues: Cue[] = [];
  const taken = new Set<number>();
  const reading: Reading = { tokens, cues, taken };
  for (let i = 0; i < tokens.length; i++) {
    if (taken.has(i)) continue;
    for (const rule of cueRules) {
      const found = rule(reading, i);
      if (found === undefined) continue;
      for (const cue of [found].flat()) {
        cues.push(cue);
        for (let k = cue.at; k < cue.end; k++) taken.add(k);
      }
      break;
    }
  }
  return { cues, taken };
}

import fuzzysort from 'fuzzysort';
import type { ReactNode } from 'react';

/** At most this many rows reach a picker: more is noise, and keeps a keystroke cheap on a big workspace. */
export const pickerLimit = 50;

/** One thing that matched, with its text's matched letters marked for the picker. */
export interface FuzzyMatch<T> {
  value: T;
  marked: ReactNode;
}

/**
 * The things whose `key` matches `query` fuzzily (letters in order, gaps allowed, words in any order, as
 * Sublime's and VS Code's quick-open), best first, at most {@link pickerLimit}; all of them, unmarked and in
 * their own order, for an empty query.
 */
export function fuzzyMatch<T>(query: string, things: readonly T[], key: (thing: T) => string): FuzzyMatch<T>[] {
  if (!query.trim()) return things.slice(0, pickerLimit).map((value) => ({ value, marked: key(value) }));
  return fuzzysort.go(query, things, { key, limit: pickerLimit, threshold: 0 }).map((result) => ({
    value: result.obj,
    marked: result.highlight((letters, i) => <mark key={i}>{letters}</mark>),
  }));
}

/** What the question grammar finds: the cues, phrases that shape a query, and the rules that read them. */
import type { DateCue, DateUnit } from './date-phrases.js';
import type { Token } from './question-words.js';

/** The column a superlative adjective implies ("oldest": age, "cheapest": price). */
export type Implied = 'age' | 'price' | 'date' | 'height' | 'weight' | 'length' | 'frequency';
export type Aggregate = 'count' | 'avg' | 'sum' | 'max' | 'min';
export type Comparison = '>' | '>=' | '<' | '<=' | '=' | 'between';

/** A phrase that shapes the query, found at token `at` (its last token is `end - 1`). */
export type Cue =
  | { kind: 'aggregate'; fn: Aggregate; at: number; end: number }
  | {
      kind: 'superlative';
      descending: boolean;
      at: number;
      end: number;
      implied?: Implied;
    }
  | { kind: 'group'; at: number; end: number }
  | { kind: 'order'; at: number; end: number }
  | {
      kind: 'direction';
      descending: boolean;
      at: number;
      end: number;
      /** "from highest to lowest": every row in that order, not only the highest. */
      range?: boolean;
    }
  /** Words that change nothing where they stand: a unit ("in meters", "200 mph"), "both" after "show"/"give". */
  | { kind: 'noise'; at: number; end: number }
  | { kind: 'top'; n: number; at: number; end: number }
  | {
      kind: 'compare';
      op: Comparison;
      values: number[];
      at: number;
      end: number;
      year: boolean;
      /** Compared with the column's average over its table ("above the average age"). */
      average?: boolean;
      /** The column a comparative adjective implies ("older than 30": age). */
      implied?: Implied;
      /** A second bound either of which may hold ("after 2013 or before 2008"); the two never overlap. */
      or?: { op: Comparison; value: number };
      /** Only a count of related rows ("papers that have 1 keyphrase"), never a column's value. */
      counts?: true;
    }
  | {
      kind: 'recent';
      amount: number;
      unit: DateUnit;
      at: number;
      end: number;
    }
  | DateCue
  | { kind: 'month'; month: number; at: number; end: number }
  | { kind: 'distinct'; at: number; end: number };

/** What a rule sees: the question's tokens, and the cues found before the token it reads and the tokens they use. */
export interface Reading {
  readonly tokens: readonly Token[];
  readonly cues: readonly Cue[];
  readonly taken: ReadonlySet<number>;
}

/**
 * One rule of the grammar: the cue (or cues) of the phrase starting at token `i`, or undefined when the
 * rule does not match there. An empty list matches without a cue: the token is left to the schema linker
 * and no later rule reads it.
 */
export type CueRule = (reading: Reading, i: number) => Cue | readonly Cue[] | undefined;

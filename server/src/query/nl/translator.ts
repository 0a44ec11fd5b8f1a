import { NotUnderstood } from '../../core/domain-errors.js';
import type { SchemaContext } from './schema-context.js';
import type { LookupRun } from './value-lookup.js';

/** A question translated to one SELECT statement. */
export interface Translation {
  sql: string;
  /** What a single-value result means ("number of orders where status is shipped"), for the answer sentence. */
  meaning?: string;
  /** The question's own words for what is counted, measured or listed ("how many priority shipments"). */
  asked?: string;
  /** Whether rows are groups with an aggregate each (the answer then summarises the top groups). */
  grouped?: boolean;
  /**
   * For a query that keeps the first `limit` rows of a ranking: the same query with its rank as `tie_rank` and one
   * row more, so the answer can tell whether rows left out tie with the last one kept.
   */
  tieCheck?: { sql: string; limit: number };
  /** Words whose tie between equally near values the asker's `prefer` settled: `means` is source.table.column. */
  picked?: { words: string; means: string; value: string }[];
}

/** What the asker adds to a question: `prefer`, `table.column` names that win a tie between equally near values. */
export interface TranslateOptions {
  prefer?: readonly string[];
}

/**
 * Turns a question into SQL over the sources' `<source>.<table>` names. `check` runs a candidate
 * statement and throws `QueryRejected` or `UnknownTable` when it does not run, so a translator can
 * retry with the error. Throws {@link NotUnderstood} (see {@link notUnderstood}) when the question
 * cannot be translated. `lookup`, when given, runs the bounded queries that look words up among a source's values.
 */
export interface Translator {
  readonly name: 'embedded' | 'llm';
  translate(
    question: string,
    schema: SchemaContext,
    check: (sql: string) => Promise<void>,
    lookup?: LookupRun,
    options?: TranslateOptions,
  ): Promise<Translation>;
}

/** The names of the tables a context knows, for error messages. */
export const knownTables = (schema: SchemaContext): string =>
  schema.tables.length === 0
    ? 'none (no sources are configured)'
    : schema.tables.map((t) => `${t.source}.${t.name}`).join(', ');

/** The question could not be translated: `reason` says why, followed by the tables the planner knows. */
export function notUnderstood(reason: string, schema: SchemaContext): NotUnderstood {
  return new NotUnderstood(`${reason}. Known tables: ${knownTables(schema)}`);
}

/** A question with words linked to nothing: `phrases` are the runs of consecutive unlinked words. */
export class UnlinkedWords extends NotUnderstood {
  constructor(
    reason: string,
    readonly phrases: string[],
  ) {
    super(reason);
  }
}

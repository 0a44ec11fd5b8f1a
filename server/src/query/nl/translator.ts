import { HttpError } from '../../core/errors.js';
import type { SchemaContext } from './schema-context.js';

/** A question translated to one SELECT statement. */
export interface Translation {
  sql: string;
  /** What a single-value result means ("number of orders where status is shipped"), for the answer sentence. */
  meaning?: string;
  /** Whether rows are groups with an aggregate each (the answer then summarises the top groups). */
  grouped?: boolean;
}

/**
 * Turns a question into SQL over the sources' `<source>.<table>` names. `check` validates a candidate
 * statement (parse, SELECT only) and throws a 4xx HttpError when it is not acceptable, so a translator
 * can retry with the error. Throws a 422 (see {@link notUnderstood}) when the question cannot be translated.
 */
export interface Translator {
  readonly name: 'embedded' | 'llm';
  translate(question: string, schema: SchemaContext, check: (sql: string) => Promise<void>): Promise<Translation>;
}

/** The names of the tables a context knows, for error messages. */
export const knownTables = (schema: SchemaContext): string =>
  schema.tables.length === 0
    ? 'none (no sources are configured)'
    : schema.tables.map((t) => `${t.source}.${t.name}`).join(', ');

/** 422: the question could not be translated; `reason` says why, the known tables are listed. */
export function notUnderstood(reason: string, schema: SchemaContext): HttpError {
  return new HttpError(422, `${reason}. Known tables: ${knownTables(schema)}`, 'QUESTION_NOT_UNDERSTOOD');
}

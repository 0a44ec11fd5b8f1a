import { httpError } from '../../core/errors.js';
import { isStatementError, NotUnderstood } from '../../core/domain-errors.js';
import type { QueryOutcome } from '../engine/query-engine.js';
import type { NaturalLanguageResult } from '../../contract/index.js';
import type { QueryService } from '../query-service.js';
import { answerSentence } from './answer.js';
import { EmbeddedTranslator, maxQuestionLength } from './embedded-translator.js';
import { LlmTranslator, type LlmSettings } from './llm-translator.js';
import type { NlSettings } from './nl-settings.js';
import { buildSchemaContext, type SchemaContext, type SchemaLog } from './schema-context.js';
import type { Translation, Translator } from './translator.js';
import { inSpan } from '../../observability/tracing.js';

/** `name` (`table.column`, `source.table.column`) as the translator takes `prefer`; 400 when no source has it. */
function preferredColumn(schema: SchemaContext, name: string): string {
  const parts = name.toLowerCase().split('.');
  const found = schema.tables.some(
    (t) =>
      (parts.length === 2 || (parts.length === 3 && t.source.toLowerCase() === parts[0])) &&
      t.name.toLowerCase() === parts[parts.length - 2] &&
      t.columns.some((c) => c.name.toLowerCase() === parts[parts.length - 1]),
  );
  if (!found) throw httpError('NL_PREFER_UNKNOWN', [name]);
  return parts.slice(-2).join('.');
}

/** How long a schema context (tables, sample values) is reused before it is read again. */
const schemaLifetimeMs = 5 * 60_000;

/**
 * Answers questions: translates them (embedded or LLM translator), runs the SQL through the query
 * service's engine with its sandbox and limits, and words an answer from the rows.
 */
export class NaturalLanguageService {
  private schema?: { context: Promise<SchemaContext>; at: number };
  readonly translator: Translator;

  constructor(
    private readonly service: QueryService,
    private readonly settings: NlSettings,
    llm?: LlmSettings,
    private readonly log?: SchemaLog,
  ) {
    this.translator = llm ? new LlmTranslator(llm) : new EmbeddedTranslator();
  }

  /** The schema context, read on first use and again once it is older than a few minutes. */
  schemaContext(): Promise<SchemaContext> {
    if (!this.schema || Date.now() - this.schema.at > schemaLifetimeMs) {
      const context = buildSchemaContext(
        this.service.catalog,
        this.settings,
        (sql) => this.service.sql(sql, undefined, 'natural-language'),
        this.service.setup.limits.timeoutMs,
        this.log,
      );
      this.schema = { context, at: Date.now() };
      context.catch(() => (this.schema = undefined));
    }
    return this.schema.context;
  }

  /**
   * "Which year has the most concerts?" when two years have as many: the first of a ranking is not one row, and
   * picking one by another order would be a confident guess, so the question is refused with the tied rows named.
   */
  private async refuseTies({ sql, limit }: NonNullable<Translation['tieCheck']>, signal?: AbortSignal): Promise<void> {
    const { rows, columns } = await this.service.sql(sql, signal, 'natural-language');
    const last = rows[limit - 1];
    const next = rows[limit];
    if (!last || !next || JSON.stringify(last.tie_rank) !== JSON.stringify(next.tie_rank)) return;
    const label = (row: Record<string, unknown>): string => String(row[columns[0].name]);
    throw new NotUnderstood(
      `"${label(last)}" and "${label(next)}" tie (${columns[0].name}, ranked by the same ${String(next.tie_rank)}) ` +
        `at the ${limit === 1 ? 'top' : `cut after ${limit} rows`}; ask for more rows (for example "the top ` +
        `${limit + 1}") to see every tied one`,
    );
  }

  /**
   * How many rows `sql` matches, counted apart when a limit cut its result, so the answer can say "3,000 rows match;
   * 430 shown"; undefined when the count does not run (the answer then says "more than 430").
   */
  private async countMatches(sql: string, signal?: AbortSignal): Promise<number | undefined> {
    try {
      const { rows, columns } = await this.service.sql(
        `SELECT count(*) AS matched FROM (${sql}) AS cut`,
        signal,
        'natural-language',
      );
      const matched = Number(rows[0]?.[columns[0].name]);
      return Number.isSafeInteger(matched) ? matched : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Translates and runs `question`, a word that fits several columns equally well going to the one `prefer` names
   * (`table.column`, the asker's pick among the candidates of a 422 `NL_AMBIGUOUS`); throws 400 (empty, or a
   * `prefer` no source has), 413 (too long), {@link NotUnderstood}, or the engine's errors. `signal` (the asker
   * leaving) interrupts the queries it runs.
   */
  async ask(
    question: string,
    prefer: readonly string[] = [],
    signal?: AbortSignal,
  ): Promise<NaturalLanguageResult & { outcome: QueryOutcome }> {
    if (question.trim() === '') throw httpError('NL_QUESTION_EMPTY');
    if (question.length > maxQuestionLength)
      throw httpError('NL_QUESTION_TOO_LONG', [question.length, maxQuestionLength]);
    const schema = await this.schemaContext();
    const preferred = prefer.map((name) => preferredColumn(schema, name));
    let outcome: QueryOutcome | undefined;
    // The check runs the candidate: a statement that fails to parse or to run goes back to the translator.
    const check = async (sql: string): Promise<void> => {
      try {
        outcome = await this.service.sql(sql, signal, 'natural-language');
      } catch (error) {
        // The embedded translator does not retry: its statement not running means it misread the question.
        const doesNotRun = isStatementError(error);
        if (doesNotRun && this.translator.name === 'embedded')
          throw new NotUnderstood(
            `The question was translated into a query that does not run (${error.message}); rephrase it`,
          );
        throw error;
      }
    };
    const probe = (sql: string) => this.service.sql(sql, signal, 'natural-language');
    // The span holds the translator's checks and probes: the queries it ran to choose its statement.
    const translation = await inSpan('natural-language translation', () =>
      this.translator.translate(question, schema, check, probe, { prefer: preferred }),
    );
    if (!outcome) throw new Error('the translator returned without running its query');
    if (translation.tieCheck && outcome.rows.length === translation.tieCheck.limit)
      await this.refuseTies(translation.tieCheck, signal);
    const matched = outcome.truncated ? await this.countMatches(translation.sql, signal) : undefined;
    return {
      answer: answerSentence(
        outcome,
        translation.meaning,
        translation.grouped ?? /\bgroup\s+by\b/i.test(translation.sql),
        translation.asked,
        matched,
      ),
      generated_query: translation.sql,
      results: outcome.rows,
      columns: outcome.columns,
      ...(translation.picked
        ? { synonyms: translation.picked.map((p) => ({ words: [p.words], means: p.means, value: p.value })) }
        : {}),
      outcome,
    };
  }
}

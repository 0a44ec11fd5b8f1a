import { HttpError } from '../../core/errors.js';
import type { QueryOutcome } from '../engine/query-engine.js';
import type { NaturalLanguageResult } from '../../contract/index.js';
import type { QueryService } from '../query-service.js';
import { answerSentence } from './answer.js';
import { EmbeddedTranslator, maxQuestionLength } from './embedded-translator.js';
import { LlmTranslator, type LlmSettings } from './llm-translator.js';
import type { NlSettings } from './nl-settings.js';
import { buildSchemaContext, type SchemaContext, type SchemaLog } from './schema-context.js';
import type { Translator } from './translator.js';

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
        (sql) => this.service.sql(sql),
        this.service.setup.limits.timeoutMs,
        this.log,
      );
      this.schema = { context, at: Date.now() };
      context.catch(() => (this.schema = undefined));
    }
    return this.schema.context;
  }

  /** Translates and runs `question`; throws 413 (too long), 422 (not understood), or the engine's errors. */
  async ask(question: string): Promise<NaturalLanguageResult & { outcome: QueryOutcome }> {
    if (question.trim() === '') throw new HttpError(400, 'The question is empty', 'BAD_REQUEST');
    if (question.length > maxQuestionLength)
      throw new HttpError(
        413,
        `The question is ${question.length} characters long; the limit is ${maxQuestionLength}`,
        'QUESTION_TOO_LONG',
      );
    const schema = await this.schemaContext();
    let outcome: QueryOutcome | undefined;
    // The check runs the candidate: a statement that fails to parse or to run goes back to the translator.
    const check = async (sql: string): Promise<void> => {
      try {
        outcome = await this.service.sql(sql);
      } catch (error) {
        if (
          error instanceof HttpError &&
          this.translator.name === 'embedded' &&
          (error.status === 400 || error.status === 404)
        ) {
          throw new HttpError(
            422,
            `The question was translated into a query that does not run (${error.detail}); rephrase it`,
            'QUESTION_NOT_UNDERSTOOD',
          );
        }
        throw error;
      }
    };
    let translation;
    try {
      translation = await this.translator.translate(question, schema, check);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      // A question is user input: a translator fault is reported as not understood, never as a 500.
      throw new HttpError(
        422,
        `The question could not be translated (${(error as Error).message})`,
        'QUESTION_NOT_UNDERSTOOD',
      );
    }
    if (!outcome) throw new Error('the translator returned without running its query');
    return {
      answer: answerSentence(
        outcome,
        translation.meaning,
        translation.grouped ?? /\bgroup\s+by\b/i.test(translation.sql),
      ),
      generated_query: translation.sql,
      results: outcome.rows,
      outcome,
    };
  }
}

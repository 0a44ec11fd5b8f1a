import { translateBoth } from './both-question.js';
import { translateNegation } from './negation-question.js';
import { NotUnderstood } from '../../core/domain-errors.js';
import type { PlanAddition, PlannedQuery } from './plan-parts.js';
import { QuestionPlan } from './question-plan.js';
import { translateRatio } from './ratio-question.js';
import type { SchemaContext } from './schema-context.js';
import { SchemaIndex } from './schema-linker.js';
import {
  notUnderstood,
  UnlinkedWords,
  type TranslateOptions,
  type Translation,
  type Translator,
} from './translator.js';
import { ValueLookup, type LookupRun } from './value-lookup.js';

/** Longest question the embedded translator reads; longer ones are refused before any work. */
export const maxQuestionLength = 2000;

const throwNotUnderstood = (reason: string, schema: SchemaContext): never => {
  throw notUnderstood(reason, schema);
};

/**
 * The embedded translator (DESIGN.md §6): deterministic, no network. It reads the phrases that shape
 * a query (aggregates, grouping, comparisons, dates, top-N, ordering), links every other word to a
 * table, column, sampled value or synonym, and builds one SELECT joining tables along relationships.
 * A word it cannot link makes it refuse with 422 rather than guess.
 */
export class EmbeddedTranslator implements Translator {
  readonly name = 'embedded';
  private indexed?: { schema: SchemaContext; index: SchemaIndex };
  private readonly values = new ValueLookup();

  async translate(
    question: string,
    schema: SchemaContext,
    check: (sql: string) => Promise<void>,
    lookup?: LookupRun,
    options: TranslateOptions = {},
  ): Promise<Translation> {
    if (question.length > maxQuestionLength)
      throw notUnderstood(
        `The question is ${question.length} characters long; the embedded translator reads at most ` +
          `${maxQuestionLength}`,
        schema,
      );
    let translation: Translation;
    try {
      translation = this.plan(question, schema, options.prefer);
    } catch (error) {
      // Words linked to nothing may be values the sample missed: looked up in the source once, then planned again.
      if (!(error instanceof UnlinkedWords) || !lookup || !(await this.values.find(schema, error.phrases, lookup)))
        throw error;
      this.indexed = undefined;
      translation = this.plan(question, schema, options.prefer);
    }
    await check(translation.sql);
    return translation;
  }

  /** The SQL of `question` (a ratio, or one plan), over the index of the schema's names and values. */
  private plan(question: string, schema: SchemaContext, prefer?: readonly string[]): Translation {
    if (this.indexed?.schema !== schema) this.indexed = { schema, index: new SchemaIndex(schema) };
    const { index } = this.indexed;
    const plan = (text: string, addition?: PlanAddition): PlannedQuery =>
      new QuestionPlan(text, schema, index, prefer).build(addition);
    const refuse = (reason: string): never => throwNotUnderstood(reason, schema);
    const ratio = translateRatio(question, plan, refuse);
    if (ratio) return ratio;
    try {
      return plan(question);
    } catch (error) {
      // "stadiums without any concert", "concerts in both 2014 and 2015": what one plan cannot read is tried as rows
      // of one plan kept or left out by the keys of another.
      if (!(error instanceof NotUnderstood)) throw error;
      for (const composed of [translateNegation, translateBoth]) {
        try {
          const translation = composed(question, schema, plan, refuse);
          if (translation) return translation;
        } catch (composedError) {
          if (!(composedError instanceof NotUnderstood)) throw composedError;
        }
      }
      throw error;
    }
  }
}

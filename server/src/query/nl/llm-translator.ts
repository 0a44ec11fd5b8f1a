import { httpError } from '../../core/errors.js';
import { isStatementError } from '../../core/domain-errors.js';
import type { SchemaContext } from './schema-context.js';
import { notUnderstood, type Translation, type Translator } from './translator.js';

export interface LlmSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Longest wait for one completion. */
  timeoutMs?: number;
}

interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Sample values shown per text column: enough to show spelling and codes, short enough for a prompt. */
const promptValues = 12;

/** The schema as the prompt shows it: one line per table with typed columns and sample values. */
export function describeSchema(schema: SchemaContext): string {
  const lines = schema.tables.map((t) => {
    const columns = t.columns.map((c) => {
      const values = c.values
        .slice(0, promptValues)
        .map((v) => JSON.stringify(v))
        .join(', ');
      return `${c.name} ${c.type}${values ? ` (e.g. ${values})` : ''}`;
    });
    return `${t.source}.${t.name}(${columns.join(', ')})`;
  });
  const relationships = schema.relationships.map(
    (r) => `${r.from.table}.${r.from.column} = ${r.to.table}.${r.to.column}`,
  );
  return `Tables:\n${lines.join('\n')}${relationships.length ? `\nJoin keys:\n${relationships.join('\n')}` : ''}`;
}

/** The SQL of a model's reply: a fenced ```sql block, else the text from the first SELECT/WITH. */
export function extractSql(reply: string): string | undefined {
  const fenced = /```(?:sql)?\s*([\s\S]*?)```/i.exec(reply);
  const text = fenced ? fenced[1] : (/\b(SELECT|WITH)\b[\s\S]*/i.exec(reply)?.[0] ?? '');
  const sql = text.trim().replace(/;\s*$/, '');
  return sql === '' ? undefined : sql;
}

const systemPrompt =
  'You translate questions into one DuckDB SQL SELECT statement over the tables listed. Name every table as ' +
  '<source>.<table> exactly as listed. Use only listed columns. Never write anything but a single read-only ' +
  'SELECT (or WITH ... SELECT). Answer with the SQL in one ```sql fenced block and nothing else.';

/**
 * An OpenAI-compatible chat-completions translator (OpenAI, Ollama, vLLM): the prompt holds the schema
 * with sample values; the SQL is taken from the reply, checked, and on a failed check asked for once more
 * with the error. A reply still unusable after the retry is `NotUnderstood` (422); an unreachable
 * model a 502.
 */
export class LlmTranslator implements Translator {
  readonly name = 'llm';

  constructor(private readonly settings: LlmSettings) {}

  async translate(
    question: string,
    schema: SchemaContext,
    check: (sql: string) => Promise<void>,
  ): Promise<Translation> {
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt },
      {
        role: 'user',
        content: `${describeSchema(schema)}\n\nQuestion: ${question}`,
      },
    ];
    let lastError = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      const reply = await this.complete(messages);
      const sql = extractSql(reply);
      if (!sql) lastError = 'the reply held no SQL statement';
      else {
        try {
          await check(sql);
          return { sql };
        } catch (error) {
          // A statement that does not run goes back to the model; anything else is not the model's to fix.
          if (!isStatementError(error)) throw error;
          lastError = error.message;
        }
      }
      messages.push(
        { role: 'assistant', content: reply },
        {
          role: 'user',
          content:
            `That SQL is not acceptable: ${lastError}. Reply with a corrected single SELECT statement in ` +
            `a \`\`\`sql block.`,
        },
      );
    }
    throw notUnderstood(`The language model did not produce a usable query (${lastError})`, schema);
  }

  private async complete(messages: ChatMessage[]): Promise<string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
    };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    let response: Response;
    try {
      response = await fetch(`${this.settings.baseUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: this.settings.model,
          messages,
          temperature: 0,
        }),
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? 60_000),
      });
    } catch (error) {
      throw httpError('NL_LLM_UNAVAILABLE', [
        `at ${this.settings.baseUrl} could not be reached: ${(error as Error).message}`,
      ]);
    }
    if (!response.ok) throw httpError('NL_LLM_UNAVAILABLE', [`answered HTTP ${response.status}`]);
    const body = (await response.json().catch(() => undefined)) as
      { choices?: { message?: { content?: unknown } }[] } | undefined;
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw httpError('NL_LLM_UNAVAILABLE', ['answered without a message']);
    return content;
  }
}

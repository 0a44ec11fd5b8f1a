/**
 * Numbers computed from a column that the question names by what they are: "the average age of the patients" where no
 * column holds an age (the whole years since a birth date), "the length of the journal name" (its characters).
 */
import type { Token } from './question-words.js';
import type { SchemaColumn, SchemaContext, SchemaTable } from './schema-context.js';
import type { Link } from './schema-linker.js';

/** Names of date columns that hold a birth date (`date_of_birth`, `birth_date`, `dob`, `birthday`). */
const birthName = /birth|^dob$|_dob$|^born/i;

/** A BIGINT number column computed from `source` by `sql` (given the source's SQL reference), named `name`. */
function computedNumber(name: string, source: SchemaColumn, sql: (reference: string) => string): SchemaColumn {
  return { name, type: 'BIGINT', kind: 'number', values: [], derived: { of: [source], sql: ([s]) => sql(s) } };
}

/** The whole years from `birth` to today (AGE's year part), as a number column a question can average or rank. */
export function ageFrom(birth: SchemaColumn): SchemaColumn {
  return computedNumber(`age_from_${birth.name}`, birth, (b) => `date_sub('year', ${b}, current_date)`);
}

/**
 * A word "age" (or "ages") no link and no grammar cue claimed (`free`), linked to the age computed from the one birth
 * date column among the tables the question's other words name (else among all tables). Without exactly one such
 * column the word stays unlinked, and the question refused. A table with its own age column is linked by name first
 * and never comes here.
 */
export function linkBirthAge(
  tokens: readonly Token[],
  links: readonly Link[],
  schema: SchemaContext,
  free: (k: number) => boolean,
): Link[] {
  const at = tokens.findIndex((t, k) => t.lemma === 'age' && free(k) && !links.some((l) => l.start <= k && k < l.end));
  if (at < 0) return [...links];
  const births = (tables: readonly SchemaTable[]) =>
    tables.flatMap((table) =>
      table.columns.filter((c) => c.kind === 'date' && birthName.test(c.name)).map((column) => ({ table, column })),
    );
  const named = [...new Set(links.flatMap((l) => l.candidates.map((c) => c.table)))];
  const nearby = births(named);
  const found = nearby.length > 0 ? nearby : births(schema.tables);
  if (found.length !== 1) return [...links];
  const [{ table, column }] = found;
  const age: Link = { start: at, end: at + 1, candidates: [{ kind: 'column', table, column: ageFrom(column) }] };
  return [...links, age].sort((a, b) => a.start - b.start);
}

/** The number of characters of a text column's values. */
export function lengthOf(text: SchemaColumn): SchemaColumn {
  return computedNumber(`length_of_${text.name}`, text, (t) => `length(${t})`);
}

/**
 * "the length of the journal name": "length of" (and "the") right before a link that can be a text column, when
 * nothing else claimed "length" (no column is named so): one link, from "length" to the column's end, to its length.
 * A link that cannot be a text column (the pages, a number) leaves "length" unlinked, and the question refused.
 */
export function linkTextLength(tokens: readonly Token[], links: readonly Link[], free: (k: number) => boolean): Link[] {
  const at = tokens.findIndex(
    (t, k) => t.text === 'length' && tokens[k + 1]?.text === 'of' && free(k) && !links.some((l) => l.start === k),
  );
  if (at < 0) return [...links];
  const columnAt = at + (tokens[at + 2]?.text === 'the' ? 3 : 2);
  const of = links.find((l) => l.start === columnAt);
  const text = of?.candidates.find(
    (c): c is Extract<Link['candidates'][number], { kind: 'column' }> =>
      c.kind === 'column' && c.column.kind === 'text',
  );
  if (!of || !text) return [...links];
  const length: Link = {
    start: at,
    end: of.end,
    candidates: [{ kind: 'column', table: text.table, column: lengthOf(text.column) }],
  };
  return [...links.filter((l) => l !== of), length].sort((a, b) => a.start - b.start);
}

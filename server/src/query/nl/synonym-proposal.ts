import { isMap, isSeq, parseDocument, type YAMLSeq } from 'yaml';
import { httpError } from '../../core/errors.js';
import type { SynonymSuggestion } from '../../contract/index.js';
import type { SchemaContext } from './schema-context.js';

/** The text of sources.yaml with one synonym added, and the lines that changed. */
export interface ProposedText {
  /** The lines added (with the section headers created for them), as they appear in `content`. */
  added: string;
  content: string;
}

/** `synonym` checked against the schema: words given, `means` a column some source has; 400 otherwise. */
function checkedEntry(schema: SchemaContext, synonym: SynonymSuggestion): Record<string, unknown> {
  const words = synonym.words.map((w) => w.trim().toLowerCase()).filter((w) => w !== '');
  if (words.length === 0) throw httpError('NL_SYNONYM_INVALID', ['it has no words']);
  const [source, table, column, ...rest] = synonym.means.split('.');
  const known = schema.tables.some(
    (t) =>
      t.source === source &&
      t.name === table &&
      (column === undefined ? synonym.value === undefined : t.columns.some((c) => c.name === column)),
  );
  if (!known || rest.length > 0)
    throw httpError('NL_SYNONYM_INVALID', [`"${synonym.means}" is not a source.table.column of the sources`]);
  return { words, means: synonym.means, ...(synonym.value === undefined ? {} : { value: synonym.value }) };
}

/** The lines of `after` between the lines it shares with `before` at its start and at its end. */
function changedLines(before: string, after: string): string {
  const old = before.split('\n');
  const now = after.split('\n');
  let start = 0;
  while (start < old.length && start < now.length && old[start] === now[start]) start++;
  let end = 0;
  while (
    end < old.length - start &&
    end < now.length - start &&
    old[old.length - 1 - end] === now[now.length - 1 - end]
  )
    end++;
  return now.slice(start, now.length - end).join('\n');
}

/**
 * sources.yaml's `text` with `synonym` appended to `natural_language.synonyms` (both created when missing), through
 * the YAML document model so that the file's comments and order stay; the text unchanged when the same synonym is
 * already declared. 400 when the synonym names no column of `schema` or the text is not YAML.
 */
export function proposeSynonym(text: string, schema: SchemaContext, synonym: SynonymSuggestion): ProposedText {
  const entry = checkedEntry(schema, synonym);
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw httpError('NL_SYNONYM_INVALID', [`sources.yaml: ${doc.errors[0].message}`]);
  if (doc.contents !== null && !isMap(doc.contents))
    throw httpError('NL_SYNONYM_INVALID', ['sources.yaml is not a mapping']);
  const path = ['natural_language', 'synonyms'];
  const existing: unknown = doc.getIn(path);
  if (existing !== undefined && existing !== null && !isSeq(existing))
    throw httpError('NL_SYNONYM_INVALID', ['natural_language.synonyms in sources.yaml is not a list']);
  const declared = isSeq(existing) ? (existing.toJSON() as unknown[]) : [];
  if (declared.some((d) => JSON.stringify(d) === JSON.stringify(entry))) return { added: '', content: text };
  const node = doc.createNode(entry);
  // `words: [malmö]`, as docs/natural-language.md writes synonyms.
  (node.get('words', true) as unknown as YAMLSeq).flow = true;
  const section: unknown = doc.get('natural_language');
  if (isSeq(existing)) existing.add(node);
  else if (section === null || section === undefined) doc.set('natural_language', doc.createNode({ synonyms: [node] }));
  else if (isMap(section)) section.set('synonyms', doc.createNode([node]));
  else throw httpError('NL_SYNONYM_INVALID', ['natural_language in sources.yaml is not a mapping']);
  const content = doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
  return { added: changedLines(text, content).trimEnd(), content };
}

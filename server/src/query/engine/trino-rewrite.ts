/** Rewrites `<source>.<table>` references of a parsed query into Trino's `<catalog>.<schema>.<table>`. */

import { charOffset } from '../../core/text-position.js';
import { sqlIdent } from '../../core/sql-text.js';

type AstNode = Record<string, unknown>;

const isNode = (value: unknown): value is AstNode =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** String offsets of every qualified base-table reference, with the source name it names. */
function tableLocations(sql: string, root: unknown): { offset: number; source: string }[] {
  const found: { offset: number; source: string }[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isNode(node)) {
      if (node.type === 'BASE_TABLE') {
        const source = String(node.catalog_name || node.schema_name || '');
        const offset = charOffset(sql, Number(node.query_location));
        if (source && Number.isSafeInteger(Number(node.query_location))) found.push({ offset, source });
      }
      Object.values(node).forEach(visit);
    }
  };
  visit(root);
  return found;
}

/** Reads a dotted name (`a.b`, `"a"."b"`, `a . "b"`) at `offset`: its parts and where it ends. */
function dottedName(sql: string, offset: number): { parts: string[]; end: number } | undefined {
  const parts: string[] = [];
  let i = offset;
  for (;;) {
    if (sql[i] === '"') {
      let value = '';
      i++;
      while (i < sql.length) {
        if (sql[i] === '"' && sql[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (sql[i] === '"') break;
        else value += sql[i++];
      }
      if (i >= sql.length) return undefined;
      i++;
      parts.push(value);
    } else {
      const match = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i));
      if (!match) return undefined;
      parts.push(match[0]);
      i += match[0].length;
    }
    const dot = /^\s*\.\s*/.exec(sql.slice(i));
    if (!dot) return { parts, end: i };
    i += dot[0].length;
  }
}

/**
 * Replaces each reference to a source in `sql` by the Trino catalog and schema `mapping` gives that
 * source, leaving everything else of the text as it was. `root` is the query's syntax tree.
 */
export function rewriteForTrino(
  sql: string,
  root: unknown,
  mapping: (source: string) => { catalog: string; schema: string } | undefined,
): string {
  const edits = tableLocations(sql, root)
    .map(({ offset, source }) => {
      const name = dottedName(sql, offset);
      const target = mapping(source);
      if (!name || !target || name.parts.length < 2 || name.parts[0].toLowerCase() !== source.toLowerCase())
        return undefined;
      const table = name.parts[name.parts.length - 1];
      return {
        start: offset,
        end: name.end,
        text: `${sqlIdent(target.catalog)}.${sqlIdent(target.schema)}.${sqlIdent(table)}`,
      };
    })
    .filter((edit): edit is { start: number; end: number; text: string } => edit !== undefined)
    .sort((a, b) => b.start - a.start);
  let result = sql;
  for (const edit of edits) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

import { postgreSplitterOptions, splitQuery } from 'dbgate-query-splitter';
import type { ErrorPosition } from '../api/client.js';

/** One statement of the editor's text: its text and where it starts (1-based line and column, as Monaco counts). */
export interface Statement {
  text: string;
  /** Offset of its first character in the whole text. */
  offset: number;
  line: number;
  column: number;
}

/** What to run: the selection, the statement at the cursor, or every statement (a script). */
export interface RunRequest {
  /** The selected range (offsets), when something is selected. */
  selection?: { start: number; end: number };
  /** The cursor's offset. */
  cursor: number;
  script: boolean;
}

// PostgreSQL's rules fit DuckDB and Trino: '…' strings with '' escapes, "…" identifiers, -- and /* */ comments,
// $$…$$ and $tag$…$tag$ bodies.
const options = { ...postgreSplitterOptions, returnRichInfo: true };

/** Where `offset` is in `text` (1-based line and column). */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

function statementOf(text: string, start: number, end: number): Statement {
  return { text: text.slice(start, end), offset: start, ...positionOf(text, start) };
}

/**
 * The SQL statements of `text`, split on the semicolons outside strings, quoted names, comments and dollar-quoted
 * bodies; a chunk holding only comments is not a statement.
 */
export function splitSql(text: string): Statement[] {
  return splitQuery(text, options).flatMap((item) =>
    typeof item !== 'string' && item.trimStart && item.trimEnd && hasCode(item.text)
      ? [statementOf(text, item.trimStart.position, item.trimEnd.position)]
      : [],
  );
}

/** Blanks and comments at the start of a statement. */
const leadingComments = /^(?:\s+|--[^\n]*|\/\*[\s\S]*?\*\/)*/;

/** False when `chunk` is only comments and blanks. */
function hasCode(chunk: string): boolean {
  return chunk.replace(leadingComments, '') !== '';
}

/**
 * The statements `request` asks to run from `text` in `language`: the selection as it is (as a script: its
 * statements), the whole text of a
 * SPARQL query (one statement), every SQL statement for a script, else the SQL statement under the cursor (or the
 * nearest one before it, when the cursor is between statements).
 */
export function statementsToRun(text: string, language: 'sql' | 'sparql', request: RunRequest): Statement[] {
  const { selection } = request;
  if (selection && selection.end > selection.start) {
    const chosen = statementOf(text, selection.start, selection.end);
    if (request.script && language === 'sql')
      return splitSql(chosen.text).map((s) => ({ ...s, offset: chosen.offset + s.offset, ...inWholeText(s, chosen) }));
    return chosen.text.trim() ? [chosen] : [];
  }
  if (language === 'sparql') return text.trim() ? [statementOf(text, 0, text.length)] : [];
  const statements = splitSql(text);
  if (request.script) return statements;
  const before = statements.filter((s) => s.offset <= request.cursor);
  const at = before.at(-1) ?? statements[0];
  return at ? [at] : [];
}

/** A position the server reported in `statement` as a position in the whole text the statement was taken from. */
export function inWholeText(position: ErrorPosition, statement: Statement): ErrorPosition {
  if (position.line > 1) return { line: statement.line + position.line - 1, column: position.column };
  return { line: statement.line, column: statement.column + position.column - 1 };
}

import type { StatementPosition } from '../../core/domain-errors.js';

/** DuckDB's context of an error: `LINE n: <the line, maybe cut with ...>` and a caret under the fault. */
const context = /\n(LINE (\d+): )(.*)\n( *)\^\s*$/;
const cut = '...';

/**
 * Where DuckDB's error `message` about `sql` points: its `LINE n:` context line and caret, found in line n of `sql`
 * (DuckDB cuts a long line to a window around the fault, marked `...`). Undefined when the message has no such
 * context or it is not in `sql`.
 */
export function duckdbErrorPosition(message: string, sql: string): StatementPosition | undefined {
  const match = context.exec(message);
  if (!match) return undefined;
  const [, prefix, lineNumber, shown, caretPad] = match;
  const line = Number(lineNumber);
  const lines = sql.split('\n');
  if (line < 1 || line > lines.length) return undefined;
  const leading = shown.startsWith(cut) ? cut.length : 0;
  const trailing = shown.endsWith(cut) && shown.length > leading ? cut.length : 0;
  const core = shown.slice(leading, shown.length - trailing);
  const start = leading ? lines[line - 1].indexOf(core) : 0;
  if (start < 0 || !lines[line - 1].startsWith(core, start)) return undefined;
  const column = start + caretPad.length - prefix.length - leading + 1;
  if (column < 1 || column > lines[line - 1].length + 1) return undefined;
  const position = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
  return { position, line, column };
}

import type { ResultColumn, ResultRow } from '../../../server/src/contract/index.js';
import { cellText } from './result-format.js';

/** The narrowest and widest a result column is drawn, in characters of the grid's monospace font. */
const minChars = 6;
const maxChars = 40;
/** A cell's padding and border (results-cell in query.css). */
const cellChrome = '17px';

/**
 * The grid columns of a page of results: the row number, then each column as wide as its header (name, type
 * and sort mark) or its longest value on the page, within bounds; a longer value is cut with an ellipsis and
 * shown whole in its tooltip. Fixed widths, so the header and every row, each a grid of its own, line up
 * however far the result is scrolled sideways.
 */
export function gridColumns(columns: ResultColumn[], rows: ResultRow[], total: number): string {
  const index = `calc(${String(total).length + 2}ch + 16px)`;
  const widths = columns.map((c) => {
    const longest = rows.reduce((widest, row) => Math.max(widest, cellText(row[c.name]).length), 0);
    // The header's bold proportional letters run wider than the values' monospace ones.
    const header = Math.ceil((c.name.length + 1 + c.type.length) * 1.2) + 2;
    const chars = Math.min(maxChars, Math.max(minChars, header, longest));
    return `calc(${chars}ch + ${cellChrome})`;
  });
  return [index, ...widths].join(' ');
}

/**
 * Execution accuracy: do a generated query's rows equal the gold query's? Rows are compared as
 * multisets (order ignored), values normalised (numbers to 4 decimals, text trimmed), and columns
 * matched by their values rather than their names, as Spider's and defog's evaluations do.
 */

export type Cell = unknown;

/** A value as compared: numbers (also numeric text) rounded, everything else as text. */
export function normaliseCell(value: Cell): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? '1' : '0';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value).trim();
  if (/^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(text)) return String(Math.round(Number(text) * 10_000) / 10_000);
  // Midnight is dropped whichever way the time was written: ISO from the engine, with a space from gold rows.
  return text.replace(/[T ]00:00:00$/, '').replace('T', ' ');
}

const sortedColumn = (rows: string[][], index: number): string =>
  rows
    .map((r) => r[index])
    .sort()
    .join('\u0001');

/**
 * Whether `generated` holds the rows of `gold`: the same number of rows, every gold column matched by a
 * distinct generated column with the same values, and the rows equal as a multiset over those columns.
 * With `exactColumns`, the generated result may not have extra columns (Spider); without, extra
 * columns are allowed (defog's subset match).
 */
export function sameResult(gold: Cell[][], generated: Cell[][], exactColumns: boolean): boolean {
  if (gold.length !== generated.length) return false;
  const g = gold.map((r) => r.map(normaliseCell));
  const x = generated.map((r) => r.map(normaliseCell));
  const goldWidth = g[0]?.length ?? 0;
  const generatedWidth = x[0]?.length ?? 0;
  if (gold.length === 0) return !exactColumns || goldWidth === generatedWidth || generatedWidth === 0;
  if (exactColumns ? goldWidth !== generatedWidth : generatedWidth < goldWidth) return false;
  const mapping: number[] = [];
  const taken = new Set<number>();
  for (let c = 0; c < goldWidth; c++) {
    const wanted = sortedColumn(g, c);
    const match = [...Array(generatedWidth).keys()].find((k) => !taken.has(k) && sortedColumn(x, k) === wanted);
    if (match === undefined) return false;
    mapping.push(match);
    taken.add(match);
  }
  const tuples = (rows: string[][], columns: number[]) =>
    rows.map((r) => columns.map((k) => r[k]).join('\u0001')).sort();
  const a = tuples(g, [...Array(goldWidth).keys()]);
  const b = tuples(x, mapping);
  return a.every((row, i) => row === b[i]);
}

/**
 * The gold queries a defog item stands for: alternatives separated by `;`, and `{a, b}` meaning "any
 * non-empty subset of these columns" (expanded to each single column and to all of them; a
 * `GROUP BY {}` takes the same columns).
 */
export function expandDefogGold(gold: string): string[] {
  const variants: string[] = [];
  for (const query of gold
    .split(';')
    .map((q) => q.trim())
    .filter(Boolean)) {
    const braces = /\{([^{}]+)\}/.exec(query);
    if (!braces) {
      variants.push(query);
      continue;
    }
    const items = braces[1].split(',').map((s) => s.trim());
    for (const choice of [items.join(', '), ...(items.length > 1 ? items : [])]) {
      variants.push(query.replace(/\{[^{}]+\}/, choice).replace(/\{\}/g, choice));
    }
  }
  return variants;
}

/** A `<source>.<table>` the user's SQL names. */
export interface TableReference {
  source: string;
  table: string;
}

/**
 * The `<source>.<table>` references of a query for the given sources (case-insensitive source names,
 * also `<source>.main.<table>`), outside string literals and comments; each pair once.
 */
export function tableReferences(sql: string, sources: readonly string[]): TableReference[] {
  const known = new Map(sources.map((s) => [s.toLowerCase(), s]));
  const code = sql.replace(/'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  const identifier = '("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)';
  const pattern = new RegExp(`(?<![A-Za-z0-9_$."])${identifier}\\s*\\.\\s*(?:main\\s*\\.\\s*)?${identifier}`, 'g');
  const unquote = (name: string) => (name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name);
  const found = new Map<string, TableReference>();
  for (const match of code.matchAll(pattern)) {
    const source = known.get(unquote(match[1]).toLowerCase());
    if (!source) continue;
    const table = unquote(match[2]);
    found.set(`${source}.${table.toLowerCase()}`, { source, table });
  }
  return [...found.values()];
}

/** Quotes an identifier for SQL when it is not a plain lower-case name. */
export function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

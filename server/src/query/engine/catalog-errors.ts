import { UnknownFunction, UnknownTable } from '../../core/domain-errors.js';
import type { Deadline } from '../deadline.js';
import type { SourceCatalog } from '../source-catalog.js';

/** Names in the embedded engine's own catalog: never offered in a hint, they are not the workspace's. */
const ENGINE_INTERNAL = /^(duckdb_|pg_|sqlite_|information_schema|main\b|memory\b|system\b|temp\b)/i;

/** DuckDB's "Did you mean" names, without the engine's own. */
function suggestions(message: string): string[] {
  return [...message.matchAll(/Did you mean "([^"]+)"/g)].map((m) => m[1]).filter((n) => !ENGINE_INTERNAL.test(n));
}

/**
 * A table named without its source (`FROM orders`): the detail says how tables are named and offers
 * `<source>.<table>` for each source that has that table, else the sources there are.
 */
async function unqualifiedTable(table: string, catalog: SourceCatalog, deadline: Deadline): Promise<UnknownTable> {
  const sources = catalog.list();
  const found = await Promise.all(
    sources.map(async (s) => {
      const info = await s.connector.describeTable(table, deadline).catch(() => undefined);
      return info ? `${s.definition.name}.${info.name}` : undefined;
    }),
  );
  const matches = found.filter((m): m is string => m !== undefined);
  const names = sources.map((s) => s.definition.name);
  const hint = matches.length
    ? `did you mean ${matches.join(' or ')}?`
    : `the sources here are ${names.join(', ') || 'none'}`;
  return new UnknownTable(`There is no table "${table}": name a table with its source, as <source>.<table>; ${hint}`);
}

/**
 * The domain error for a DuckDB catalog error of the user's SQL, in the workspace's terms: an unknown
 * function is {@link UnknownFunction}, an unknown table {@link UnknownTable} naming the workspace's
 * sources; no hint ever names one of the engine's internal tables or catalogs.
 */
export async function catalogError(
  message: string,
  catalog: SourceCatalog,
  deadline: Deadline,
): Promise<UnknownTable | UnknownFunction> {
  const fn =
    /^Catalog Error: (?:Scalar |Aggregate |Table |Pragma )?Function with name "?([^\s"!]+)"? does not exist/.exec(
      message,
    );
  if (fn) return new UnknownFunction(fn[1], suggestions(message));
  const table = /^Catalog Error: Table with name "?([^\s"!]+)"? does not exist/.exec(message);
  if (table) return unqualifiedTable(table[1], catalog, deadline);
  const firstLine = message.split('\n')[0];
  const nearest = suggestions(message);
  return new UnknownTable(firstLine + (nearest.length ? ` Did you mean "${nearest.join('" or "')}"?` : ''));
}

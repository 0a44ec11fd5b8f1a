/** The column names a logical table's rr:sqlQuery gives, read from its syntax tree (DuckDB's JSON form). */

interface SelectItem {
  class?: string;
  alias?: string;
  column_names?: string[];
}

interface QueryNode {
  type?: string;
  left?: QueryNode;
  select_list?: SelectItem[];
}

/**
 * The names of the SELECT list of `ast` (a set operation's from its first SELECT) that appear more than once, compared
 * as the engine compares names (without regard to case): R2RML calls such a query's column references ambiguous and
 * the mapping non-conforming, where the engine would quietly rename the second (`ID_1`). A `*` or an expression
 * without an alias, whose name the engine makes up, is not judged.
 */
export function duplicateSelectNames(ast: unknown): string[] {
  let node = ast as QueryNode;
  while (node.type === 'SET_OPERATION_NODE' && node.left) node = node.left;
  const seen = new Map<string, number>();
  for (const item of node.select_list ?? []) {
    const name = item.alias || (item.class === 'COLUMN_REF' ? item.column_names?.at(-1) : undefined);
    if (name) seen.set(name.toLowerCase(), (seen.get(name.toLowerCase()) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([name]) => name);
}

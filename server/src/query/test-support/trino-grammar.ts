import { readFileSync } from 'node:fs';
import { TrinoSQL } from 'dt-sql-parser';

/** Trino's functions by name, from the data file (its header says which documentation and version). */
export const trinoFunctions: ReadonlySet<string> = new Set(
  readFileSync(new URL('./trino-functions.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#')),
);

interface TreeNode {
  constructor: { name: string };
  children?: TreeNode[] | null;
  getText(): string;
  functionName?: () => { getText(): string } | null;
  KW_RECURSIVE?: () => unknown;
  identifier?: () => TreeNode;
  KW_UNION?: () => unknown;
  setQuantifier?: () => { KW_ALL(): unknown } | null;
}

const childrenNamed = (node: TreeNode, name: string) =>
  (node.children ?? []).filter((child) => child.constructor.name === name);
/** A name as Trino compares it: unquoted, lower case. */
const plainName = (text: string) => text.replace(/"/g, '').toLowerCase();

/** Whether a table reference below `node` names `table` (the query refers to itself). */
function refersTo(node: TreeNode, table: string): boolean {
  if (node.constructor.name === 'TableNameContext' && plainName(node.getText()) === table) return true;
  return (node.children ?? []).some((child) => refersTo(child, table));
}

/**
 * The WITH RECURSIVE queries that refer to themselves but are not one `... UNION ALL ...` (no WITH, ORDER BY or
 * LIMIT around it): Trino's analyzer refuses them though its grammar reads them (Trino's documentation, "WITH
 * RECURSIVE clause": the recursive query is a UNION ALL of the base relation and the recursion step).
 */
function recursiveQueriesRefused(node: TreeNode, refused: string[]): string[] {
  if (node.constructor.name === 'WithContext' && node.KW_RECURSIVE?.())
    for (const named of childrenNamed(node, 'NamedQueryContext')) {
      const name = plainName(named.identifier?.().getText() ?? '');
      const [query] = childrenNamed(named, 'QueryStatementContext');
      if (!query || !refersTo(query, name)) continue;
      const [body] = childrenNamed(query, 'QueryNoWithContext');
      const term = body?.children?.length === 1 ? body.children[0] : undefined;
      const unionAll =
        term?.constructor.name === 'SetOperationContext' && term.KW_UNION?.() && term.setQuantifier?.()?.KW_ALL();
      if (childrenNamed(query, 'WithContext').length > 0 || !unionAll)
        refused.push(
          `recursive WITH query ${name} is not a UNION ALL of a base relation and a step (Trino runs no other)`,
        );
    }
  for (const child of node.children ?? []) recursiveQueriesRefused(child, refused);
  return refused;
}

/** The names of every function call in a parse tree (the last part of a qualified name, lower case). */
function calledFunctions(node: TreeNode, found: Set<string>): Set<string> {
  if (node.constructor.name === 'FunctionCallContext') {
    const name = node.functionName?.()?.getText();
    if (name) found.add(name.split('.').pop()!.replace(/"/g, '').toLowerCase());
  }
  for (const child of node.children ?? []) calledFunctions(child, found);
  return found;
}

const trino = new TrinoSQL();
/** antlr4ng's PredictionMode.SLL and .LL: SLL is fast and exact on valid input; LL settles what SLL refused. */
const [sll, ll] = [0, 1];

/** Parses `sql` in one prediction mode: the tree and the syntax errors. */
function parseWith(sql: string, mode: number): { tree: TreeNode; syntax: string[] } {
  const syntax: string[] = [];
  const parser = trino.createParser(sql, (e) => syntax.push(`${e.startLine}:${e.startColumn} ${e.message}`));
  parser.interpreter.predictionMode = mode;
  parser.buildParseTrees = true;
  return { tree: parser.program() as unknown as TreeNode, syntax };
}

/**
 * Checks one statement as Trino would read it: syntax errors from an ANTLR parser of Trino's SqlBase
 * grammar (dt-sql-parser's TrinoSQL) and the recursive WITH forms Trino's analyzer refuses (both in
 * `syntax`), and the functions it calls that Trino's function list lacks.
 */
export function checkTrinoStatement(sql: string): { syntax: string[]; unknownFunctions: string[] } {
  let parsed = parseWith(sql, sll);
  if (parsed.syntax.length > 0) parsed = parseWith(sql, ll);
  if (parsed.syntax.length > 0) return { syntax: parsed.syntax, unknownFunctions: [] };
  const called = calledFunctions(parsed.tree, new Set());
  return {
    syntax: recursiveQueriesRefused(parsed.tree, []),
    unknownFunctions: [...called].filter((name) => !trinoFunctions.has(name)),
  };
}

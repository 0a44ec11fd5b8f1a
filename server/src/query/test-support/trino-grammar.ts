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
  functionName?: () => { getText(): string } | null;
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
 * grammar (dt-sql-parser's TrinoSQL), and the functions it calls that Trino's function list lacks.
 */
export function checkTrinoStatement(sql: string): { syntax: string[]; unknownFunctions: string[] } {
  let parsed = parseWith(sql, sll);
  if (parsed.syntax.length > 0) parsed = parseWith(sql, ll);
  if (parsed.syntax.length > 0) return { syntax: parsed.syntax, unknownFunctions: [] };
  const called = calledFunctions(parsed.tree, new Set());
  return { syntax: [], unknownFunctions: [...called].filter((name) => !trinoFunctions.has(name)) };
}

import type { Expression, Pattern, PropertyPath, Triple } from 'sparqljs';
import { compileExpression } from './expressions.js';
import { toTerm } from './value-sql.js';
import { hiddenPrefix, termSuffixes, type Rel, type SqlNames } from './relation.js';
import type { TermSql } from './term-sql.js';
import { select, subquery } from './sql-select.js';

type Node = Triple['subject'];

/** A path of any length (`p*`, `p+`, `p?`) between two nodes: the pattern `expandPropertyPaths` leaves for it. */
export interface ClosurePattern {
  type: 'closure';
  subject: Node;
  path: PropertyPath;
  object: Node;
}

export const isClosure = (pattern: Pattern | ClosurePattern): pattern is ClosurePattern => pattern.type === 'closure';

/** What a closure needs from the translation: names, the translation of its one step, and the depth bound. */
export interface ClosureContext {
  names: SqlNames;
  pattern: (pattern: Pattern) => Rel;
  maxDepth: number;
  /** Receives a query that returns a row when a path needs more than `maxDepth` steps. */
  addCheck: (sql: string) => void;
}

const variable = (value: string): Node => ({ termType: 'Variable', value }) as Node;

/** A query node's variable name (blank nodes are hidden variables, as in a basic graph pattern), or undefined. */
function variableName(node: Node): string | undefined {
  if (node.termType === 'Variable') return node.value;
  if (node.termType === 'BlankNode') return `${hiddenPrefix}${node.value}`;
  return undefined;
}

const kinds = ['t', 'v', 'd', 'l'] as const;
/** Two terms' columns (prefixes `x` and `y`) hold the same term. */
const same = (x: string, y: string) => kinds.map((s) => `${x}_${s} = ${y}_${s}`).join(' AND ');
/** The columns `alias.id_*` hold the constant `term`. */
const isConstant = (alias: string, id: string, term: TermSql) =>
  kinds.map((s) => `${alias}.${id}_${s} = ${term[s]}`).join(' AND ');

/**
 * A path of any length as a relation (SPARQL 1.1 §18.4, ALP): the pairs its step links through one or more steps
 * by a recursive query, with the zero-length pairs for `*` and `?` (the constant end itself, or every subject and
 * object of the graph when both ends are variables). The recursion joins with UNION ALL, the only form Trino runs,
 * and each step keeps its distinct pairs: as every row carries its depth, that is exactly what UNION would keep, so
 * a cycle adds at most one row per pair and depth. The recursion stops after `maxDepth` steps, and the check the
 * context receives tells whether a pair needed more, so a cut never goes unnoticed as a wrong answer.
 */
export function closureRel(p: ClosurePattern, ctx: ClosureContext): Rel {
  const { names } = ctx;
  const tag = names.alias();
  const S = `${hiddenPrefix}${tag}s`;
  const O = `${hiddenPrefix}${tag}o`;
  const [sid, oid] = [names.id(S), names.id(O)];
  const step = ctx.pattern({
    type: 'bgp',
    triples: [{ subject: variable(S), predicate: p.path.items[0] as Triple['predicate'], object: variable(O) }],
  });
  const copy = (alias: string, from: string, to = from) =>
    termSuffixes.map((s) => `${alias}.${names.id(from)}_${s} AS ${names.id(to)}_${s}`).join(', ');
  const [subjectConstant, objectConstant] = [constantTerm(p.subject), constantTerm(p.object)];

  const pairs = [sid, oid].flatMap((id) => termSuffixes.map((s) => `${id}_${s}`));
  const stepAlias = names.alias();
  const edges = select({
    distinct: true,
    items: [copy(stepAlias, S), copy(stepAlias, O)],
    from: subquery(step.sql, stepAlias),
  });
  const [e, r] = [names.alias(), names.alias()];
  const n = ctx.maxDepth;
  // The recursion starts at the constant subject when there is one, not at every node of the graph.
  const seed = select({
    items: [`${e}.*`, '1'],
    from: e,
    where: subjectConstant ? [isConstant(e, sid, subjectConstant)] : [],
  });
  const grow = select({
    distinct: true,
    items: [copy('x', S), copy('y', O), 'x.path_depth + 1'],
    from: `${r} x JOIN ${e} y ON ${same(`x.${oid}`, `y.${sid}`)}`,
    where: [`x.path_depth <= ${n}`],
  });
  const columns = pairs.join(', ');
  const recursive =
    `WITH RECURSIVE ${e}(${columns}) AS (${edges}), ` + `${r}(${columns}, path_depth) AS (${seed} UNION ALL ${grow}) `;
  const within = `${r}.path_depth <= ${n}`;
  // `?` is one step at most: no recursion, nothing to check.
  if (p.path.pathType !== '?')
    ctx.addCheck(
      `${recursive}SELECT 1 FROM ${r} x WHERE x.path_depth = ${n + 1} AND NOT EXISTS (SELECT 1 FROM ${r} y ` +
        `WHERE y.path_depth <= ${n} AND ${same(`x.${sid}`, `y.${sid}`)} AND ${same(`x.${oid}`, `y.${oid}`)}) LIMIT 1`,
    );
  const oneOrMore =
    p.path.pathType === '?'
      ? edges
      : `${recursive}${select({ distinct: true, items: [copy(r, S), copy(r, O)], from: r, where: [within] })}`;
  const all =
    p.path.pathType === '+'
      ? oneOrMore
      : // A WITH may open a sub-query but not a UNION's branch (Trino).
        `SELECT DISTINCT * FROM (${zeroLength()} UNION ALL SELECT * FROM (${oneOrMore}) w) z`;

  // The pairs bound to the pattern's own ends: a variable named, a constant compared, one variable on both ends.
  const a = names.alias();
  const vars = new Map<string, boolean>();
  const items: string[] = [];
  const where: string[] = [];
  const sName = variableName(p.subject);
  const oName = variableName(p.object);
  if (sName) {
    items.push(copy(a, S, sName));
    vars.set(sName, false);
  } else where.push(isConstant(a, sid, subjectConstant!));
  if (oName && oName === sName) where.push(same(`${a}.${sid}`, `${a}.${oid}`));
  else if (oName) {
    items.push(copy(a, O, oName));
    vars.set(oName, false);
  } else where.push(isConstant(a, oid, objectConstant!));
  return { sql: select({ items, from: subquery(all, a), where }), vars };

  /** The zero-length pairs: a constant end paired with itself, else every subject and object of the graph. */
  function zeroLength(): string {
    const constant = subjectConstant ?? objectConstant;
    if (constant) return select({ items: [names.termColumns(S, constant), names.termColumns(O, constant)] });
    const anyTriple = ctx.pattern({
      type: 'bgp',
      triples: [{ subject: variable(S), predicate: variable(`${hiddenPrefix}${tag}p`), object: variable(O) }],
    } as Pattern);
    const t = names.alias();
    const node = (end: string) =>
      select({ items: [copy(t, end, S), copy(t, end, O)], from: subquery(anyTriple.sql, t) });
    return `${node(S)} UNION ${node(O)}`;
  }
}

/** A constant end's term columns, or undefined for a variable or blank node. */
function constantTerm(node: Node): TermSql | undefined {
  if (variableName(node) !== undefined) return undefined;
  const term = toTerm(compileExpression(node as Expression, { variable: () => undefined }));
  return {
    t: `CAST(${term.t} AS INTEGER)`,
    v: `CAST(${term.v} AS VARCHAR)`,
    d: `CAST(${term.d} AS VARCHAR)`,
    l: `CAST(${term.l} AS VARCHAR)`,
    n: term.n,
  };
}

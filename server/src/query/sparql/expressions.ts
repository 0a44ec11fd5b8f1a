import type { AggregateExpression, Expression, Pattern } from 'sparqljs';
import { numericDatatypes, xsdInteger, xsdString, type Term } from './rdf.js';
import { xsdConstructors } from './casts.js';
import { constantSql, type TermSql } from './term-sql.js';
import { integerTypes, toTerm, unboundValue, type Value } from './value-sql.js';
import { applyOperator } from './operators.js';
import { compare } from './comparison.js';
import { unsupported } from './sparql-errors.js';
import { sqlLiteral } from '../../core/sql-text.js';

/** How a compiled expression reaches variables, EXISTS patterns and aggregates. */
export interface ExpressionScope {
  variable(name: string): TermSql | undefined;
  exists?(pattern: Pattern, negated: boolean): string;
  /** Present only where aggregates are allowed (SELECT of a grouped query, HAVING, ORDER BY). */
  aggregate?(expression: AggregateExpression): Value;
}

/** A sparqljs term (variable, IRI, literal) as a Term, or undefined for a variable. */
export function rdfTerm(node: {
  termType: string;
  value: string;
  language?: string;
  datatype?: { value: string };
}): Term | undefined {
  if (node.termType === 'NamedNode') return { type: 'iri', value: node.value };
  if (node.termType === 'BlankNode') return { type: 'bnode', value: node.value };
  if (node.termType === 'Literal') {
    const language = node.language || undefined;
    const datatype = language || node.datatype?.value === xsdString ? undefined : node.datatype?.value;
    return { type: 'literal', value: node.value, language, datatype };
  }
  return undefined;
}

/** A parsed expression node, read field by field. */
type ExpressionNode = Record<string, unknown> & { termType?: string; type?: string };

/** Compiles a SPARQL expression to SQL over the variables of `scope`. */
export function compileExpression(expression: Expression, scope: ExpressionScope): Value {
  const node = expression as unknown as ExpressionNode;
  if (node.termType === 'Variable') {
    const bound = scope.variable(node.value as string);
    return bound ? { kind: 'term', ...bound } : unboundValue;
  }
  if (node.termType) return constantValue(rdfTerm(node as never)!);
  if (node.type === 'aggregate') {
    if (!scope.aggregate) throw unsupported('an aggregate outside SELECT, HAVING or ORDER BY of a grouped query');
    return scope.aggregate(expression as never);
  }
  if (node.type === 'functionCall') return functionCall(node, scope);
  if (node.type !== 'operation') throw unsupported(`the expression type "${String(node.type)}"`);
  return operation(node, scope);
}

/** A constant: a number where it is a numeric literal, so arithmetic on it folds. */
function constantValue(term: Term): Value {
  if (
    term.type === 'literal' &&
    term.datatype &&
    numericDatatypes.includes(term.datatype) &&
    Number.isFinite(Number(term.value))
  ) {
    return {
      kind: 'num',
      sql: `CAST(${sqlLiteral(term.value)} AS DOUBLE)`,
      dt: sqlLiteral(integerTypes.includes(term.datatype) ? xsdInteger : term.datatype),
    };
  }
  return { kind: 'term', ...constantSql(term) };
}

/** A call of a function named by IRI: the XSD casts are the ones SQL can do. */
function functionCall(node: ExpressionNode, scope: ExpressionScope): Value {
  const fn = (node.function as { value: string }).value;
  const args = (node.args as Expression[]).map((a) => compileExpression(a, scope));
  if (!Object.hasOwn(xsdConstructors, fn) || args.length !== 1) throw unsupported(`the function <${fn}>`);
  return xsdConstructors[fn](toTerm(args[0]));
}

/** An operator or built-in call; EXISTS and IN compile their arguments as patterns and lists. */
function operation(node: ExpressionNode, scope: ExpressionScope): Value {
  const op = String(node.operator).toLowerCase();
  const raw = node.args as Expression[];
  if (op === 'exists' || op === 'notexists') {
    if (!scope.exists) throw unsupported('EXISTS here');
    return { kind: 'bool', sql: scope.exists(raw[0] as unknown as Pattern, op === 'notexists') };
  }
  if (op === 'in' || op === 'notin') {
    const needle = compileExpression(raw[0], scope);
    const list = (raw[1] as unknown as Expression[]).map((e) => compare('=', needle, compileExpression(e, scope)));
    const any = list.length ? `(${list.join(' OR ')})` : 'FALSE';
    return { kind: 'bool', sql: op === 'in' ? any : `(NOT ${any})` };
  }
  return applyOperator({ op, args: raw.map((a) => compileExpression(a, scope)), raw });
}

import type { Expression } from 'sparqljs';
import { naturalDatatype, xsdDecimal, xsdDouble, xsdInteger, xsdString } from './rdf.js';
import { termsEqual, type BoundMap } from './term-sql.js';
import { sqlIdent, sqlLiteral } from '../../core/sql-text.js';

/** `A && B && ...` as its operands: a FILTER of a conjunction keeps a row only when every operand is true. */
export function conjuncts(expression: Expression): Expression[] {
  const node = expression as { type?: string; operator?: string; args?: Expression[] };
  if (node.type === 'operation' && node.operator === '&&' && node.args?.length === 2)
    return node.args.flatMap(conjuncts);
  return [expression];
}

const operators: Record<string, string> = { '=': '=', '!=': '<>', '<': '<', '>': '>', '<=': '<=', '>=': '>=' };
const mirrored: Record<string, string> = { '=': '=', '!=': '!=', '<': '>', '>': '<', '<=': '>=', '>=': '<=' };
const decimalText = /^-?[0-9]{1,30}(\.[0-9]{1,30})?$/;
const doubleText = /^-?([0-9]{1,30}(\.[0-9]*)?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?$/;

type Node = { termType?: string; value?: string; language?: string; datatype?: { value: string } };

/**
 * A FILTER comparison between a variable bound to a source column and a constant, as the plain SQL
 * comparison of the column with a constant of its type, when that gives exactly SPARQL's answer
 * (strings by code point, integers and decimals by value, IRIs by their template's columns).
 * Such conditions run on the column itself and are simple enough for connectors to apply while
 * loading. Undefined when the comparison needs SPARQL's general operator rules.
 */
export function columnComparison(
  expression: Expression,
  binding: (variable: string) => BoundMap | undefined,
): string | undefined {
  const node = expression as { type?: string; operator?: string; args?: Node[] };
  if (node.type !== 'operation' || !node.operator || !(node.operator in operators) || node.args?.length !== 2)
    return undefined;
  let [left, right] = node.args;
  let op = node.operator;
  if (left.termType !== 'Variable') [left, right, op] = [right, left, mirrored[op]];
  if (left.termType !== 'Variable' || (right.termType !== 'Literal' && right.termType !== 'NamedNode'))
    return undefined;
  const bound = binding(left.value!);
  if (!bound) return undefined;
  if (right.termType === 'NamedNode') return iriComparison(bound, right.value!, op);
  const { map } = bound;
  if (map.kind !== 'column' || map.termType !== 'literal' || map.language || map.base) return undefined;
  const sqlType = (bound.types(map.column) ?? '').toUpperCase();
  const natural = naturalDatatype(sqlType);
  const ref = `${bound.alias}.${sqlIdent(map.column)}`;
  const datatype = right.language ? 'lang' : (right.datatype?.value ?? xsdString);
  if (sqlType === 'VARCHAR' && (map.datatype === undefined || map.datatype === xsdString) && datatype === xsdString)
    return `${ref} ${operators[op]} ${sqlLiteral(right.value!)}`;
  const numericColumn =
    (natural === xsdInteger || natural === xsdDecimal) && (map.datatype === undefined || map.datatype === natural);
  const numericConstant =
    ((datatype === xsdInteger || datatype === xsdDecimal) && decimalText.test(right.value!)) ||
    (datatype === xsdDouble && doubleText.test(right.value!));
  if (numericColumn && numericConstant)
    return (
      `${ref} ${operators[op]} ` +
      `${datatype === xsdDouble ? `CAST(${sqlLiteral(right.value!)} AS DOUBLE)` : right.value}`
    );
  return undefined;
}

/** `?x = <iri>` and `?x != <iri>` for a variable bound to IRIs: term identity. */
function iriComparison(bound: BoundMap, iri: string, op: string): string | undefined {
  const producesIris = bound.map.kind === 'constant' ? bound.map.term.type === 'iri' : bound.map.termType === 'iri';
  if (!producesIris || (op !== '=' && op !== '!=')) return undefined;
  const equal = termsEqual(
    { map: { kind: 'constant', term: { type: 'iri', value: iri } }, alias: '', types: () => undefined },
    bound,
  );
  if (equal === false) return op === '=' ? 'FALSE' : 'TRUE';
  return op === '=' ? equal : `NOT (${equal})`;
}

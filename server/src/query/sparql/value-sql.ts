import { numericDatatypes, xsdBoolean, xsdDecimal, xsdInteger } from './rdf.js';
import type { TermSql } from './term-sql.js';
import { sqlLiteral } from '../../core/sql-text.js';

/**
 * A compiled SPARQL expression. SQL NULL stands for SPARQL's error (and unbound), which gives
 * SPARQL's error rules for free: `true || error` is true, a FILTER on an error drops the row.
 */
export type Value =
  ({ kind: 'term' } & TermSql) | { kind: 'bool'; sql: string } | { kind: 'num'; sql: string; dt: string };

/** The value of an unbound variable (and of an error that is not a number). */
export const unboundValue: Value = {
  kind: 'term',
  t: 'CAST(NULL AS INTEGER)',
  v: 'CAST(NULL AS VARCHAR)',
  d: 'CAST(NULL AS VARCHAR)',
  l: 'CAST(NULL AS VARCHAR)',
};

export const numericList = numericDatatypes.map(sqlLiteral).join(', ');
/** The numeric datatypes that count as xsd:integer (its subtypes). */
export const integerTypes = numericDatatypes.filter((d) => !/(decimal|float|double)$/.test(d));

/** The number of a term: NULL unless it is a numeric literal. */
export const numberOf = (x: TermSql): string =>
  x.n ?? `CASE WHEN ${x.t} = 3 AND ${x.d} IN (${numericList}) THEN TRY_CAST(${x.v} AS DOUBLE) END`;

/** The datatype of a number: integer subtypes count as xsd:integer. */
const numericType = (d: string): string => {
  const known = sqlText(d);
  if (known !== undefined) return integerTypes.includes(known) ? sqlLiteral(xsdInteger) : d;
  return `CASE WHEN ${d} IN (${integerTypes.map(sqlLiteral).join(', ')}) THEN ${sqlLiteral(xsdInteger)} ELSE ${d} END`;
};

/** The text of an SQL string literal, or undefined when `sql` is anything else (folded at translation time). */
export const sqlText = (sql: string): string | undefined =>
  /^'(?:[^']|'')*'$/.test(sql) ? sql.slice(1, -1).replace(/''/g, "'") : undefined;

/** An expression as a SQL boolean: SPARQL's effective boolean value. */
export function toBool(value: Value): string {
  if (value.kind === 'bool') return value.sql;
  if (value.kind === 'num') return `(${value.sql} <> 0 AND NOT isnan(${value.sql}))`;
  const x = value;
  return (
    `(CASE WHEN ${x.t} <> 3 THEN NULL WHEN ${x.d} = ${sqlLiteral(xsdBoolean)} THEN ${x.v} IN ('true', '1') ` +
    (`WHEN ${x.d} IN (${numericList}) THEN COALESCE(TRY_CAST(${x.v} AS DOUBLE) <> 0 AND NOT ` +
      `isnan(TRY_CAST(${x.v} AS DOUBLE)), FALSE) WHEN ${x.d} = '' THEN length(${x.v}) > 0 END)`)
  );
}

/** An expression as a number (NULL when it is not one) with its datatype. */
export function toNum(value: Value): { sql: string; dt: string } {
  if (value.kind === 'num') return value;
  if (value.kind === 'bool') return { sql: 'CAST(NULL AS DOUBLE)', dt: sqlLiteral(xsdInteger) };
  return { sql: numberOf(value), dt: numericType(value.d) };
}

/**
 * The xsd:decimal lexical form of a DOUBLE with all its digits (AVG is a decimal division): DuckDB's
 * shortest round-trip text, which has no exponent between 1e-4 and 1e15; outside that range the
 * exponent is written out (a double of 1e16 or more has no fraction; a small one is written with its exact
 * binary value's digits, which read back as the same double).
 */
function decimalText(x: string): string {
  return (
    `CASE WHEN NOT contains(CAST(${x} AS VARCHAR), 'e') THEN CAST(${x} AS VARCHAR) WHEN abs(${x}) >= 1 THEN ` +
    `CAST(CAST(${x} AS HUGEINT) AS VARCHAR) || '.0' ELSE rtrim(CAST(CAST(${x} AS DECIMAL(38,37)) AS VARCHAR), '0') END`
  );
}

/** An expression as an RDF term. */
export function toTerm(value: Value): TermSql {
  if (value.kind === 'term') return value;
  if (value.kind === 'bool')
    return {
      t: `CASE WHEN (${value.sql}) IS NOT NULL THEN 3 END`,
      v: `CASE WHEN ${value.sql} THEN 'true' WHEN NOT (${value.sql}) THEN 'false' END`,
      d: sqlLiteral(xsdBoolean),
      l: "''",
    };
  const { sql, dt } = value;
  const integer = sqlLiteral(xsdInteger);
  return {
    t: `CASE WHEN (${sql}) IS NOT NULL THEN 3 END`,
    v:
      `CASE WHEN ${dt} = ${integer} THEN CAST(CAST(${sql} AS HUGEINT) AS VARCHAR) WHEN ${dt} = ` +
      `${sqlLiteral(xsdDecimal)} THEN ${decimalText(`(${sql})`)} ELSE CAST(${sql} AS VARCHAR) END`,
    d: dt,
    l: "''",
    n: sql,
  };
}

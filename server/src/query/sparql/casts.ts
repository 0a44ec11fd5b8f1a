import { XSD, xsdBoolean, xsdDecimal, xsdDouble, xsdInteger, xsdString } from './rdf.js';
import type { TermSql } from './term-sql.js';
import { integerTypes, numberOf, numericList, type Value } from './value-sql.js';
import { sqlLiteral } from '../../core/sql-text.js';

const xsdFloat = `${XSD}float`;
const xsdDateTime = `${XSD}dateTime`;

/** XSD lexical spaces a string must match to be cast (XML Schema 1.1 part 2, §3.3). */
const lexicalSpace = {
  integer: '[+-]?[0-9]+',
  decimal: '[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)',
  double: '([+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?INF|NaN)',
  boolean: '(true|false|1|0)',
  dateTime: '-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?',
};

/** The kinds of literal §17.5's cast table tells apart, as SQL conditions on a term. */
const kindOf = (x: TermSql) => ({
  string: `(${x.t} = 3 AND ${x.d} = '' AND ${x.l} = '')`,
  boolean: `(${x.t} = 3 AND ${x.d} = ${sqlLiteral(xsdBoolean)})`,
  numeric: `(${x.t} = 3 AND ${x.d} IN (${numericList}))`,
});

const matches = (v: string, space: string) => `regexp_full_match(${v}, ${sqlLiteral(space)})`;

/** The value of a boolean literal as 1 or 0 (its lexical form is one of four). */
const booleanNumber = (v: string) => `CASE WHEN ${v} IN ('true', '1') THEN 1.0 ELSE 0.0 END`;

/**
 * A cast to a numeric datatype (§17.5): a string in the target's lexical space, a boolean as 1 or 0, a
 * number (finite, for integer and decimal; integers truncate). Anything else is an error (NULL).
 */
const numericCast =
  (datatype: string, space: string) =>
  (x: TermSql): Value => {
    const k = kindOf(x);
    const n = numberOf(x);
    const finite = datatype === xsdDouble || datatype === xsdFloat ? 'TRUE' : `isfinite(${n})`;
    const number = datatype === xsdInteger ? `trunc(${n})` : n;
    const text = `TRY_CAST(replace(${x.v}, 'INF', 'Infinity') AS DOUBLE)`;
    return {
      kind: 'num',
      sql:
        `CASE WHEN ${k.string} AND ${matches(x.v, space)} THEN ${text} WHEN ${k.boolean} THEN ` +
        `${booleanNumber(x.v)} WHEN ${k.numeric} AND ${finite} THEN ${number} END`,
      dt: sqlLiteral(datatype),
    };
  };

/** A double as XPath's canonical string: decimal between 1e-6 and 1e6, else mantissa `E` exponent. */
function doubleText(n: string): string {
  const exponent = `floor(log10(abs(${n})))`;
  const mantissa = `CAST(round(${n} / pow(10, ${exponent}), 15) AS VARCHAR)`;
  return (
    `CASE WHEN isnan(${n}) THEN 'NaN' WHEN isinf(${n}) THEN CASE WHEN ${n} > 0 THEN 'INF' ELSE '-INF' END ` +
    `WHEN ${n} = 0 OR abs(${n}) BETWEEN 1e-6 AND 999999.9999999999 THEN regexp_replace(CAST(${n} AS VARCHAR), ` +
    `'\\.0$', '') ELSE ${mantissa} || 'E' || CAST(CAST(${exponent} AS BIGINT) AS VARCHAR) END`
  );
}

/** The canonical string of a number, by its datatype (XPath's casts to xs:string). */
function numberText(x: TermSql): string {
  const n = numberOf(x);
  const integers = integerTypes.map(sqlLiteral).join(', ');
  return (
    `CASE WHEN ${x.d} IN (${integers}) THEN CAST(CAST(${n} AS HUGEINT) AS VARCHAR) ` +
    `WHEN ${x.d} = ${sqlLiteral(xsdDecimal)} THEN regexp_replace(CAST(${n} AS VARCHAR), '\\.0$', '') ` +
    `ELSE ${doubleText(n)} END`
  );
}

/** A cast to xsd:string: an IRI's text, a number's or boolean's canonical form, other literals' lexical form. */
function stringCast(x: TermSql): Value {
  const k = kindOf(x);
  const v =
    `CASE WHEN ${k.numeric} THEN ${numberText(x)} WHEN ${k.boolean} THEN CASE WHEN ${x.v} IN ('true', '1') ` +
    `THEN 'true' ELSE 'false' END WHEN ${x.t} >= 2 THEN ${x.v} END`;
  return { kind: 'term', t: `CASE WHEN (${v}) IS NOT NULL THEN 3 END`, v, d: "''", l: "''" };
}

/** A cast to xsd:boolean: a string in its lexical space, a boolean, or a number (true unless 0 or NaN). */
function booleanCast(x: TermSql): Value {
  const k = kindOf(x);
  const n = numberOf(x);
  const v =
    `CASE WHEN (${k.string} AND ${matches(x.v, lexicalSpace.boolean)}) OR ${k.boolean} THEN CASE WHEN ${x.v} ` +
    `IN ('true', '1') THEN 'true' ELSE 'false' END WHEN ${k.numeric} THEN CASE WHEN ${n} = 0 OR isnan(${n}) ` +
    `THEN 'false' WHEN ${n} IS NOT NULL THEN 'true' END END`;
  return { kind: 'term', t: `CASE WHEN (${v}) IS NOT NULL THEN 3 END`, v, d: sqlLiteral(xsdBoolean), l: "''" };
}

/** A cast to xsd:dateTime: a dateTime, or a string in its lexical space (kept as written). */
function dateTimeCast(x: TermSql): Value {
  const k = kindOf(x);
  const v =
    `CASE WHEN (${k.string} AND ${matches(x.v, lexicalSpace.dateTime)}) OR (${x.t} = 3 AND ${x.d} = ` +
    `${sqlLiteral(xsdDateTime)}) THEN ${x.v} END`;
  return { kind: 'term', t: `CASE WHEN (${v}) IS NOT NULL THEN 3 END`, v, d: sqlLiteral(xsdDateTime), l: "''" };
}

/** The XSD constructor functions of SPARQL 1.1 §17.5, by IRI: each takes one argument; errors are NULL. */
export const xsdConstructors: Record<string, (x: TermSql) => Value> = {
  [xsdInteger]: numericCast(xsdInteger, lexicalSpace.integer),
  [xsdDecimal]: numericCast(xsdDecimal, lexicalSpace.decimal),
  [xsdDouble]: numericCast(xsdDouble, lexicalSpace.double),
  [xsdFloat]: numericCast(xsdFloat, lexicalSpace.double),
  [xsdBoolean]: booleanCast,
  [xsdString]: stringCast,
  [xsdDateTime]: dateTimeCast,
};

import { XSD, xsdBoolean } from './rdf.js';
import type { TermSql } from './term-sql.js';
import { numberOf, sqlText, toNum, toTerm, type Value } from './value-sql.js';
import { sqlLiteral } from '../../core/sql-text.js';

const dateTypeList = [`${XSD}dateTime`, `${XSD}date`];
const dateTypes = dateTypeList.map(sqlLiteral).join(', ');
/** Whether a term's datatype is known at translation time to be no date: its instant need not be computed. */
const surelyNoDate = (x: TermSql) => {
  const known = sqlText(x.d);
  return known !== undefined && !dateTypeList.includes(known);
};
/** Seconds by which a dateTime without a zone may lie from its value in some zone (XML Schema's ±14:00). */
const zoneSpan = 14 * 3600;

/** The zone of a date or dateTime lexical form (`Z`, `+01:00`), '' when it has none. */
const zoneOf = (v: string) => `regexp_extract(${v}, '(Z|[+-]\\d\\d:\\d\\d)$')`;

/**
 * The instant of an `xsd:dateTime` or `xsd:date` (at midnight) in seconds: zoned forms in UTC, the others
 * as written. NULL when the lexical form is not one.
 */
function instantOf(x: TermSql): string {
  const text = `regexp_replace(${x.v}, '^(-?\\d{4,}-\\d\\d-\\d\\d)(Z|[+-]\\d\\d:\\d\\d)?$', '\\1T00:00:00\\2')`;
  return (
    `CASE WHEN ${zoneOf(x.v)} <> '' THEN epoch(TRY_CAST(${text} AS TIMESTAMPTZ)) ` +
    `ELSE epoch(TRY_CAST(${text} AS TIMESTAMP)) END`
  );
}

/**
 * Dates and dateTimes of one datatype compare by instant (`24:00:00` is the next midnight, zones are
 * normalised). One with a zone and one without are ordered only when 14 hours cannot change the answer,
 * else the comparison is an error (XPath's indeterminate order).
 */
function instantComparison(sqlOp: string, x: TermSql, y: TermSql): string[] {
  if (surelyNoDate(x) || surelyNoDate(y)) return [];
  const [a, b] = [instantOf(x), instantOf(y)];
  const sameZoning = `(${zoneOf(x.v)} = '') = (${zoneOf(y.v)} = '')`;
  return [
    `WHEN ${x.t} = 3 AND ${y.t} = 3 AND ${x.d} = ${y.d} AND ${x.d} IN (${dateTypes}) AND ${a} IS NOT NULL AND ` +
      `${b} IS NOT NULL THEN CASE WHEN ${sameZoning} OR abs(${a} - ${b}) > ${zoneSpan} THEN ${a} ${sqlOp} ${b} END`,
  ];
}

/** A literal whose datatype the operators know and whose lexical form is valid for it (else it is opaque). */
function knownValue(x: TermSql): string {
  const n = numberOf(x);
  const date = surelyNoDate(x) ? '' : ` OR (${x.d} IN (${dateTypes}) AND ${instantOf(x)} IS NOT NULL)`;
  return (
    `(${x.t} = 3 AND (${x.d} = '' OR ${n} IS NOT NULL OR (${x.d} = ${sqlLiteral(xsdBoolean)} AND ${x.v} IN ` +
    `('true', 'false', '1', '0'))${date}))`
  );
}

/**
 * The cases of `=` and `!=` between terms that are not both numbers, booleans or dates (RDFterm-equal): the same
 * term is equal; IRIs, blank nodes, language-tagged literals and literals of two different known datatypes are
 * not. Two different literals otherwise (an unknown datatype, an invalid lexical form) may denote the same value
 * or not: an error.
 */
function termEquality(op: '=' | '!=', x: TermSql, y: TermSql): string[] {
  const [same, different] = op === '=' ? ['TRUE', 'FALSE'] : ['FALSE', 'TRUE'];
  return [
    `WHEN ${x.t} = ${y.t} AND ${x.d} = ${y.d} AND ${x.l} = ${y.l} AND ${x.v} = ${y.v} THEN ${same}`,
    `WHEN ${x.t} <> 3 OR ${y.t} <> 3 OR ${x.l} <> '' OR ${y.l} <> '' OR (${x.d} <> ${y.d} AND ${knownValue(x)} ` +
      `AND ${knownValue(y)}) OR (${x.d} = '' AND ${y.d} = '') THEN ${different}`,
  ];
}

/** The case of `<`, `>`, `<=` and `>=` between simple literals and booleans of one datatype. */
function termOrder(sqlOp: string, x: TermSql, y: TermSql): string {
  const sameLiteral = `${x.t} = 3 AND ${y.t} = 3 AND ${x.d} = ${y.d} AND ${x.l} = ${y.l}`;
  return (
    `WHEN ${sameLiteral} AND ${x.l} = '' AND ${x.d} IN ('', ${sqlLiteral(xsdBoolean)}) THEN ` + `${x.v} ${sqlOp} ${y.v}`
  );
}

/** SQL for `a op b` under SPARQL's operator mapping (numbers, strings, booleans, dates, terms). */
export function compare(op: string, a: Value, b: Value): string {
  if (a.kind !== 'term' && b.kind !== 'term') {
    if (a.kind === 'bool' && b.kind === 'bool') return `((${a.sql}) ${op === '!=' ? '<>' : op} (${b.sql}))`;
    return `(${toNum(a).sql} ${op === '!=' ? '<>' : op} ${toNum(b).sql})`;
  }
  const x = toTerm(a);
  const y = toTerm(b);
  const sqlOp = op === '!=' ? '<>' : op;
  const na = numberOf(x);
  const nb = numberOf(y);
  const boolean = sqlLiteral(xsdBoolean);
  const truth = (t: TermSql) => `(${t.v} IN ('true', '1'))`;
  const parts = [
    // An error (or unbound) operand makes the comparison an error.
    `WHEN ${x.t} IS NULL OR ${y.t} IS NULL THEN NULL`,
    `WHEN ${na} IS NOT NULL AND ${nb} IS NOT NULL THEN ${na} ${sqlOp} ${nb}`,
    `WHEN ${x.t} = 3 AND ${y.t} = 3 AND ${x.d} = ${boolean} AND ${y.d} = ${boolean} ` +
      `THEN ${truth(x)} ${sqlOp} ${truth(y)}`,
    ...instantComparison(sqlOp, x, y),
    ...(op === '=' || op === '!=' ? termEquality(op, x, y) : [termOrder(sqlOp, x, y)]),
  ];
  return `(CASE ${parts.join(' ')} END)`;
}

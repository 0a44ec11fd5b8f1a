import type { Expression } from 'sparqljs';
import { XSD, rdfLangString, xsdDecimal, xsdDouble, xsdInteger, xsdString } from './rdf.js';
import type { TermSql } from './term-sql.js';
import { numberOf, toBool, toNum, toTerm, unboundValue, type Value } from './value-sql.js';
import { compare } from './comparison.js';
import { unsupported } from './sparql-errors.js';
import { sqlLiteral } from '../../core/sql-text.js';

/** One operator or built-in function call, its arguments compiled in order. */
export interface OperatorCall {
  /** The operator or function name in lower case. */
  op: string;
  args: Value[];
  /** The arguments as written, for those that must be constants (regex patterns, flags). */
  raw: Expression[];
}

type Operator = (call: OperatorCall) => Value;

const bool = (sql: string): Value => ({ kind: 'bool', sql });
const num = (sql: string, dt: string): Value => ({ kind: 'num', sql, dt });
/** Argument `i` as a term. */
const term = (call: OperatorCall, i: number): TermSql => toTerm(call.args[i]);

function promote(a: string, b: string, divide: boolean): string {
  const [i, dec, dbl, flt] = [xsdInteger, xsdDecimal, xsdDouble, `${XSD}float`].map(sqlLiteral);
  return (
    `CASE WHEN ${a} = ${dbl} OR ${b} = ${dbl} THEN ${dbl} WHEN ${a} = ${flt} OR ${b} = ${flt} THEN ${flt} ` +
    `WHEN ${a} = ${dec} OR ${b} = ${dec} THEN ${dec} ELSE ${divide ? dec : i} END`
  );
}

/** A string function's text input: simple and language-tagged literals only. */
const stringArg = (x: TermSql) => `CASE WHEN ${x.t} = 3 AND ${x.d} = '' THEN ${x.v} END`;
/** String argument `i`. */
const text = (call: OperatorCall, i: number) => stringArg(term(call, i));
export const simpleLiteral = (v: string): Value => ({
  kind: 'term',
  t: `CASE WHEN (${v}) IS NOT NULL THEN 3 END`,
  v,
  d: "''",
  l: "''",
});
const sameLang = (x: TermSql, v: string): Value => ({
  kind: 'term',
  t: `CASE WHEN (${v}) IS NOT NULL THEN 3 END`,
  v,
  d: "''",
  l: x.l,
});

/** The constant string of an argument that must be a literal in the query (regex patterns, flags). */
function constantText(expression: Expression | undefined, what: string): string {
  const node = expression as { termType?: string; value?: string } | undefined;
  if (!node || node.termType !== 'Literal') throw unsupported(`${what} that is not a constant string`);
  return node.value!;
}

/**
 * An XPath regular expression (SPARQL's `REGEX` and `REPLACE`) as an RE2 pattern, its flags written inline: `i`, `m`
 * and `s` as RE2's own, `s` off unless asked (the engine's default lets `.` match a newline; XPath's does not),
 * `q` quoting the whole pattern, `x` removing whitespace outside character classes.
 */
export function xpathRegex(pattern: string, flags: string): string {
  if (/[^ismqx]/.test(flags)) throw unsupported(`the regex flags "${flags}"`);
  let body = pattern;
  if (flags.includes('q')) body = body.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
  else if (flags.includes('x')) body = body.replace(/\[(?:\\.|[^\]\\])*\]|\\.|\s+/g, (m) => (/^\s/.test(m) ? '' : m));
  const on = [...'ims'].filter((flag) => flags.includes(flag)).join('');
  return `(?${on}${flags.includes('s') ? '' : '-s'})${body}`;
}

/** The constant pattern and flags of a `REGEX` or `REPLACE` call, as one RE2 pattern. */
function regexOf(call: OperatorCall, patternAt: number, flagsAt: number, what: string): string {
  const flags = call.raw[flagsAt] ? constantText(call.raw[flagsAt], `${what} flags`) : '';
  return xpathRegex(constantText(call.raw[patternAt], `a ${what} pattern`), flags);
}

/** The same operator under several names. */
const each = (names: string[], operator: Operator): Record<string, Operator> =>
  Object.fromEntries(names.map((name) => [name, operator]));

/** A term chosen per column by `pick`: the columns of IF and COALESCE. */
function pickTerm(pick: (k: keyof TermSql) => string): Value {
  return { kind: 'term', t: pick('t'), v: pick('v'), d: pick('d'), l: pick('l'), n: pick('n') };
}

const column = (x: TermSql, k: keyof TermSql) => (k === 'n' ? numberOf(x) : x[k]);

const logic: Record<string, Operator> = {
  '||': ({ args: [a, b] }) => bool(`(${toBool(a)} OR ${toBool(b)})`),
  '&&': ({ args: [a, b] }) => bool(`(${toBool(a)} AND ${toBool(b)})`),
  '!': ({ args: [a] }) => bool(`(NOT ${toBool(a)})`),
  ...each(['=', '!=', '<', '>', '<=', '>='], ({ op, args: [a, b] }) => bool(compare(op, a, b))),
  if: (call) => {
    const c = toBool(call.args[0]);
    const y = toTerm(call.args[1]);
    const z = term(call, 2);
    return pickTerm((k) => `CASE WHEN ${c} THEN ${column(y, k)} WHEN NOT ${c} THEN ${column(z, k)} END`);
  },
  coalesce: ({ args }) => {
    const terms = args.map(toTerm);
    // COALESCE() of nothing is an error: unbound.
    if (terms.length === 0) return unboundValue;
    return pickTerm((k) => `CASE ${terms.map((x) => `WHEN ${x.t} IS NOT NULL THEN ${column(x, k)}`).join(' ')} END`);
  },
};

const arithmetic: Record<string, Operator> = {
  ...each(['+', '-', '*', '/'], ({ op, args: [a, b] }) => {
    const x = toNum(a);
    const y = toNum(b);
    const sql = op === '/' ? `(${x.sql} / NULLIF(${y.sql}, 0))` : `(${x.sql} ${op} ${y.sql})`;
    return num(sql, promote(x.dt, y.dt, op === '/'));
  }),
  uminus: ({ args: [a] }) => {
    const x = toNum(a);
    return num(`(- ${x.sql})`, x.dt);
  },
  uplus: ({ args: [a] }) => ({ kind: 'num', ...toNum(a) }),
  ...each(['abs', 'ceil', 'floor', 'round'], ({ op, args: [a] }) => {
    const x = toNum(a);
    return num(`${op}(${x.sql})`, x.dt);
  }),
};

const termTests: Record<string, Operator> = {
  bound: (call) => bool(`(${term(call, 0).t} IS NOT NULL)`),
  ...each(['isiri', 'isuri'], (call) => bool(`(${term(call, 0).t} = 2)`)),
  isblank: (call) => bool(`(${term(call, 0).t} = 1)`),
  isliteral: (call) => bool(`(${term(call, 0).t} = 3)`),
  isnumeric: (call) => bool(`(${term(call, 0).t} IS NOT NULL AND (${numberOf(term(call, 0))}) IS NOT NULL)`),
  sameterm: (call) => {
    const x = term(call, 0);
    const y = term(call, 1);
    return bool(`(${x.t} = ${y.t} AND ${x.v} = ${y.v} AND ${x.d} = ${y.d} AND ${x.l} = ${y.l})`);
  },
};

const termAccessors: Record<string, Operator> = {
  str: (call) => {
    const x = term(call, 0);
    return simpleLiteral(`CASE WHEN ${x.t} >= 2 THEN ${x.v} END`);
  },
  lang: (call) => {
    const x = term(call, 0);
    return simpleLiteral(`CASE WHEN ${x.t} = 3 THEN ${x.l} END`);
  },
  datatype: (call) => {
    const x = term(call, 0);
    return {
      kind: 'term',
      t: `CASE WHEN ${x.t} = 3 THEN 2 END`,
      v:
        `CASE WHEN ${x.l} <> '' THEN ${sqlLiteral(rdfLangString)} WHEN ${x.d} = '' THEN ` +
        `${sqlLiteral(xsdString)} ELSE ${x.d} END`,
      d: "''",
      l: "''",
    };
  },
  ...each(['iri', 'uri'], (call) => {
    const x = term(call, 0);
    const t = `CASE WHEN ${x.t} = 2 OR (${x.t} = 3 AND ${x.d} = '' AND ${x.l} = '') THEN 2 END`;
    return { kind: 'term', t, v: x.v, d: "''", l: "''" };
  }),
  strlang: (call) => {
    const x = term(call, 0);
    const tag = term(call, 1);
    const t = `CASE WHEN ${x.t} = 3 AND ${x.d} = '' AND ${x.l} = '' AND ${tag.t} = 3 AND ${tag.v} <> '' THEN 3 END`;
    return { kind: 'term', t, v: x.v, d: "''", l: `lower(${tag.v})` };
  },
  strdt: (call) => {
    const x = term(call, 0);
    const dt = term(call, 1);
    const t = `CASE WHEN ${x.t} = 3 AND ${x.d} = '' AND ${x.l} = '' AND ${dt.t} = 2 THEN 3 END`;
    return {
      kind: 'term',
      t,
      v: x.v,
      d: `CASE WHEN ${dt.v} = ${sqlLiteral(xsdString)} THEN '' ELSE ${dt.v} END`,
      l: "''",
    };
  },
  struuid: () => simpleLiteral('CAST(uuid() AS VARCHAR)'),
  // A fresh blank node per call and row. BNODE(str) must give the same node for the same string within one solution
  // and another in the next: the generated SQL has no identity of a solution to derive it from.
  bnode: (call) => {
    if (call.args.length) throw unsupported('BNODE of a string');
    return { kind: 'term', t: '1', v: `replace(CAST(uuid() AS VARCHAR), '-', '')`, d: "''", l: "''" };
  },
  uuid: () => ({ kind: 'term', t: '2', v: `'urn:uuid:' || CAST(uuid() AS VARCHAR)`, d: "''", l: "''" }),
};

const strings: Record<string, Operator> = {
  langmatches: (call) => {
    const tag = `lower(${text(call, 0)})`;
    const range = `lower(${text(call, 1)})`;
    return bool(
      `(CASE WHEN ${range} = '*' THEN ${tag} <> '' ELSE ${tag} = ${range} OR starts_with(${tag}, ${range} || '-') END)`,
    );
  },
  regex: (call) => bool(`regexp_matches(${text(call, 0)}, ${sqlLiteral(regexOf(call, 1, 2, 'regex'))})`),
  strlen: (call) => num(`CAST(length(${text(call, 0)}) AS DOUBLE)`, sqlLiteral(xsdInteger)),
  ucase: (call) => sameLang(term(call, 0), `upper(${text(call, 0)})`),
  lcase: (call) => sameLang(term(call, 0), `lower(${text(call, 0)})`),
  contains: (call) => bool(`contains(${text(call, 0)}, ${text(call, 1)})`),
  strstarts: (call) => bool(`starts_with(${text(call, 0)}, ${text(call, 1)})`),
  strends: (call) => bool(`ends_with(${text(call, 0)}, ${text(call, 1)})`),
  concat: (call) => {
    if (!call.args.length) return simpleLiteral("''");
    const v = `(${call.args.map((_, i) => text(call, i)).join(' || ')})`;
    // The result keeps a language tag only when every argument has that same tag (§17.4.3.12).
    const tags = call.args.map((_, i) => term(call, i).l);
    const l = `CASE WHEN ${tags.map((tag) => `${tag} = ${tags[0]}`).join(' AND ')} THEN ${tags[0]} ELSE '' END`;
    return { ...simpleLiteral(v), l };
  },
  substr: (call) => {
    const start = toNum(call.args[1]).sql;
    const length = call.args[2] ? `, CAST(round(${toNum(call.args[2]).sql}) AS BIGINT)` : '';
    return sameLang(term(call, 0), `substring(${text(call, 0)}, CAST(round(${start}) AS BIGINT)${length})`);
  },
  ...each(['strbefore', 'strafter'], (call) => {
    const x = text(call, 0);
    const y = text(call, 1);
    const found = `strpos(${x}, ${y})`;
    // Compatible arguments (§17.4.3.1.1): the second has no language tag or the first one's; else an error.
    const compatible = `(${term(call, 1).l} = '' OR ${term(call, 1).l} = ${term(call, 0).l})`;
    const v =
      `CASE WHEN NOT ${compatible} THEN NULL WHEN ${found} = 0 THEN '' ` +
      (call.op === 'strbefore'
        ? `WHEN ${found} > 0 THEN substring(${x}, 1, ${found} - 1) END`
        : `WHEN ${found} > 0 THEN substring(${x}, ${found} + length(${y})) END`);
    // The result keeps the language of the first argument when something was found.
    const l = `CASE WHEN ${found} > 0 THEN ${term(call, 0).l} ELSE '' END`;
    return { kind: 'term', t: `CASE WHEN (${v}) IS NOT NULL THEN 3 END`, v, d: "''", l };
  }),
  encode_for_uri: (call) => simpleLiteral(`url_encode(${text(call, 0)})`),
  ...each(['md5', 'sha1', 'sha256'], (call) => {
    const x = term(call, 0);
    return simpleLiteral(`${call.op}(CASE WHEN ${x.t} = 3 AND ${x.d} = '' AND ${x.l} = '' THEN ${x.v} END)`);
  }),
  replace: (call) => {
    const pattern = regexOf(call, 1, 3, 'REPLACE');
    const replacement = constantText(call.raw[2], 'a REPLACE replacement');
    // XPath writes groups as $1, RE2 as \1.
    const re2 = replacement.replace(/\\/g, '\\\\').replace(/\$(\d)/g, '\\$1');
    const args = `${sqlLiteral(pattern)}, ${sqlLiteral(re2)}, 'g'`;
    return sameLang(term(call, 0), `regexp_replace(${text(call, 0)}, ${args})`);
  },
};

const dateParts: Record<string, string> = {
  year: 'year',
  month: 'month',
  day: 'day',
  hours: 'hour',
  minutes: 'minute',
};
const dates: Record<string, Operator> = each(Object.keys(dateParts), (call) => {
  const x = term(call, 0);
  const dateTypes = `${sqlLiteral(`${XSD}dateTime`)}, ${sqlLiteral(`${XSD}date`)}`;
  const timestamp = `TRY_CAST(CASE WHEN ${x.d} IN (${dateTypes}) THEN ${x.v} END AS TIMESTAMP)`;
  return num(`CAST(${dateParts[call.op]}(${timestamp}) AS DOUBLE)`, sqlLiteral(xsdInteger));
});

/** The lexical form of an `xsd:dateTime` argument, else NULL (an error: unbound). */
function dateTimeText(call: OperatorCall): string {
  const x = term(call, 0);
  return `CASE WHEN ${x.t} = 3 AND ${x.d} = ${sqlLiteral(`${XSD}dateTime`)} THEN ${x.v} END`;
}

/** The time zone of a dateTime's lexical form: `Z`, `-08:00`, or '' when it has none. */
const zoneOf = (v: string) => `regexp_extract(${v}, '(Z|[+-]\\d\\d:\\d\\d)$')`;

/** SECONDS, TIMEZONE and TZ read the dateTime's lexical form, which keeps its zone as written. */
const zones: Record<string, Operator> = {
  seconds: (call) =>
    num(
      `TRY_CAST(regexp_extract(${dateTimeText(call)}, ':(\\d\\d(\\.\\d+)?)(Z|[+-].*)?$', 1) AS DOUBLE)`,
      sqlLiteral(xsdDecimal),
    ),
  tz: (call) => simpleLiteral(zoneOf(dateTimeText(call))),
  timezone: (call) => {
    const zone = zoneOf(dateTimeText(call));
    const hours = `CAST(substring(${zone}, 2, 2) AS INTEGER)`;
    const minutes = `CAST(substring(${zone}, 5, 2) AS INTEGER)`;
    const duration =
      `(CASE WHEN starts_with(${zone}, '-') THEN '-' ELSE '' END || 'PT' || CASE WHEN ${hours} > 0 THEN ` +
      `${hours} || 'H' ELSE '' END || CASE WHEN ${minutes} > 0 THEN ${minutes} || 'M' ELSE '' END)`;
    // A dateTime without a zone has no TIMEZONE: an error, so unbound.
    const v = `CASE WHEN ${zone} IN ('Z', '+00:00', '-00:00') THEN 'PT0S' WHEN ${zone} <> '' THEN ${duration} END`;
    return {
      kind: 'term',
      t: `CASE WHEN (${v}) IS NOT NULL THEN 3 END`,
      v,
      d: sqlLiteral(`${XSD}dayTimeDuration`),
      l: "''",
    };
  },
};

const operators: Record<string, Operator> = {
  ...logic,
  ...arithmetic,
  ...termTests,
  ...termAccessors,
  ...strings,
  ...dates,
  ...zones,
};

/** An operator or built-in function (other than EXISTS and IN, which compile their arguments themselves). */
export function applyOperator(call: OperatorCall): Value {
  if (!Object.hasOwn(operators, call.op)) throw unsupported(`the function ${call.op.toUpperCase()}`);
  return operators[call.op](call);
}

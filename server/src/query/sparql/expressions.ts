import type { AggregateExpression, Expression, Pattern } from 'sparqljs';
import {
  XSD,
  numericDatatypes,
  xsdBoolean,
  xsdDecimal,
  xsdDouble,
  xsdInteger,
  rdfLangString,
  xsdString,
  type Term,
} from './rdf.js';
import { constantSql, type TermSql } from './term-sql.js';
import { unsupported } from './sparql-errors.js';
import { sqlLiteral } from '../../core/sql-text.js';

/**
 * A compiled SPARQL expression. SQL NULL stands for SPARQL's error (and unbound), which gives
 * SPARQL's error rules for free: `true || error` is true, a FILTER on an error drops the row.
 */
export type Value =
  ({ kind: 'term' } & TermSql) | { kind: 'bool'; sql: string } | { kind: 'num'; sql: string; dt: string };

/** How a compiled expression reaches variables, EXISTS patterns and aggregates. */
export interface ExpressionScope {
  variable(name: string): TermSql | undefined;
  exists?(pattern: Pattern, negated: boolean): string;
  /** Present only where aggregates are allowed (SELECT of a grouped query, HAVING, ORDER BY). */
  aggregate?(expression: AggregateExpression): Value;
}

const numericList = numericDatatypes.map(sqlLiteral).join(', ');
const integerTypes = numericDatatypes.filter((d) => !/(decimal|float|double)$/.test(d));

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
  return `(CASE WHEN ${x.t} <> 3 THEN NULL WHEN ${x.d} = ${sqlLiteral(xsdBoolean)} THEN ${x.v} IN ('true', '1') WHEN ${x.d} IN (${numericList}) THEN COALESCE(TRY_CAST(${x.v} AS DOUBLE) <> 0 AND NOT isnan(TRY_CAST(${x.v} AS DOUBLE)), FALSE) WHEN ${x.d} = '' THEN length(${x.v}) > 0 END)`;
}

/** An expression as a number (NULL when it is not one) with its datatype. */
export function toNum(value: Value): { sql: string; dt: string } {
  if (value.kind === 'num') return value;
  if (value.kind === 'bool') return { sql: 'CAST(NULL AS DOUBLE)', dt: sqlLiteral(xsdInteger) };
  return { sql: numberOf(value), dt: numericType(value.d) };
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
    v: `CASE WHEN ${dt} = ${integer} THEN CAST(CAST(${sql} AS HUGEINT) AS VARCHAR) WHEN ${dt} = ${sqlLiteral(xsdDecimal)} THEN CAST(CAST(${sql} AS DECIMAL(38,10)) AS VARCHAR) ELSE CAST(${sql} AS VARCHAR) END`,
    d: dt,
    l: "''",
    n: sql,
  };
}

/** Strips trailing zeros of decimals as XSD's canonical form does (10.50 -> 10.5, 3.000 -> 3.0). */
export const canonicalDecimal = (text: string): string =>
  text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '.0') : text;

function promote(a: string, b: string, divide: boolean): string {
  const [i, dec, dbl, flt] = [xsdInteger, xsdDecimal, xsdDouble, `${XSD}float`].map(sqlLiteral);
  return `CASE WHEN ${a} = ${dbl} OR ${b} = ${dbl} THEN ${dbl} WHEN ${a} = ${flt} OR ${b} = ${flt} THEN ${flt} WHEN ${a} = ${dec} OR ${b} = ${dec} THEN ${dec} ELSE ${divide ? dec : i} END`;
}

const termOf = (term: Term): Value => ({ kind: 'term', ...constantSql(term) });

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

/** SQL for `a op b` under SPARQL's operator mapping (numbers, strings, booleans, dates, terms). */
function compare(op: string, a: Value, b: Value): string {
  if (a.kind !== 'term' && b.kind !== 'term') {
    if (a.kind === 'bool' && b.kind === 'bool') return `((${a.sql}) ${op === '!=' ? '<>' : op} (${b.sql}))`;
    return `(${toNum(a).sql} ${op === '!=' ? '<>' : op} ${toNum(b).sql})`;
  }
  const x = toTerm(a);
  const y = toTerm(b);
  const sqlOp = op === '!=' ? '<>' : op;
  const equality = op === '=' || op === '!=';
  const na = numberOf(x);
  const nb = numberOf(y);
  const sameLiteral = `${x.t} = 3 AND ${y.t} = 3 AND ${x.d} = ${y.d} AND ${x.l} = ${y.l}`;
  const bool = sqlLiteral(xsdBoolean);
  const truth = (t: TermSql) => `(${t.v} IN ('true', '1'))`;
  const parts = [
    // An error (or unbound) operand makes the comparison an error.
    `WHEN ${x.t} IS NULL OR ${y.t} IS NULL THEN NULL`,
    `WHEN ${na} IS NOT NULL AND ${nb} IS NOT NULL THEN ${na} ${sqlOp} ${nb}`,
    `WHEN ${x.t} = 3 AND ${y.t} = 3 AND ${x.d} = ${bool} AND ${y.d} = ${bool} THEN ${truth(x)} ${sqlOp} ${truth(y)}`,
  ];
  if (equality) {
    parts.push(
      `WHEN ${x.t} = ${y.t} AND ${x.d} = ${y.d} AND ${x.l} = ${y.l} AND ${x.v} = ${y.v} THEN ${op === '=' ? 'TRUE' : 'FALSE'}`,
    );
    parts.push(
      `WHEN ${x.t} <> 3 OR ${y.t} <> 3 OR ${x.l} <> '' OR ${y.l} <> '' OR (${x.d} = '' AND ${y.d} = '') OR ${x.d} = ${y.d} THEN ${op === '=' ? 'FALSE' : 'TRUE'}`,
    );
  } else {
    parts.push(
      `WHEN ${sameLiteral} AND ${x.l} = '' AND ${x.d} IN ('', ${[xsdBoolean, `${XSD}dateTime`, `${XSD}date`, `${XSD}time`].map(sqlLiteral).join(', ')}) THEN ${x.v} ${sqlOp} ${y.v}`,
    );
  }
  return `(CASE ${parts.join(' ')} END)`;
}

/** A string function's text input: simple and language-tagged literals only. */
const stringArg = (x: TermSql) => `CASE WHEN ${x.t} = 3 AND ${x.d} = '' THEN ${x.v} END`;
const simpleLiteral = (v: string): Value => ({
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

/** Compiles a SPARQL expression to SQL over the variables of `scope`. */
export function compileExpression(expression: Expression, scope: ExpressionScope): Value {
  const node = expression as unknown as Record<string, unknown> & { termType?: string; type?: string };
  if (node.termType === 'Variable') {
    const bound = scope.variable(node.value as string);
    return bound
      ? { kind: 'term', ...bound }
      : {
          kind: 'term',
          t: 'CAST(NULL AS INTEGER)',
          v: 'CAST(NULL AS VARCHAR)',
          d: 'CAST(NULL AS VARCHAR)',
          l: 'CAST(NULL AS VARCHAR)',
        };
  }
  if (node.termType) {
    const term = rdfTerm(node as never)!;
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
    return termOf(term);
  }
  if (node.type === 'aggregate') {
    if (!scope.aggregate) throw unsupported('an aggregate outside SELECT, HAVING or ORDER BY of a grouped query');
    return scope.aggregate(expression as never);
  }
  if (node.type === 'functionCall') {
    const fn = (node.function as { value: string }).value;
    const args = (node.args as Expression[]).map((a) => compileExpression(a, scope));
    const casts: Record<string, string> = {
      [xsdInteger]: 'BIGINT',
      [xsdDecimal]: 'DOUBLE',
      [xsdDouble]: 'DOUBLE',
      [`${XSD}float`]: 'DOUBLE',
    };
    if (casts[fn] && args.length === 1) {
      const x = toTerm(args[0]);
      const cast = `TRY_CAST(CASE WHEN ${x.t} = 3 THEN ${x.v} END AS ${casts[fn]})`;
      return { kind: 'num', sql: `CAST(${cast} AS DOUBLE)`, dt: sqlLiteral(fn) };
    }
    if (fn === xsdBoolean && args.length === 1) {
      const x = toTerm(args[0]);
      const v = `CASE WHEN ${x.t} = 3 AND lower(${x.v}) IN ('true', '1') THEN 'true' WHEN ${x.t} = 3 AND lower(${x.v}) IN ('false', '0') THEN 'false' END`;
      return { kind: 'term', t: `CASE WHEN (${v}) IS NOT NULL THEN 3 END`, v, d: sqlLiteral(xsdBoolean), l: "''" };
    }
    if (fn === xsdString && args.length === 1) {
      const x = toTerm(args[0]);
      return simpleLiteral(`CASE WHEN ${x.t} >= 2 THEN ${x.v} END`);
    }
    throw unsupported(`the function <${fn}>`);
  }
  if (node.type !== 'operation') throw unsupported(`the expression type "${String(node.type)}"`);
  const op = String(node.operator).toLowerCase();
  const rawArgs = node.args as Expression[];
  if (op === 'exists' || op === 'notexists') {
    if (!scope.exists) throw unsupported('EXISTS here');
    return { kind: 'bool', sql: scope.exists(rawArgs[0] as unknown as Pattern, op === 'notexists') };
  }
  if (op === 'in' || op === 'notin') {
    const needle = compileExpression(rawArgs[0], scope);
    const list = (rawArgs[1] as unknown as Expression[]).map((e) => compare('=', needle, compileExpression(e, scope)));
    const any = list.length ? `(${list.join(' OR ')})` : 'FALSE';
    return { kind: 'bool', sql: op === 'in' ? any : `(NOT ${any})` };
  }
  const args = rawArgs.map((a) => compileExpression(a, scope));
  const [a, b] = args;
  const term = (i: number) => toTerm(args[i]);
  switch (op) {
    case '||':
      return { kind: 'bool', sql: `(${toBool(a)} OR ${toBool(b)})` };
    case '&&':
      return { kind: 'bool', sql: `(${toBool(a)} AND ${toBool(b)})` };
    case '!':
      return { kind: 'bool', sql: `(NOT ${toBool(a)})` };
    case '=':
    case '!=':
    case '<':
    case '>':
    case '<=':
    case '>=':
      return { kind: 'bool', sql: compare(op, a, b) };
    case '+':
    case '-':
    case '*':
    case '/': {
      const x = toNum(a);
      const y = toNum(b);
      const sql = op === '/' ? `(${x.sql} / NULLIF(${y.sql}, 0))` : `(${x.sql} ${op} ${y.sql})`;
      return { kind: 'num', sql, dt: promote(x.dt, y.dt, op === '/') };
    }
    case 'uminus': {
      const x = toNum(a);
      return { kind: 'num', sql: `(- ${x.sql})`, dt: x.dt };
    }
    case 'uplus':
      return { kind: 'num', ...toNum(a) };
    case 'bound':
      return { kind: 'bool', sql: `(${term(0).t} IS NOT NULL)` };
    case 'isiri':
    case 'isuri':
      return { kind: 'bool', sql: `(${term(0).t} = 2)` };
    case 'isblank':
      return { kind: 'bool', sql: `(${term(0).t} = 1)` };
    case 'isliteral':
      return { kind: 'bool', sql: `(${term(0).t} = 3)` };
    case 'isnumeric':
      return { kind: 'bool', sql: `(${term(0).t} IS NOT NULL AND (${numberOf(term(0))}) IS NOT NULL)` };
    case 'sameterm': {
      const x = term(0);
      const y = term(1);
      return { kind: 'bool', sql: `(${x.t} = ${y.t} AND ${x.v} = ${y.v} AND ${x.d} = ${y.d} AND ${x.l} = ${y.l})` };
    }
    case 'str': {
      const x = term(0);
      return simpleLiteral(`CASE WHEN ${x.t} >= 2 THEN ${x.v} END`);
    }
    case 'lang': {
      const x = term(0);
      return simpleLiteral(`CASE WHEN ${x.t} = 3 THEN ${x.l} END`);
    }
    case 'datatype': {
      const x = term(0);
      return {
        kind: 'term',
        t: `CASE WHEN ${x.t} = 3 THEN 2 END`,
        v: `CASE WHEN ${x.l} <> '' THEN ${sqlLiteral(rdfLangString)} WHEN ${x.d} = '' THEN ${sqlLiteral(xsdString)} ELSE ${x.d} END`,
        d: "''",
        l: "''",
      };
    }
    case 'langmatches': {
      const tag = `lower(${stringArg(term(0))})`;
      const range = `lower(${stringArg(term(1))})`;
      return {
        kind: 'bool',
        sql: `(CASE WHEN ${range} = '*' THEN ${tag} <> '' ELSE ${tag} = ${range} OR starts_with(${tag}, ${range} || '-') END)`,
      };
    }
    case 'regex': {
      const pattern = constantText(rawArgs[1], 'a regex pattern');
      const flags = rawArgs[2] ? constantText(rawArgs[2], 'regex flags') : '';
      if (/[^ism]/.test(flags)) throw unsupported(`the regex flags "${flags}"`);
      return {
        kind: 'bool',
        sql: `regexp_matches(${stringArg(term(0))}, ${sqlLiteral(pattern)}${flags ? `, ${sqlLiteral(flags)}` : ''})`,
      };
    }
    case 'strlen':
      return { kind: 'num', sql: `CAST(length(${stringArg(term(0))}) AS DOUBLE)`, dt: sqlLiteral(xsdInteger) };
    case 'ucase':
      return sameLang(term(0), `upper(${stringArg(term(0))})`);
    case 'lcase':
      return sameLang(term(0), `lower(${stringArg(term(0))})`);
    case 'contains':
      return { kind: 'bool', sql: `contains(${stringArg(term(0))}, ${stringArg(term(1))})` };
    case 'strstarts':
      return { kind: 'bool', sql: `starts_with(${stringArg(term(0))}, ${stringArg(term(1))})` };
    case 'strends':
      return { kind: 'bool', sql: `ends_with(${stringArg(term(0))}, ${stringArg(term(1))})` };
    case 'concat':
      return simpleLiteral(args.length ? `(${args.map((_, i) => stringArg(term(i))).join(' || ')})` : "''");
    case 'substr': {
      const start = toNum(args[1]).sql;
      const length = args[2] ? `, CAST(round(${toNum(args[2]).sql}) AS BIGINT)` : '';
      return sameLang(term(0), `substring(${stringArg(term(0))}, CAST(round(${start}) AS BIGINT)${length})`);
    }
    case 'abs':
    case 'ceil':
    case 'floor':
    case 'round': {
      const x = toNum(a);
      return { kind: 'num', sql: `${op}(${x.sql})`, dt: x.dt };
    }
    case 'if': {
      const c = toBool(a);
      const y = toTerm(b);
      const z = term(2);
      const pick = (k: keyof TermSql) =>
        `CASE WHEN ${c} THEN ${k === 'n' ? numberOf(y) : y[k]} WHEN NOT ${c} THEN ${k === 'n' ? numberOf(z) : z[k]} END`;
      return { kind: 'term', t: pick('t'), v: pick('v'), d: pick('d'), l: pick('l'), n: pick('n') };
    }
    case 'coalesce': {
      const terms = args.map(toTerm);
      // COALESCE() of nothing is an error: unbound.
      if (terms.length === 0)
        return {
          kind: 'term',
          t: 'CAST(NULL AS INTEGER)',
          v: 'CAST(NULL AS VARCHAR)',
          d: 'CAST(NULL AS VARCHAR)',
          l: 'CAST(NULL AS VARCHAR)',
        };
      const pick = (k: keyof TermSql) =>
        `CASE ${terms.map((x) => `WHEN ${x.t} IS NOT NULL THEN ${k === 'n' ? numberOf(x) : x[k]}`).join(' ')} END`;
      return { kind: 'term', t: pick('t'), v: pick('v'), d: pick('d'), l: pick('l'), n: pick('n') };
    }
    case 'strbefore':
    case 'strafter': {
      const x = stringArg(term(0));
      const y = stringArg(term(1));
      const found = `strpos(${x}, ${y})`;
      const v =
        op === 'strbefore'
          ? `CASE WHEN ${found} > 0 THEN substring(${x}, 1, ${found} - 1) ELSE '' END`
          : `CASE WHEN ${found} > 0 THEN substring(${x}, ${found} + length(${y})) ELSE '' END`;
      // The result keeps the language of the first argument when something was found.
      return {
        kind: 'term',
        t: `CASE WHEN (${v}) IS NOT NULL THEN 3 END`,
        v,
        d: "''",
        l: `CASE WHEN ${found} > 0 THEN ${term(0).l} ELSE '' END`,
      };
    }
    case 'encode_for_uri':
      return simpleLiteral(`url_encode(${stringArg(term(0))})`);
    case 'md5':
    case 'sha1':
    case 'sha256': {
      const x = term(0);
      return simpleLiteral(`${op}(CASE WHEN ${x.t} = 3 AND ${x.d} = '' AND ${x.l} = '' THEN ${x.v} END)`);
    }
    case 'strlang': {
      const x = term(0);
      const tag = term(1);
      return {
        kind: 'term',
        t: `CASE WHEN ${x.t} = 3 AND ${x.d} = '' AND ${x.l} = '' AND ${tag.t} = 3 AND ${tag.v} <> '' THEN 3 END`,
        v: x.v,
        d: "''",
        l: `lower(${tag.v})`,
      };
    }
    case 'strdt': {
      const x = term(0);
      const dt = term(1);
      return {
        kind: 'term',
        t: `CASE WHEN ${x.t} = 3 AND ${x.d} = '' AND ${x.l} = '' AND ${dt.t} = 2 THEN 3 END`,
        v: x.v,
        d: `CASE WHEN ${dt.v} = ${sqlLiteral(xsdString)} THEN '' ELSE ${dt.v} END`,
        l: "''",
      };
    }
    case 'replace': {
      const pattern = constantText(rawArgs[1], 'a REPLACE pattern');
      const replacement = constantText(rawArgs[2], 'a REPLACE replacement');
      const flags = rawArgs[3] ? constantText(rawArgs[3], 'REPLACE flags') : '';
      if (/[^ism]/.test(flags)) throw unsupported(`the regex flags "${flags}"`);
      // XPath writes groups as $1, RE2 as \1.
      const re2 = replacement.replace(/\\/g, '\\\\').replace(/\$(\d)/g, '\\$1');
      return sameLang(
        term(0),
        `regexp_replace(${stringArg(term(0))}, ${sqlLiteral(pattern)}, ${sqlLiteral(re2)}, ${sqlLiteral(`g${flags}`)})`,
      );
    }
    case 'iri':
    case 'uri': {
      const x = term(0);
      return {
        kind: 'term',
        t: `CASE WHEN ${x.t} = 2 OR (${x.t} = 3 AND ${x.d} = '' AND ${x.l} = '') THEN 2 END`,
        v: x.v,
        d: "''",
        l: "''",
      };
    }
    case 'struuid':
      return simpleLiteral('CAST(uuid() AS VARCHAR)');
    case 'uuid':
      return { kind: 'term', t: '2', v: `'urn:uuid:' || CAST(uuid() AS VARCHAR)`, d: "''", l: "''" };
    case 'year':
    case 'month':
    case 'day':
    case 'hours':
    case 'minutes': {
      const x = term(0);
      const part = { year: 'year', month: 'month', day: 'day', hours: 'hour', minutes: 'minute' }[op];
      return {
        kind: 'num',
        sql: `CAST(${part}(TRY_CAST(CASE WHEN ${x.d} IN (${sqlLiteral(`${XSD}dateTime`)}, ${sqlLiteral(`${XSD}date`)}) THEN ${x.v} END AS TIMESTAMP)) AS DOUBLE)`,
        dt: sqlLiteral(xsdInteger),
      };
    }
    default:
      throw unsupported(`the function ${op.toUpperCase()}`);
  }
}

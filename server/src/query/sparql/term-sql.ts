import {
  naturalDatatype,
  numericDatatypes,
  termCode,
  xsdDecimal,
  xsdDouble,
  xsdInteger,
  xsdString,
  type Term,
} from './rdf.js';
import type { TemplatePart, TermMap, TermType } from './r2rml.js';
import { sqlIdent, sqlLiteral } from '../../core/sql-text.js';

/**
 * An RDF term as four SQL expressions: term type code (NULL when unbound), lexical form or IRI,
 * datatype IRI ('' for simple and language-tagged literals and non-literals) and language tag ('' when none).
 */
export interface TermSql {
  t: string;
  v: string;
  d: string;
  l: string;
  /** The numeric value when it is known without parsing `v` (a numeric column): saves a cast per row. */
  n?: string;
}

/** Normalises a datatype as the SQL columns carry it: xsd:string and "no datatype" are both ''. */
export const datatypeColumn = (datatype: string | undefined): string =>
  datatype === undefined || datatype === xsdString ? '' : datatype;

/** The SQL expressions of a constant term. */
export function constantSql(term: Term): TermSql {
  const numeric =
    term.type === 'literal' &&
    term.datatype !== undefined &&
    numericDatatypes.includes(term.datatype) &&
    Number.isFinite(Number(term.value));
  return {
    n: numeric ? `CAST(${sqlLiteral(term.value)} AS DOUBLE)` : 'CAST(NULL AS DOUBLE)',
    t: String(termCode[term.type]),
    v: sqlLiteral(term.value),
    d: sqlLiteral(term.type === 'literal' && !term.language ? datatypeColumn(term.datatype) : ''),
    l: sqlLiteral(term.type === 'literal' ? (term.language ?? '').toLowerCase() : ''),
  };
}

/** Column types of the logical tables, by column name in lower case; unknown for SQL-query tables. */
export type ColumnTypes = (column: string) => string | undefined;

/** A term map read through one table alias of the generated FROM clause. */
export interface BoundMap {
  map: TermMap;
  alias: string;
  types: ColumnTypes;
}

const columnRef = (alias: string, column: string) => `${alias}.${sqlIdent(column)}`;

/** The lexical form of a column value: XSD forms for timestamps and booleans, the SQL text otherwise. */
function lexical(ref: string, sqlType: string | undefined): string {
  const type = (sqlType ?? '').toUpperCase();
  if (type.startsWith('TIMESTAMP')) return `strftime(${ref}, '%Y-%m-%dT%H:%M:%S')`;
  if (type === 'BOOLEAN') return `CASE WHEN ${ref} THEN 'true' ELSE 'false' END`;
  if (type === 'VARCHAR') return ref;
  if (type === 'BLOB') return `hex(${ref})`;
  return `CAST(${ref} AS VARCHAR)`;
}

/**
 * SQL that holds when a column's lexical form is `text`: the column compared with a constant of its
 * own type where that is the same test (so connectors can apply it), else its lexical form.
 */
export function columnEqualsText(ref: string, sqlType: string | undefined, text: string): string {
  const type = (sqlType ?? '').toUpperCase();
  // Integer columns render canonically: any other spelling ("05", "+5") is never equal.
  if (isIntegerType(type) && /^-?(0|[1-9][0-9]{0,14})$/.test(text)) return `${ref} = ${text}`;
  return `${lexical(ref, sqlType)} = ${sqlLiteral(text)}`;
}

const isIntegerType = (sqlType: string | undefined) =>
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/i.test(sqlType ?? '');

/** The columns a term map reads: all must be non-NULL for the triple to exist. */
export function mapColumns(map: TermMap): string[] {
  if (map.kind === 'column') return [map.column];
  if (map.kind === 'template') return map.parts.flatMap((p) => ('column' in p ? [p.column] : []));
  return [];
}

/** Characters no IRI contains (RFC 3987): controls, space, `<>"{}|^` backtick and backslash. */
const invalidIriCharacter = '[\\x00-\\x20<>"{}|^`\\\\]';

/** A template's fixed text and, for each column, the SQL of its text in the term (IRI-safe encoded in IRIs). */
export function templateParts(
  map: Extract<TermMap, { kind: 'template' }>,
  alias: string,
  types: ColumnTypes,
): ({ text: string } | { sql: string })[] {
  return map.parts.map((part) => {
    if ('text' in part) return part;
    const text = lexical(columnRef(alias, part.column), types(part.column));
    return { sql: map.termType === 'iri' && !isIntegerType(types(part.column)) ? `url_encode(${text})` : text };
  });
}

/** The four SQL expressions of a bound term map (R2RML §7: IRI-safe encoding of template values). */
export function termMapSql({ map, alias, types }: BoundMap): TermSql {
  if (map.kind === 'constant') return constantSql(map.term);
  const t = String(termCode[map.termType]);
  let v: string;
  let natural: string | undefined;
  if (map.kind === 'column') {
    natural = naturalDatatype(types(map.column) ?? '');
    v = lexical(columnRef(alias, map.column), types(map.column));
    // A column value that cannot be an IRI is a data error (R2RML §11): the query fails naming it.
    if (map.termType === 'iri')
      v =
        `CASE WHEN regexp_matches(${v}, ${sqlLiteral(invalidIriCharacter)}) THEN ` +
        (`error(${sqlLiteral(`R2RML data error: a value of column "${map.column}" is not a valid IRI: `)} || ` +
          `${v}) ELSE ${v} END`);
  } else {
    v = templateParts(map, alias, types)
      .map((part) => ('text' in part ? sqlLiteral(part.text) : part.sql))
      .join(' || ');
    if (map.parts.length === 1 && 'text' in map.parts[0]) v = sqlLiteral(map.parts[0].text);
  }
  const literal = map.termType === 'literal';
  const datatype = map.language ? undefined : (map.datatype ?? natural);
  const numericColumn =
    map.kind === 'column' &&
    literal &&
    natural !== undefined &&
    datatype !== undefined &&
    [xsdInteger, xsdDecimal, xsdDouble].includes(natural) &&
    numericDatatypes.includes(datatype);
  // A relative IRI is resolved against the mapping's base IRI (R2RML §7.3).
  if (map.termType === 'iri' && map.base)
    v =
      `CASE WHEN regexp_matches(${v}, '^[A-Za-z][A-Za-z0-9+.-]*:') THEN ${v} ELSE ${sqlLiteral(map.base)} || ` +
      `${v} END`;
  return {
    t,
    v,
    d: sqlLiteral(literal && !map.language ? datatypeColumn(map.datatype ?? natural) : ''),
    l: sqlLiteral(literal ? (map.language ?? '') : ''),
    // The datatype of a term map is fixed, so whether its terms are numbers is known here.
    n: numericColumn
      ? `CAST(${columnRef(alias, (map as { column: string }).column)} AS DOUBLE)`
      : literal && datatype !== undefined && numericDatatypes.includes(datatype)
        ? `TRY_CAST(${v} AS DOUBLE)`
        : 'CAST(NULL AS DOUBLE)',
  };
}

/** What a term map can produce, known before running: its type, and for literals its tags. */
function staticKind(bound: BoundMap): { termType: TermType; datatype?: string; language?: string } {
  const { map } = bound;
  if (map.kind === 'constant') {
    const term = map.term;
    return term.type === 'literal'
      ? {
          termType: 'literal',
          datatype: term.language ? '' : datatypeColumn(term.datatype),
          language: term.language ?? '',
        }
      : { termType: term.type };
  }
  if (map.termType !== 'literal') return { termType: map.termType };
  const natural = map.kind === 'column' ? naturalDatatype(bound.types(map.column) ?? '') : undefined;
  return {
    termType: 'literal',
    datatype: map.language ? '' : datatypeColumn(map.datatype ?? natural),
    language: map.language ?? '',
  };
}

/** Whether a term map may produce a relative IRI that the base IRI completes. */
function mayResolve(map: TermMap): boolean {
  if (map.kind === 'constant' || !map.base) return false;
  return !(
    map.kind === 'template' &&
    map.parts.length > 0 &&
    'text' in map.parts[0] &&
    /^[A-Za-z][A-Za-z0-9+.-]*:/.test(map.parts[0].text)
  );
}

/** Whether two templates render values the same way, so equal IRIs mean equal column values. */
function sameShape(a: TemplatePart[], b: TemplatePart[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const pa = a[i];
    const pb = b[i];
    if ('text' in pa !== 'text' in pb) return false;
    if ('text' in pa && 'text' in pb && pa.text !== pb.text) return false;
  }
  // Adjacent columns must be split by a character IRI-safe encoding never emits, or values could shift between them.
  for (let i = 1; i < a.length; i++) if ('column' in a[i] && 'column' in a[i - 1]) return false;
  return a.every(
    (part) => !('text' in part) || /[^A-Za-z0-9\-._~]/.test(part.text) || part === a[0] || part === a[a.length - 1],
  );
}

/** The fixed text a template's IRIs start with. */
const prefixOf = (map: TermMap): string | undefined =>
  map.kind === 'template' && map.parts.length && 'text' in map.parts[0]
    ? map.parts[0].text
    : map.kind === 'template'
      ? ''
      : undefined;

/** Splits a constant IRI or literal by a template: column -> value, or undefined when it cannot match. */
function decompose(value: string, parts: TemplatePart[], iri: boolean): Map<string, string> | undefined {
  const pattern = parts.map((p) => ('text' in p ? p.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : '(.*?)')).join('');
  const match = new RegExp(`^${pattern}$`, 's').exec(value);
  if (!match) return undefined;
  const values = new Map<string, string>();
  let group = 1;
  for (const part of parts) {
    if (!('column' in part)) continue;
    let text = match[group++];
    if (iri) {
      if (/[^A-Za-z0-9\-._~%]/.test(text)) return undefined;
      try {
        text = decodeURIComponent(text);
      } catch {
        return undefined;
      }
    }
    const previous = values.get(part.column);
    if (previous !== undefined && previous !== text) return undefined;
    values.set(part.column, text);
  }
  return values;
}

/** `left = right`; a column compared with itself only needs to be present. */
export const sqlEquals = (left: string, right: string): string =>
  left === right ? `${left} IS NOT NULL` : `${left} = ${right}`;

/**
 * SQL that holds when two bound term maps produce the same term, or `false` when they never can.
 * Templates of the same shape compare their columns, so joins run on the source values, not on strings.
 */
export function termsEqual(a: BoundMap, b: BoundMap): string | false {
  return compareMaps(a, b).sql;
}

/**
 * The columns (of `a`, of `b`) whose plain SQL equality `termsEqual` uses, values of the same type:
 * the equalities a join on these terms implies between the source rows.
 */
export function equatedColumns(a: BoundMap, b: BoundMap): [string, string][] {
  return compareMaps(a, b).pairs;
}

function compareMaps(a: BoundMap, b: BoundMap): { sql: string | false; pairs: [string, string][] } {
  const none = (sql: string | false) => ({ sql, pairs: [] });
  const ka = staticKind(a);
  const kb = staticKind(b);
  if (ka.termType !== kb.termType || ka.datatype !== kb.datatype || ka.language !== kb.language) return none(false);
  if (a.map.kind === 'constant' && b.map.kind === 'constant')
    return none(a.map.term.value === b.map.term.value ? 'TRUE' : false);
  // Where a base IRI may be prepended, only the rendered IRIs can be compared.
  if (mayResolve(a.map) || mayResolve(b.map)) return none(sqlEquals(termMapSql(a).v, termMapSql(b).v));
  if (b.map.kind === 'constant') return none(compareMaps(b, a).sql);
  if (a.map.kind === 'constant') {
    const value = a.map.term.value;
    if (b.map.kind === 'column')
      return none(columnEqualsText(columnRef(b.alias, b.map.column), b.types(b.map.column), value));
    if (b.map.kind !== 'template') return none(false);
    const values = decompose(value, b.map.parts, b.map.termType === 'iri');
    if (!values) return none(false);
    return none(
      [...values]
        .map(([column, text]) => columnEqualsText(columnRef(b.alias, column), b.types(column), text))
        .join(' AND ') || 'TRUE',
    );
  }
  // Column pairs whose values are compared: same type directly, otherwise by their lexical forms.
  const compareColumns = (columns: [string, string][], direct: boolean) => {
    const pairs: [string, string][] = [];
    const conditions = columns.map(([ca, cb]) => {
      const ta = a.types(ca);
      const tb = b.types(cb);
      const ra = columnRef(a.alias, ca);
      const rb = columnRef(b.alias, cb);
      if (direct && ta !== undefined && ta === tb) {
        pairs.push([ca, cb]);
        return sqlEquals(ra, rb);
      }
      return sqlEquals(lexical(ra, ta), lexical(rb, tb));
    });
    return { sql: conditions.join(' AND ') || 'TRUE', pairs };
  };
  if (a.map.kind === 'template' && b.map.kind === 'template') {
    const pa = prefixOf(a.map)!;
    const pb = prefixOf(b.map)!;
    if (!pa.startsWith(pb) && !pb.startsWith(pa)) return none(false);
    if (sameShape(a.map.parts, b.map.parts)) {
      const partsB = b.map.parts;
      return compareColumns(
        a.map.parts.flatMap((part, i): [string, string][] =>
          'column' in part && 'column' in partsB[i] ? [[part.column, (partsB[i] as { column: string }).column]] : [],
        ),
        true,
      );
    }
  }
  if (a.map.kind === 'column' && b.map.kind === 'column')
    return compareColumns([[a.map.column, b.map.column]], ka.termType === 'literal');
  return none(sqlEquals(termMapSql(a).v, termMapSql(b).v));
}

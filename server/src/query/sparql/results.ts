import N3 from 'n3';
import type { Json } from '@duckdb/node-api';
import { termCode, xsdDecimal, type Term } from './rdf.js';
import type { SparqlSelectResults, SparqlTerm } from '../../contract/index.js';
import type { Translation } from './translator.js';

/**
 * A solution: the terms of the projected variables, unbound ones absent, read by name or as
 * `[name, term]` entries. Every row shares the names and holds one array of terms: a Map per row is
 * several more objects, and a large result's rows are all alive while the young generation is collected.
 */
export class Solution implements Iterable<[string, Term]> {
  constructor(
    private readonly names: readonly string[],
    private readonly terms: readonly (Term | undefined)[],
  ) {}

  /** The term bound to `name`, or undefined. */
  get(name: string): Term | undefined {
    const i = this.names.indexOf(name);
    return i < 0 ? undefined : this.terms[i];
  }

  *[Symbol.iterator](): Iterator<[string, Term]> {
    for (let i = 0; i < this.names.length; i++) {
      const term = this.terms[i];
      if (term) yield [this.names[i], term];
    }
  }
}

/** Reads one projected variable's term from a result row; undefined where it is unbound. */
type TermReader = (row: Record<string, Json>) => Term | undefined;

/** Strips trailing zeros of decimals as XSD's canonical form does (10.50 -> 10.5, 3.000 -> 3.0). */
const canonicalDecimal = (text: string): string =>
  text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '.0') : text;

/** A term from its type code, lexical form or IRI, datatype and language columns. */
function termOf(code: number, text: string, d: Json | undefined, l: Json | undefined): Term {
  if (code === termCode.bnode) return { type: 'bnode', value: text };
  if (code === termCode.iri) return { type: 'iri', value: text };
  const datatype = d ? String(d) : undefined;
  const language = l ? String(l) : undefined;
  // Decimals in XSD's canonical form: DuckDB writes the scale's trailing zeros (10.50, 2.5000000000).
  const value = datatype === xsdDecimal ? canonicalDecimal(text) : text;
  return { type: 'literal', value, datatype: language ? undefined : datatype, language };
}

/**
 * The reader of one variable's columns, built once per result rather than per row: its column names,
 * and for a template read in parts, the joining of the parts with the template's fixed text. The loops
 * are indexed because a result is read once, mostly before the code is optimised, where for-of allocates.
 */
function termReader({ id, fixed, template }: Translation['columns'][number]): TermReader {
  if (fixed && template) {
    return (row) => {
      let text = '';
      for (let i = 0; i < template.length; i++) {
        const part = template[i];
        if ('text' in part) text += part.text;
        else {
          const value = row[part.column];
          if (value === null || value === undefined) return undefined;
          text += String(value);
        }
      }
      return termOf(fixed.t, text, fixed.d, fixed.l);
    };
  }
  const v = `${id}_v`;
  if (fixed)
    return (row) => {
      const value = row[v];
      return value === null || value === undefined ? undefined : termOf(fixed.t, String(value), fixed.d, fixed.l);
    };
  const t = `${id}_t`;
  const d = `${id}_d`;
  const l = `${id}_l`;
  return (row) => {
    const code = row[t];
    const value = row[v];
    return code === null || code === undefined || value === null || value === undefined
      ? undefined
      : termOf(Number(code), String(value), row[d], row[l]);
  };
}

/** Reads the translator's columns per variable (the value alone where the kind is fixed) back into RDF terms. */
export function solutions(rows: Record<string, Json>[], columns: Translation['columns']): Solution[] {
  const names = columns.map((column) => column.name);
  const readers = columns.map(termReader);
  return rows.map((row) => {
    const terms = new Array<Term | undefined>(readers.length);
    for (let i = 0; i < readers.length; i++) terms[i] = readers[i](row);
    return new Solution(names, terms);
  });
}

/** Blank node labels safe in every output format. */
const bnodeLabel = (value: string) => `b${Buffer.from(value).toString('hex')}`;

/** A term as a SPARQL 1.1 Query Results JSON binding. */
function binding(term: Term): SparqlTerm {
  if (term.type === 'iri') return { type: 'uri', value: term.value };
  if (term.type === 'bnode') return { type: 'bnode', value: bnodeLabel(term.value) };
  const out: SparqlTerm = { type: 'literal', value: term.value };
  if (term.language) out['xml:lang'] = term.language;
  if (term.datatype) out.datatype = term.datatype;
  return out;
}

/** SPARQL 1.1 Query Results JSON. */
export function resultsJson(vars: string[], rows: Solution[]): SparqlSelectResults {
  const bindings = rows.map((row) => {
    const out: Record<string, SparqlTerm> = {};
    for (let i = 0; i < vars.length; i++) {
      const term = row.get(vars[i]);
      if (term) out[vars[i]] = binding(term);
    }
    return out;
  });
  return { head: { vars }, results: { bindings } };
}

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** SPARQL 1.1 Query Results CSV: plain values, as the format defines. */
export function resultsCsv(vars: string[], rows: Solution[]): string {
  const lines = [vars.map(csvField).join(',')];
  for (const row of rows)
    lines.push(
      vars
        .map((v) => {
          const t = row.get(v);
          return t ? csvField(t.type === 'bnode' ? `_:${bnodeLabel(t.value)}` : t.value) : '';
        })
        .join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}

/** A term in N-Triples / SPARQL TSV syntax. */
export function termText(term: Term): string {
  if (term.type === 'iri') {
    const unicodeEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    // eslint-disable-next-line no-control-regex -- N-Triples IRIs escape the control characters this class matches.
    return `<${term.value.replace(/[\u0000-\u0020<>"{}|^`\\]/g, unicodeEscape)}>`;
  }
  if (term.type === 'bnode') return `_:${bnodeLabel(term.value)}`;
  const escaped = term.value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
  const lexical = `"${escaped}"`;
  if (term.language) return `${lexical}@${term.language}`;
  return term.datatype ? `${lexical}^^<${term.datatype}>` : lexical;
}

/** SPARQL 1.1 Query Results TSV. */
export function resultsTsv(vars: string[], rows: Solution[]): string {
  const lines = [vars.map((v) => `?${v}`).join('\t')];
  for (const row of rows)
    lines.push(
      vars
        .map((v) => {
          const t = row.get(v);
          return t ? termText(t) : '';
        })
        .join('\t'),
    );
  return `${lines.join('\n')}\n`;
}

/** An n3 term from ours. */
export function n3Term(term: Term): N3.Quad['object'] {
  const { namedNode, blankNode, literal } = N3.DataFactory;
  if (term.type === 'iri') return namedNode(term.value);
  if (term.type === 'bnode') return blankNode(bnodeLabel(term.value));
  return literal(term.value, term.language ?? (term.datatype ? namedNode(term.datatype) : undefined));
}

/** Triples as Turtle (with `prefixes`) or N-Triples. */
export function writeTriples(
  triples: [Term, Term, Term][],
  format: 'turtle' | 'ntriples',
  prefixes: Record<string, string>,
): string {
  const writer = new N3.Writer({
    format: format === 'turtle' ? 'Turtle' : 'N-Triples',
    prefixes: format === 'turtle' ? prefixes : undefined,
  });
  for (const [s, p, o] of triples)
    writer.addQuad(n3Term(s) as N3.Quad['subject'], n3Term(p) as N3.Quad['predicate'], n3Term(o));
  let text = '';
  writer.end((error, result) => {
    if (error) throw error;
    text = result;
  });
  return text;
}

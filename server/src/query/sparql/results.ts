import N3 from 'n3';
import type { Json } from '@duckdb/node-api';
import { xsdDecimal, type Term } from './rdf.js';
import { canonicalDecimal } from './expressions.js';
import type { Translation } from './translator.js';

/** A solution: variable name -> term, unbound variables absent. */
export type Solution = Map<string, Term>;

/** Reads the translator's four columns per variable back into RDF terms. */
export function solutions(rows: Record<string, Json>[], columns: Translation['columns']): Solution[] {
  return rows.map((row) => {
    const solution: Solution = new Map();
    for (const { name, id, fixed } of columns) {
      const code = fixed ? fixed.t : row[`${id}_t`];
      const value = row[`${id}_v`];
      if (code === null || code === undefined || value === null || value === undefined) continue;
      const text = String(value);
      if (Number(code) === 1) solution.set(name, { type: 'bnode', value: text });
      else if (Number(code) === 2) solution.set(name, { type: 'iri', value: text });
      else {
        const d = fixed ? fixed.d : row[`${id}_d`];
        const l = fixed ? fixed.l : row[`${id}_l`];
        const datatype = d ? String(d) : undefined;
        const language = l ? String(l) : undefined;
        // Decimals in XSD's canonical form: DuckDB writes the scale's trailing zeros (10.50, 2.5000000000).
        const value = datatype === xsdDecimal ? canonicalDecimal(text) : text;
        solution.set(name, { type: 'literal', value, datatype: language ? undefined : datatype, language });
      }
    }
    return solution;
  });
}

/** Blank node labels safe in every output format. */
const bnodeLabel = (value: string) => `b${Buffer.from(value).toString('hex')}`;

/** SPARQL 1.1 Query Results JSON. */
export function resultsJson(vars: string[], rows: Solution[]): unknown {
  const binding = (term: Term) => {
    if (term.type === 'iri') return { type: 'uri', value: term.value };
    if (term.type === 'bnode') return { type: 'bnode', value: bnodeLabel(term.value) };
    return { type: 'literal', value: term.value, ...(term.language ? { 'xml:lang': term.language } : {}), ...(term.datatype ? { datatype: term.datatype } : {}) };
  };
  return { head: { vars }, results: { bindings: rows.map((row) => Object.fromEntries([...row].filter(([k]) => vars.includes(k)).map(([k, t]) => [k, binding(t)]))) } };
}

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** SPARQL 1.1 Query Results CSV: plain values, as the format defines. */
export function resultsCsv(vars: string[], rows: Solution[]): string {
  const lines = [vars.map(csvField).join(',')];
  for (const row of rows) lines.push(vars.map((v) => { const t = row.get(v); return t ? csvField(t.type === 'bnode' ? `_:${bnodeLabel(t.value)}` : t.value) : ''; }).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A term in N-Triples / SPARQL TSV syntax. */
export function termText(term: Term): string {
  if (term.type === 'iri') return `<${term.value.replace(/[\u0000-\u0020<>"{}|^`\\]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}>`;
  if (term.type === 'bnode') return `_:${bnodeLabel(term.value)}`;
  const lexical = `"${term.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
  if (term.language) return `${lexical}@${term.language}`;
  return term.datatype ? `${lexical}^^<${term.datatype}>` : lexical;
}

/** SPARQL 1.1 Query Results TSV. */
export function resultsTsv(vars: string[], rows: Solution[]): string {
  const lines = [vars.map((v) => `?${v}`).join('\t')];
  for (const row of rows) lines.push(vars.map((v) => { const t = row.get(v); return t ? termText(t) : ''; }).join('\t'));
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
export function writeTriples(triples: [Term, Term, Term][], format: 'turtle' | 'ntriples', prefixes: Record<string, string>): string {
  const writer = new N3.Writer({ format: format === 'turtle' ? 'Turtle' : 'N-Triples', prefixes: format === 'turtle' ? prefixes : undefined });
  for (const [s, p, o] of triples) writer.addQuad(n3Term(s) as N3.Quad['subject'], n3Term(p) as N3.Quad['predicate'], n3Term(o));
  let text = '';
  writer.end((error, result) => {
    if (error) throw error;
    text = result;
  });
  return text;
}

import { Generator, Parser } from 'sparqljs';
import { format as formatSqlText } from 'sql-formatter';

/** The editor's text formatted, or why it was left as it is. */
export type Formatted = { text: string } | { refused: string };

const rdfType = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
/** IRIs and string literals: a `#` inside them is no comment. */
const irisAndStrings = /<[^<>\s]*>|"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g;

/** SQL laid out by `sql-formatter` in DuckDB's dialect (DuckDB runs the console's SQL); keywords keep their case. */
export function formatSql(text: string): Formatted {
  try {
    return { text: formatSqlText(text, { language: 'duckdb', tabWidth: 2 }) };
  } catch (e) {
    return { refused: `The SQL could not be formatted: ${(e as Error).message.split('\n')[0]}` };
  }
}

/**
 * A SPARQL query parsed and written again by sparqljs, `rdf:type` written back as `a`. A query with comments is
 * left alone: the parser drops them, and formatting must not lose text.
 */
export function formatSparql(text: string): Formatted {
  if (text.replace(irisAndStrings, '').includes('#'))
    return { refused: 'A SPARQL query with comments is not formatted: the formatter would drop them' };
  try {
    const generated = new Generator({ indent: '  ' }).stringify(new Parser().parse(text));
    return { text: generated.replaceAll(` ${rdfType} `, ' a ') };
  } catch (e) {
    return { refused: `The SPARQL could not be formatted: ${(e as Error).message.split('\n')[0]}` };
  }
}

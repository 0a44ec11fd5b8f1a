/** Namespaces and term shapes shared by the mapping loader, the translator and the result writers. */
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const OWL = 'http://www.w3.org/2002/07/owl#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const RR = 'http://www.w3.org/ns/r2rml#';
/** The workbench's own mapping vocabulary: declarations R2RML has no term for (unique keys). */
export const AW = 'urn:adaptive-workbench:r2rml#';

export const rdfType = `${RDF}type`;
export const xsdString = `${XSD}string`;
export const xsdBoolean = `${XSD}boolean`;
export const xsdInteger = `${XSD}integer`;
export const xsdDecimal = `${XSD}decimal`;
export const xsdDouble = `${XSD}double`;
export const rdfLangString = `${RDF}langString`;

/** Datatypes whose values are numbers (SPARQL 1.1 §17.1 numeric types). */
export const numericDatatypes = [
  'integer',
  'decimal',
  'float',
  'double',
  'nonPositiveInteger',
  'negativeInteger',
  'long',
  'int',
  'short',
  'byte',
  'nonNegativeInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
  'positiveInteger',
].map((name) => `${XSD}${name}`);

/** An RDF term as the translator and the result writers see it. Simple literals have no datatype. */
export type Term =
  | { type: 'iri'; value: string }
  | { type: 'bnode'; value: string }
  | { type: 'literal'; value: string; datatype?: string; language?: string };

/**
 * The term type codes of the SQL columns `<var>_t`; their order is SPARQL's ORDER BY order
 * (unbound, blank nodes, IRIs, literals), so sorting by the code sorts the kinds right.
 */
export const termCode = { bnode: 1, iri: 2, literal: 3 } as const;

/** The XSD datatype of a literal taken from a column of the given DuckDB type (R2RML natural mapping). */
export function naturalDatatype(sqlType: string): string | undefined {
  const type = sqlType.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|INT\d*)$/.test(type))
    return xsdInteger;
  if (type.startsWith('DECIMAL') || type.startsWith('NUMERIC')) return xsdDecimal;
  if (type === 'DOUBLE' || type === 'FLOAT' || type === 'REAL') return xsdDouble;
  if (type === 'BOOLEAN') return xsdBoolean;
  if (type === 'DATE') return `${XSD}date`;
  if (type.startsWith('TIMESTAMP')) return `${XSD}dateTime`;
  if (type === 'TIME') return `${XSD}time`;
  if (type === 'BLOB') return `${XSD}hexBinary`;
  return undefined;
}

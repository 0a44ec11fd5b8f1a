import N3 from 'n3';
import { AW, RDF, RR, XSD, rdfType, type Term } from './rdf.js';
import { sqlIdent } from '../../core/sql-text.js';

/** A mapping that cannot be used, with the reason naming the triples map and the problem. */
export class MappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MappingError';
  }
}

export type TermType = 'iri' | 'bnode' | 'literal';

/** One piece of an `rr:template`: fixed text or a column whose value is inserted. */
export type TemplatePart = { text: string } | { column: string };

/** A term map of R2RML §7: constant, column or template, with its term type and literal tags. */
export type TermMap =
  | { kind: 'constant'; term: Term }
  | { kind: 'column'; column: string; termType: TermType; datatype?: string; language?: string; base?: string }
  | {
      kind: 'template';
      parts: TemplatePart[];
      termType: TermType;
      datatype?: string;
      language?: string;
      base?: string;
    };

/** The rows a triples map reads: an SQL FROM item over `<source>.<table>` names. */
export interface LogicalTable {
  /** `"source"."table"` or `(sql query)`: what goes after FROM. */
  from: string;
  /** Where a table is named directly: the source and table, for column types. */
  source?: string;
  table?: string;
  /**
   * Column sets whose values are unique among the rows (`aw:uniqueKey "a, b"` on the logical table,
   * like the primary keys Ontop reads from a database). They let the translator drop self-joins and DISTINCT.
   */
  keys?: string[][];
}

/**
 * One kind of triple a mapping produces, from one row of the child table (joined with a parent row
 * for a referencing object map). This is the unit the translator unfolds triple patterns into.
 */
export interface MappedTriple {
  /** Where it came from, for error messages and explain. */
  origin: string;
  child: LogicalTable;
  /** The parent table of a referencing object map and the join conditions (child column, parent column). */
  parent?: { table: LogicalTable; joins: { child: string; parent: string }[] };
  subject: TermMap;
  predicate: TermMap;
  object: TermMap;
  /** Whether the subject / object map reads the parent row (a referencing object map, or its inverse). */
  subjectOnParent: boolean;
  objectOnParent: boolean;
  /** Graph maps; empty means the default graph. */
  graphs: TermMap[];
}

export interface MappingOptions {
  /** Source that qualifies a table name with no source (`rr:tableName "t"`), for suites written for one database. */
  defaultSource?: string;
  /** Base IRI for relative IRIs produced by templates and columns. */
  baseIri?: string;
}

const rr = (name: string) => N3.DataFactory.namedNode(`${RR}${name}`);
type N3Term = N3.Quad['object'];

/** Quotes each dot-separated part of an SQL name unless it is quoted already. */
function quoteTableName(
  name: string,
  defaultSource: string | undefined,
): { from: string; source?: string; table?: string } {
  const parts = name.match(/"(?:[^"]|"")*"|[^."]+/g) ?? [];
  if (parts.length === 0 || parts.join('.').length !== name.trim().length)
    throw new MappingError(`rr:tableName "${name}" is not a table name`);
  const bare = parts.map((p) => (p.startsWith('"') ? p.slice(1, -1).replace(/""/g, '"') : p));
  if (bare.length === 1 && defaultSource) bare.unshift(defaultSource);
  if (bare.length < 2) throw new MappingError(`rr:tableName "${name}" must name its source: <source>.<table>`);
  const quoted = bare.map((p) => sqlIdent(p)).join('.');
  return { from: quoted, source: bare[0], table: bare.slice(1).join('.') };
}

/** Splits an `rr:template` into text and column parts; `\{` and `\}` escape braces. */
export function parseTemplate(template: string, where: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = '';
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === '\\' && (template[i + 1] === '{' || template[i + 1] === '}' || template[i + 1] === '\\')) {
      text += template[++i];
    } else if (ch === '{') {
      let j = i + 1;
      let column = '';
      while (j < template.length && template[j] !== '}') {
        if (template[j] === '{')
          throw new MappingError(`${where}: rr:template "${template}" has a "{" inside a column name`);
        if (template[j] === '\\' && j + 1 < template.length) j++;
        column += template[j++];
      }
      if (j >= template.length) throw new MappingError(`${where}: rr:template "${template}" has an unclosed "{"`);
      if (column === '') throw new MappingError(`${where}: rr:template "${template}" has an empty column name`);
      if (text) parts.push({ text });
      text = '';
      parts.push({ column: columnName(column) });
      i = j;
    } else if (ch === '}') {
      throw new MappingError(`${where}: rr:template "${template}" has an unmatched "}"`);
    } else text += ch;
  }
  if (text) parts.push({ text });
  return parts;
}

// BCP 47 in short: a 2-3 letter language (or a private-use / grandfathered prefix), then subtags.
const languageTag = /^([a-zA-Z]{2,3}|[xXiI])(-[a-zA-Z0-9]{1,8})*$/;

/** SQL versions R2RML names (the W3C list); another rr:sqlVersion is an error. */
const sqlVersions = new Set(
  [
    'SQL2008',
    'Oracle',
    'MySQL',
    'MSSQLServer',
    'HSQLDB',
    'PostgreSQL',
    'DB2',
    'Informix',
    'Ingres',
    'Progress',
    'SybaseASE',
    'SybaseSQLAnywhere',
    'Virtuoso',
    'Firebird',
  ].map((v) => `${RR}${v}`),
);

/** A column name as R2RML gives it: `"Name"` is a delimited identifier, `Name` a regular one. */
const columnName = (value: string) =>
  value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/""/g, '"') : value;

/** Reads the R2RML mapping of `text` (Turtle) into the triples it produces. Throws MappingError. */
export function loadMapping(text: string, options: MappingOptions = {}): MappedTriple[] {
  let quads: N3.Quad[];
  try {
    quads = new N3.Parser({ baseIRI: options.baseIri }).parse(text);
  } catch (error) {
    throw new MappingError(`the mapping is not valid Turtle: ${(error as Error).message}`);
  }
  return new MappingReader(quads, options).read();
}

/** Where a term map sits in a triples map. */
type Position = 'subject' | 'predicate' | 'object' | 'graph';

/** What every triple of a triples map shares: its logical table, subject map, graph maps and classes. */
interface SubjectMapping {
  table: LogicalTable;
  subject: TermMap;
  graphs: TermMap[];
  classes: string[];
}

/** The R2RML term types, by IRI. */
const termTypes: Record<string, TermType> = {
  [`${RR}IRI`]: 'iri',
  [`${RR}BlankNode`]: 'bnode',
  [`${RR}Literal`]: 'literal',
};

/** A node as Turtle writes it, for error messages. */
const label = (node: N3Term) => (node.termType === 'NamedNode' ? `<${node.value}>` : `_:${node.value}`);

/** Reads the triples maps of one mapping document; every problem is a MappingError naming where it is. */
class MappingReader {
  private readonly store: N3.Store;
  private readonly triplesMaps = new Set<string>();
  private readonly nodes = new Map<string, N3Term>();
  /** Each triples map's subject side, read once: referencing object maps read their parent's again. */
  private readonly subjects = new Map<string, SubjectMapping>();
  private readonly triples: MappedTriple[] = [];

  constructor(
    quads: N3.Quad[],
    private readonly options: MappingOptions,
  ) {
    this.store = new N3.Store(quads);
    for (const q of [
      ...this.store.getQuads(null, rr('logicalTable'), null, null),
      ...this.store.getQuads(null, rr('subjectMap'), null, null),
      ...this.store.getQuads(null, rr('subject'), null, null),
      ...this.store.getQuads(null, N3.DataFactory.namedNode(`${RDF}type`), rr('TriplesMap'), null),
    ]) {
      this.triplesMaps.add(q.subject.id);
      this.nodes.set(q.subject.id, q.subject as N3Term);
    }
    // A document with no statements maps nothing (an empty graph); statements without a triples map are a mistake.
    if (this.triplesMaps.size === 0 && quads.length > 0) throw new MappingError('the mapping defines no rr:TriplesMap');
  }

  read(): MappedTriple[] {
    for (const id of this.triplesMaps) this.readTriplesMap(id);
    shareKeys([...this.subjects.values()].map((s) => s.table));
    return this.triples;
  }

  private objects(subject: N3Term, name: string): N3Term[] {
    return this.store.getObjects(subject, rr(name), null);
  }

  private one(subject: N3Term, name: string, where: string): N3Term | undefined {
    const values = this.objects(subject, name);
    if (values.length > 1)
      throw new MappingError(`${where} has ${values.length} rr:${name} values; at most one is allowed`);
    return values[0];
  }

  private logicalTable(map: N3Term, where: string): LogicalTable {
    const node = this.one(map, 'logicalTable', where);
    if (!node) throw new MappingError(`${where} has no rr:logicalTable`);
    const tableName = this.one(node, 'tableName', where);
    const sqlQuery = this.one(node, 'sqlQuery', where);
    if (tableName && sqlQuery)
      throw new MappingError(`${where}: a logical table has both rr:tableName and rr:sqlQuery`);
    if (tableName) {
      if (tableName.termType !== 'Literal') throw new MappingError(`${where}: rr:tableName must be a string`);
      return { ...quoteTableName(tableName.value, this.options.defaultSource), ...this.uniqueKeys(node, where) };
    }
    if (sqlQuery) {
      if (sqlQuery.termType !== 'Literal') throw new MappingError(`${where}: rr:sqlQuery must be a string`);
      const query = sqlQuery.value.trim().replace(/;\s*$/, '');
      if (query === '') throw new MappingError(`${where}: rr:sqlQuery is empty`);
      for (const version of this.objects(node, 'sqlVersion')) {
        if (!sqlVersions.has(version.value))
          throw new MappingError(`${where}: rr:sqlVersion <${version.value}> is not an SQL version R2RML knows`);
      }
      return { from: `(${query})`, ...this.uniqueKeys(node, where) };
    }
    throw new MappingError(`${where}: the logical table has neither rr:tableName nor rr:sqlQuery`);
  }

  /** The `aw:uniqueKey` declarations of a logical table: each a comma-separated list of column names. */
  private uniqueKeys(node: N3Term, where: string): { keys?: string[][] } {
    const declared = this.store.getObjects(node, N3.DataFactory.namedNode(`${AW}uniqueKey`), null);
    const keys = declared.map((value) => {
      const columns = value.termType === 'Literal' ? value.value.split(',').map((c) => columnName(c.trim())) : [];
      if (columns.length === 0 || columns.some((c) => c === ''))
        throw new MappingError(`${where}: aw:uniqueKey must be a string of comma-separated column names`);
      return columns;
    });
    return keys.length ? { keys } : {};
  }

  /** Reads a term map node (R2RML §7): exactly one of a constant, a column or a template, with its tags. */
  private termMap(node: N3Term, position: Position, where: string): TermMap {
    const constant = this.one(node, 'constant', where);
    const column = this.one(node, 'column', where);
    const template = this.one(node, 'template', where);
    const given = [constant, column, template].filter(Boolean).length;
    if (given !== 1)
      throw new MappingError(
        `${where}: a ${position} map needs exactly one of rr:constant, rr:column, rr:template (found ${given})`,
      );
    const termTypeNode = this.one(node, 'termType', where);
    const datatypeNode = this.one(node, 'datatype', where);
    const languageNode = this.one(node, 'language', where);
    checkLiteralTags(position, datatypeNode, languageNode, where);
    if (constant) {
      if (termTypeNode || datatypeNode || languageNode)
        throw new MappingError(`${where}: a constant term map may not have rr:termType, rr:datatype or rr:language`);
      return { kind: 'constant', term: constantTerm(constant, position, where) };
    }
    const literalTags = Boolean(datatypeNode || languageNode);
    const byDefault: TermType = position === 'object' && (column || literalTags) ? 'literal' : 'iri';
    const termType = checkTermType(termTypeNode, byDefault, position, literalTags, where);
    const tags = {
      datatype: datatypeNode?.value,
      language: languageNode?.value.toLowerCase(),
      ...(termType === 'iri' && this.options.baseIri ? { base: this.options.baseIri } : {}),
    };
    if (column) {
      if (column.termType !== 'Literal' || column.value === '')
        throw new MappingError(`${where}: rr:column must be a non-empty string`);
      return { kind: 'column', column: columnName(column.value), termType, ...tags };
    }
    if (template!.termType !== 'Literal') throw new MappingError(`${where}: rr:template must be a string`);
    return { kind: 'template', parts: parseTemplate(template!.value, where), termType, ...tags };
  }

  /** Term maps given as nodes (rr:subjectMap) or as constant shortcuts (rr:subject). */
  private termMaps(owner: N3Term, mapProperty: string, shortcut: string, position: Position, where: string) {
    return [
      ...this.objects(owner, mapProperty).map((node) => this.termMap(node, position, where)),
      ...this.objects(owner, shortcut).map((node) => ({
        kind: 'constant' as const,
        term: constantTerm(node, position, where),
      })),
    ];
  }

  private subjectOf(id: string): SubjectMapping {
    const cached = this.subjects.get(id);
    if (cached) return cached;
    const node = this.nodes.get(id)!;
    const where = `triples map ${label(node)}`;
    const table = this.logicalTable(node, where);
    const subjectNodes = this.objects(node, 'subjectMap');
    const subjectMaps = this.termMaps(node, 'subjectMap', 'subject', 'subject', where);
    if (subjectMaps.length !== 1)
      throw new MappingError(`${where} needs exactly one subject map (found ${subjectMaps.length})`);
    const classes = subjectNodes
      .flatMap((s) => this.objects(s, 'class'))
      .map((c) => {
        if (c.termType !== 'NamedNode') throw new MappingError(`${where}: rr:class must be an IRI`);
        return c.value;
      });
    const graphs = subjectNodes.flatMap((s) => this.termMaps(s, 'graphMap', 'graph', 'graph', where));
    const entry = { table, subject: subjectMaps[0], graphs, classes };
    this.subjects.set(id, entry);
    return entry;
  }

  private readTriplesMap(id: string): void {
    const node = this.nodes.get(id)!;
    const where = `triples map ${label(node)}`;
    const mapping = this.subjectOf(id);
    const { table, subject, graphs } = mapping;
    for (const cls of mapping.classes) {
      this.triples.push({
        origin: where,
        child: table,
        subject,
        predicate: { kind: 'constant', term: { type: 'iri', value: rdfType } },
        object: { kind: 'constant', term: { type: 'iri', value: cls } },
        subjectOnParent: false,
        objectOnParent: false,
        graphs,
      });
    }
    for (const pom of this.objects(node, 'predicateObjectMap')) this.predicateObjectMap(pom, mapping, where);
  }

  /** The triples of one rr:predicateObjectMap: every predicate with every object. */
  private predicateObjectMap(pom: N3Term, mapping: SubjectMapping, where: string): void {
    const predicates = this.termMaps(pom, 'predicateMap', 'predicate', 'predicate', where);
    if (predicates.length === 0) throw new MappingError(`${where}: a predicate-object map has no predicate map`);
    const graphs = [...mapping.graphs, ...this.termMaps(pom, 'graphMap', 'graph', 'graph', where)];
    const objectNodes = this.objects(pom, 'objectMap');
    const plainObjects = this.objects(pom, 'object').map((o) => ({
      kind: 'constant' as const,
      term: constantTerm(o, 'object', where),
    }));
    if (objectNodes.length + plainObjects.length === 0)
      throw new MappingError(`${where}: a predicate-object map has no object map`);
    const emit = (object: TermMap, parent?: MappedTriple['parent']) => {
      for (const predicate of predicates)
        this.triples.push({
          origin: where,
          child: mapping.table,
          parent,
          subject: mapping.subject,
          predicate,
          object,
          subjectOnParent: false,
          objectOnParent: parent !== undefined,
          graphs,
        });
    };
    for (const object of plainObjects) emit(object);
    for (const objectNode of objectNodes) {
      const parentNode = this.one(objectNode, 'parentTriplesMap', where);
      if (!parentNode) emit(this.termMap(objectNode, 'object', where));
      else {
        const { object, parent } = this.referencingObject(objectNode, parentNode, mapping.table, where);
        emit(object, parent);
      }
    }
  }

  /** A referencing object map: the parent's subjects, joined on the join conditions unless the table is the same. */
  private referencingObject(objectNode: N3Term, parentNode: N3Term, table: LogicalTable, where: string) {
    if (!this.triplesMaps.has(parentNode.id))
      throw new MappingError(`${where}: rr:parentTriplesMap ${label(parentNode)} is not a triples map`);
    const parent = this.subjectOf(parentNode.id);
    const joins = this.objects(objectNode, 'joinCondition').map((condition) => {
      const child = this.one(condition, 'child', where);
      const parentColumn = this.one(condition, 'parent', where);
      if (!child || !parentColumn) throw new MappingError(`${where}: a join condition needs rr:child and rr:parent`);
      return { child: columnName(child.value), parent: columnName(parentColumn.value) };
    });
    if (joins.length === 0 && parent.table.from !== table.from)
      throw new MappingError(
        `${where}: a referencing object map over a different logical table needs an rr:joinCondition`,
      );
    return { object: parent.subject, parent: joins.length ? { table: parent.table, joins } : undefined };
  }
}

/** rr:datatype and rr:language: on object maps only, one at most, the language a valid tag. */
function checkLiteralTags(
  position: Position,
  datatypeNode: N3Term | undefined,
  languageNode: N3Term | undefined,
  where: string,
): void {
  if (position !== 'object' && (datatypeNode || languageNode))
    throw new MappingError(`${where}: rr:datatype and rr:language are allowed only on object maps`);
  if (datatypeNode && languageNode)
    throw new MappingError(`${where}: an object map may not have both rr:datatype and rr:language`);
  if (languageNode && (languageNode.termType !== 'Literal' || !languageTag.test(languageNode.value)))
    throw new MappingError(`${where}: rr:language "${languageNode.value}" is not a valid language tag`);
  if (datatypeNode && datatypeNode.termType !== 'NamedNode')
    throw new MappingError(`${where}: rr:datatype must be an IRI`);
}

/** The term type a term map produces: rr:termType or the default, where its position allows it. */
function checkTermType(
  termTypeNode: N3Term | undefined,
  byDefault: TermType,
  position: Position,
  literalTags: boolean,
  where: string,
): TermType {
  if (termTypeNode && !Object.hasOwn(termTypes, termTypeNode.value))
    throw new MappingError(`${where}: rr:termType <${termTypeNode.value}> is not rr:IRI, rr:BlankNode or rr:Literal`);
  const termType = termTypeNode ? termTypes[termTypeNode.value] : byDefault;
  if (termType === 'literal' && position !== 'object')
    throw new MappingError(`${where}: a ${position} map may not produce literals`);
  if (termType === 'bnode' && (position === 'predicate' || position === 'graph'))
    throw new MappingError(`${where}: a ${position} map may not produce blank nodes`);
  if (termType !== 'literal' && literalTags)
    throw new MappingError(`${where}: rr:datatype and rr:language need rr:termType rr:Literal`);
  return termType;
}

/** The term of an rr:constant (or a constant shortcut such as rr:subject): IRIs, and literals as objects. */
function constantTerm(node: N3Term, position: string, where: string): Term {
  if (node.termType === 'NamedNode') return { type: 'iri', value: node.value };
  if (node.termType === 'Literal' && position === 'object') {
    const literal = node as N3.Literal;
    const language = literal.language || undefined;
    const datatype = language || literal.datatype.value === `${XSD}string` ? undefined : literal.datatype.value;
    return { type: 'literal', value: literal.value, language, datatype };
  }
  throw new MappingError(
    `${where}: rr:constant of a ${position} map must be an IRI${position === 'object' ? ' or a literal' : ''}`,
  );
}

/** A key is a property of the rows: declared on one logical table, it holds for every one with the same FROM text. */
function shareKeys(tables: LogicalTable[]): void {
  const keys = new Map<string, Map<string, string[]>>();
  for (const table of tables)
    for (const key of table.keys ?? [])
      keys.set(table.from, (keys.get(table.from) ?? new Map()).set(JSON.stringify(key), key));
  for (const table of tables) {
    const shared = keys.get(table.from);
    if (shared) table.keys = [...shared.values()];
  }
}

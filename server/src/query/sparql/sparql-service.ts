import { performance } from 'node:perf_hooks';
import sparqljs, { type ConstructQuery, type Query } from 'sparqljs';
import { HttpError, httpError } from '../../core/errors.js';
import { withDeadline } from '../deadline.js';
import type { QueryService } from '../query-service.js';
import { knowledgeGraph, readGraphFiles, type KnowledgeGraph } from '../query-workspace.js';
import { saturate, schemaTriples, type Ontology } from './ontology.js';
import { MappingError, type LogicalTable, type MappedTriple, type MappingOptions } from './r2rml.js';
import { rdfTerm } from './expressions.js';
import { solutions, type Solution } from './results.js';
import type { Term } from './rdf.js';
import { Translator, type Translation } from './translator.js';
import type { ColumnTypes } from './term-sql.js';
import { syntaxErrorPosition } from './syntax-position.js';
import { duplicateSelectNames } from './select-names.js';
import { resolveRelativeIriCalls } from './relative-iris.js';
import { inSpan } from '../../observability/tracing.js';

/** Which limit cut a result, when one did (the SQL result's `truncated_reason`). */
interface Truncation {
  truncated: boolean;
  truncatedReason?: string;
}

/** What a SPARQL query returned, before it is written in the format the client asked for. */
export type SparqlAnswer =
  | ({ kind: 'select'; vars: string[]; rows: Solution[]; sql: string; translateMs: number } & Truncation)
  | { kind: 'ask'; value: boolean; sql: string; translateMs: number }
  | ({ kind: 'construct'; triples: [Term, Term, Term][]; sql: string; translateMs: number } & Truncation);

/** The virtual knowledge graph: the mapping saturated with the ontology, over the query service's sources. */
export class SparqlService {
  constructor(
    private readonly queries: QueryService,
    readonly triples: MappedTriple[],
    readonly ontology: Ontology,
  ) {}

  /** The service over `graph` (as loadQueryWorkspace read it): its mapping saturated with its ontology. */
  static of(queries: QueryService, graph: KnowledgeGraph): SparqlService {
    const triples = [...saturate(graph.mapping, graph.ontology), ...schemaTriples(graph.ontology)];
    return new SparqlService(queries, triples, graph.ontology);
  }

  /**
   * Reads `ontology.ttl` and `mapping.ttl` in `folder` (for runners and benchmarks; the server reads them
   * with the rest of the query folder). No mapping means an empty graph; a file that does not load
   * throws MappingError naming the file, the line and column, and the problem.
   */
  static fromFolder(queries: QueryService, folder: string, options: MappingOptions = {}): SparqlService {
    const graph = knowledgeGraph(readGraphFiles(folder, options));
    if ('fault' in graph) throw new MappingError(graph.fault);
    return SparqlService.of(queries, graph);
  }

  /** Parses SPARQL: 400 with the line and column of a syntax error (an undeclared prefix too). */
  parse(text: string): Query {
    const limit = this.queries.setup.limits.maxQueryLength;
    if (text.length > limit) throw httpError('QUERY_TOO_LARGE', [text.length, limit]);
    if (text.includes('\u0000')) throw httpError('SPARQL_INVALID', ['The query contains a NUL character']);
    // The parser's time grows with the square of the nesting: bound it before parsing.
    if (bracketDepth(text) > maxBrackets)
      throw httpError('SPARQL_INVALID', [`The query is nested more than ${maxBrackets} levels deep`]);
    try {
      const parsed = new sparqljs.Parser().parse(text);
      if (nestingDepth(parsed) > maxNesting)
        throw httpError('SPARQL_INVALID', [`The query is nested more than ${maxNesting} levels deep`]);
      return resolveRelativeIriCalls(parsed as Query);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (error instanceof RangeError) throw httpError('SPARQL_INVALID', ['The query is nested too deeply']);
      const message = (error as Error).message ?? String(error);
      throw httpError(
        'SPARQL_SYNTAX',
        [`${message.split('\n')[0]}${message.includes('\n') ? ` ${message.split('\n').slice(-1)[0]}` : ''}`],
        syntaxErrorPosition(text, error as Error) ?? {},
      );
    }
  }

  /** Column types of SQL-query logical tables, found by running them with LIMIT 0; kept for a minute. */
  private queryTypes = new Map<string, { at: number; types: Map<string, string> }>();

  /** Column types of every logical table: tables from their connectors, SQL queries from the engine. */
  private async tableTypes(): Promise<(table: LogicalTable) => ColumnTypes> {
    const tables = new Map<string, LogicalTable>();
    for (const t of this.triples)
      for (const table of [t.child, t.parent?.table]) if (table) tables.set(table.from, table);
    const types = new Map<string, Map<string, string>>();
    const limits = this.queries.setup.limits;
    await Promise.all(
      [...tables.values()].map(async (table) => {
        if (table.source && table.table) {
          const { connector } = this.queries.catalog.get(table.source) ?? {};
          const name = table.table;
          const info =
            connector &&
            (await withDeadline(limits.timeoutMs, (deadline) => connector.describeTable(name, deadline)).catch(
              () => undefined,
            ));
          if (info) types.set(table.from, new Map(info.columns.map((c) => [c.name.toLowerCase(), c.type])));
          return;
        }
        const cached = this.queryTypes.get(table.from);
        if (cached && Date.now() - cached.at < 60_000) return types.set(table.from, cached.types);
        await this.refuseDuplicateNames(table.from);
        // A query that cannot run leaves its columns untyped; running the SPARQL query reports the error.
        const outcome = await this.queries.engine
          .run(`SELECT * FROM ${table.from} AS q LIMIT 0`, { maxRows: 1, timeoutMs: limits.timeoutMs, kind: 'sparql' })
          .catch(() => undefined);
        if (!outcome) return;
        const found = new Map(outcome.columns.map((c) => [c.name.toLowerCase(), c.type]));
        this.queryTypes.set(table.from, { at: Date.now(), types: found });
        types.set(table.from, found);
      }),
    );
    return (table) => (column) => types.get(table.from)?.get(column.toLowerCase());
  }

  /**
   * 503 when the rr:sqlQuery `from` (`(query)`) names a column twice: which one a column reference means is not
   * known, so the mapping does not conform to R2RML. A query that does not parse is left to running the SPARQL query.
   */
  private async refuseDuplicateNames(from: string): Promise<void> {
    const query = from.slice(1, -1);
    const ast = await this.queries.parse(query).catch(() => undefined);
    const duplicates = ast === undefined ? [] : duplicateSelectNames(ast);
    if (duplicates.length > 0)
      throw httpError('SPARQL_UNAVAILABLE', [
        `the rr:sqlQuery "${query.replace(/\s+/g, ' ').slice(0, 80)}" names the column "${duplicates[0]}" more ` +
          `than once, so a reference to it is ambiguous`,
      ]);
  }

  /** Translates a parsed query to SQL (and how to read its rows), timing the translation. */
  async translate(query: Query): Promise<{ translation: Translation; ms: number }> {
    const types = await this.tableTypes();
    const started = performance.now();
    try {
      const maxPathDepth = this.queries.setup.limits.maxPathDepth;
      const translation = new Translator(this.triples, types, maxPathDepth).translate(query);
      return { translation, ms: performance.now() - started };
    } catch (error) {
      if (error instanceof RangeError) throw httpError('SPARQL_INVALID', ['The query is nested too deeply']);
      throw error;
    }
  }

  /** Runs a SPARQL query through the federated engine; `signal` (the client leaving) interrupts it. */
  async run(text: string, signal?: AbortSignal): Promise<SparqlAnswer> {
    const query = this.parse(text);
    const { translation, ms } = await inSpan('sparql translation', () => this.translate(query));
    for (const check of translation.checks ?? [])
      if ((await this.queries.sql(check, signal, 'sparql')).rows.length > 0)
        throw httpError('SPARQL_PATH_TOO_DEEP', [this.queries.setup.limits.maxPathDepth]);
    const outcome = await this.queries.sql(translation.sql, signal, 'sparql');
    if (query.queryType === 'ASK')
      return { kind: 'ask', value: outcome.rows.length > 0, sql: translation.sql, translateMs: ms };
    const rows = solutions(outcome.rows, translation.columns);
    const truncation: Truncation = { truncated: outcome.truncated, truncatedReason: outcome.truncated_reason };
    if (query.queryType === 'CONSTRUCT')
      return {
        kind: 'construct',
        triples: construct(query, rows),
        sql: translation.sql,
        translateMs: ms,
        ...truncation,
      };
    return {
      kind: 'select',
      vars: translation.columns.map((c) => c.name),
      rows,
      sql: translation.sql,
      translateMs: ms,
      ...truncation,
    };
  }
}

/** Deepest `{` / `(` / `[` nesting accepted in the query text. */
const maxBrackets = 64;

/** The deepest bracket nesting of SPARQL text, skipping strings and comments. */
export function bracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      const long = text.startsWith(ch.repeat(3), i);
      const end = long ? ch.repeat(3) : ch;
      i += long ? 3 : 1;
      while (i < text.length && !text.startsWith(end, i)) i += text[i] === '\\' ? 2 : 1;
      i += end.length - 1;
    } else if (ch === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '{' || ch === '(' || ch === '[') deepest = Math.max(deepest, ++depth);
    else if (ch === '}' || ch === ')' || ch === ']') depth--;
  }
  return deepest;
}

/** Deepest nesting of the parsed query's objects the translator recurses through. */
const maxNesting = 200;

/** How deep the syntax tree goes, measured without recursion so a hostile tree cannot overflow the stack. */
function nestingDepth(root: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > maxNesting) return deepest;
    for (const value of Object.values(node))
      if (value !== null && typeof value === 'object') stack.push([value, depth + 1]);
  }
  return deepest;
}

/** Fills a CONSTRUCT template with each solution; blank nodes are fresh per solution, invalid triples skipped. */
function construct(query: ConstructQuery, rows: Solution[]): [Term, Term, Term][] {
  const seen = new Set<string>();
  const out: [Term, Term, Term][] = [];
  rows.forEach((row, i) => {
    const resolve = (node: { termType: string; value: string }): Term | undefined => {
      if (node.termType === 'Variable') return row.get(node.value);
      if (node.termType === 'BlankNode') return { type: 'bnode', value: `${node.value}.${i}` };
      return rdfTerm(node as never);
    };
    for (const pattern of query.template ?? []) {
      const s = resolve(pattern.subject as never);
      const p = resolve(pattern.predicate as never);
      const o = resolve(pattern.object as never);
      if (!s || !p || !o || s.type === 'literal' || p.type !== 'iri') continue;
      const key = JSON.stringify([s, p, o]);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push([s, p, o]);
    }
  });
  return out;
}

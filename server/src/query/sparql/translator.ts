import type { ConstructQuery, Expression, Ordering, Pattern, Query, SelectQuery, Triple } from 'sparqljs';
import { compileExpression } from './expressions.js';
import type { MappedTriple } from './r2rml.js';
import { Algebra } from './algebra.js';
import { expandPropertyPaths } from './property-paths.js';
import { closureRel, isClosure } from './path-closure.js';
import { defaultLimits } from '../sources.js';
import { Aggregation, type SelectItem } from './aggregation.js';
import { BgpUnfolder } from './bgp-unfolding.js';
import { branchOutput, orderKeys, output, project } from './projection.js';
import {
  SqlNames,
  assignedTwice,
  hiddenPrefix,
  unitSql,
  type Rel,
  type TableTypes,
  type Translation,
} from './relation.js';
import { select, subquery } from './sql-select.js';
import { unsupported } from './sparql-errors.js';

/** The translation's shape, where callers of the translator read it. */
export type { Translation } from './relation.js';

/** The solution modifiers sparqljs gives every query form, though its types declare them on SELECT only. */
type Modifiers = Pick<SelectQuery, 'order' | 'limit' | 'offset'>;

/**
 * Translates parsed SPARQL into one SQL query over the mapped triples (already saturated). Each graph
 * pattern becomes a relation (`Rel`): basic graph patterns unfold over the mapping (`BgpUnfolder`), the
 * other patterns combine relations (`Algebra`), and SELECT groups (`Aggregation`) and projects them.
 */
export class Translator {
  private readonly names = new SqlNames();
  private readonly algebra = new Algebra(this.names, (pattern) => this.pattern(pattern));
  private readonly aggregation = new Aggregation(this.names, this.algebra);

  /** Queries that return a row when a path of any length needed more steps than the bound. */
  private readonly checks: string[] = [];

  /** `maxPathDepth`: the most steps a path of any length (`*`, `+`) follows. */
  constructor(
    private readonly triples: readonly MappedTriple[],
    private readonly tableTypes: TableTypes,
    private readonly maxPathDepth = defaultLimits.maxPathDepth,
  ) {}

  /** The whole query: SELECT, ASK or CONSTRUCT (whose template is filled in by the caller). */
  translate(query: Query): Translation {
    const translation = this.translateQuery(query);
    return this.checks.length ? { ...translation, checks: this.checks } : translation;
  }

  private translateQuery(query: Query): Translation {
    if (query.type !== 'query') throw unsupported('SPARQL Update');
    if ((query.from?.default?.length ?? 0) + (query.from?.named?.length ?? 0) > 0)
      throw unsupported('FROM / FROM NAMED');
    if (query.queryType === 'DESCRIBE') throw unsupported('DESCRIBE');
    if (query.queryType === 'ASK') {
      const rel = this.withValues(this.group(query.where ?? []), query);
      return { sql: select({ items: [], from: subquery(rel.sql, this.names.alias()), limit: 1 }), columns: [] };
    }
    if (query.queryType === 'CONSTRUCT') return this.construct(query);
    const result = this.selectQuery(query as SelectQuery);
    if (result.branch) return branchOutput(this.names, result, result.branch);
    // The client reads up to four columns per variable; the numeric one stays inside (and is never computed).
    const top = this.names.alias();
    const { items, columns } = output(this.names, result, top, [...result.vars.keys()]);
    return { sql: select({ items, from: subquery(result.sql, top) }), columns };
  }

  /** The solutions a CONSTRUCT template is filled with: every variable of its pattern. */
  private construct(query: ConstructQuery & Modifiers): Translation {
    const rel = this.withValues(this.group(query.where ?? []), query);
    const a = this.names.alias();
    const orderBy = this.orderBy(query.order, rel, a);
    const { items, columns } = output(this.names, rel, a, [...rel.vars.keys()]);
    const { limit, offset } = query;
    return { sql: select({ items, from: subquery(rel.sql, a), orderBy, limit, offset }), columns };
  }

  private withValues(rel: Rel, query: Query): Rel {
    return query.values ? this.algebra.join(rel, this.algebra.values(query.values)) : rel;
  }

  /** ORDER BY keys over the columns of `alias`. */
  private orderBy(order: Ordering[] = [], rel: Rel, alias: string): string[] {
    const scope = this.algebra.scope(rel, alias);
    return order.flatMap((o) => orderKeys(compileExpression(o.expression, scope), o.descending ?? false));
  }

  /** A SELECT query (top level or sub-query): grouping, projection, DISTINCT, ORDER BY, LIMIT. */
  private selectQuery(query: SelectQuery): Rel {
    let rel = this.withValues(this.group(query.where ?? []), query);
    const variables = query.variables;
    const star = variables.length === 1 && (variables[0] as { termType?: string }).termType === 'Wildcard';
    const projections = star ? [] : (variables as SelectItem[]);
    const hasAggregate = JSON.stringify([projections, query.having ?? [], query.order ?? []]).includes(
      '"type":"aggregate"',
    );
    let alias = this.names.alias();
    let orderSql: string[] | undefined;
    if (query.group || hasAggregate || query.having)
      ({ rel, alias, orderSql } = this.aggregation.aggregate(query, rel, alias, projections));
    else rel = this.bindProjections(rel, projections);
    return project(this.names, {
      rel,
      alias,
      variables: star
        ? [...rel.vars.keys()].filter((n) => !n.startsWith(hiddenPrefix))
        : projections.map((p) => ('expression' in p ? p.variable.value : p.value)),
      order: orderSql ?? this.orderBy(query.order, rel, alias),
      grouped: orderSql !== undefined,
      distinct: Boolean(query.distinct || query.reduced),
      limit: query.limit,
      offset: query.offset,
    });
  }

  /** The `(expression AS ?name)` items of an ungrouped SELECT, each bound like BIND. */
  private bindProjections(input: Rel, projections: SelectItem[]): Rel {
    let rel = input;
    for (const p of projections) {
      if ('expression' in p) {
        const name = p.variable.value;
        if (rel.vars.has(name)) throw assignedTwice(name);
        rel = this.algebra.extend(rel, name, p.expression);
      }
    }
    return rel;
  }

  /** A group graph pattern (SPARQL 1.1 §18.2.2): joins, OPTIONAL, MINUS, BIND, then the group's filters. */
  private group(written: Pattern[]): Rel {
    const patterns = expandPropertyPaths(written);
    // A group of one basic graph pattern and filters: the filters go into the pattern's SQL, before deduplication.
    const bgps = patterns.filter((p) => p.type === 'bgp');
    const pushable = patterns.filter(
      (p) => p.type === 'filter' && !/"operator":"(not)?exists"/.test(JSON.stringify(p)),
    );
    if (bgps.length === 1 && pushable.length > 0 && bgps.length + pushable.length === patterns.length) {
      return this.bgp(
        (bgps[0] as { triples: Triple[] }).triples,
        pushable.map((p) => (p as { expression: Expression }).expression),
      );
    }
    let rel: Rel = { sql: unitSql, vars: new Map() };
    const filters: Expression[] = [];
    for (const pattern of patterns) {
      switch (pattern.type) {
        case 'filter':
          filters.push(pattern.expression);
          break;
        case 'optional': {
          const inner = pattern.patterns;
          const innerFilters = inner
            .filter((p) => p.type === 'filter')
            .map((p) => (p as { expression: Expression }).expression);
          const right = this.group(inner.filter((p) => p.type !== 'filter'));
          rel = this.algebra.leftJoin(rel, right, innerFilters);
          break;
        }
        case 'minus':
          rel = this.algebra.minus(rel, this.group(pattern.patterns));
          break;
        case 'bind':
          if (rel.vars.has(pattern.variable.value)) throw assignedTwice(pattern.variable.value);
          rel = this.algebra.extend(rel, pattern.variable.value, pattern.expression);
          break;
        default:
          rel = this.algebra.join(rel, this.pattern(pattern));
      }
    }
    for (const f of filters) rel = this.algebra.filter(rel, f);
    return rel;
  }

  private pattern(pattern: Pattern): Rel {
    if (isClosure(pattern))
      return closureRel(pattern, {
        names: this.names,
        pattern: (p) => this.pattern(p),
        maxDepth: this.maxPathDepth,
        addCheck: (sql) => this.checks.push(sql),
      });
    switch (pattern.type) {
      case 'bgp': {
        const [plain, ...more] = expandPropertyPaths([pattern]);
        return plain.type === 'bgp' && more.length === 0 ? this.bgp(plain.triples) : this.group([plain, ...more]);
      }
      case 'group':
        return this.group(pattern.patterns);
      case 'union':
        return pattern.patterns.map((p) => this.pattern(p)).reduce((x, y) => this.algebra.union(x, y));
      case 'values':
        return this.algebra.values(pattern.values);
      case 'query':
        if (pattern.queryType !== 'SELECT') throw unsupported(`a ${pattern.queryType} sub-query`);
        return this.selectQuery(pattern as SelectQuery);
      case 'graph':
        throw unsupported('GRAPH (named graph queries)');
      case 'service':
        throw unsupported('SERVICE (federated queries)');
      case 'bind':
      case 'filter':
      case 'optional':
      case 'minus':
        return this.group([pattern]);
      default:
        throw unsupported(`the pattern "${(pattern as { type: string }).type}"`);
    }
  }

  /** A basic graph pattern with the group's `filters`; no triple patterns match once, then filter. */
  private bgp(patterns: Triple[], filters: Expression[] = []): Rel {
    if (patterns.length === 0) {
      const unit: Rel = { sql: unitSql, vars: new Map() };
      return filters.reduce((rel, f) => this.algebra.filter(rel, f), unit);
    }
    return new BgpUnfolder(this.names, this.triples, this.tableTypes, patterns, filters).unfold();
  }
}

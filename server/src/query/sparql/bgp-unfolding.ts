import type { Expression, Triple } from 'sparqljs';
import { compileExpression, rdfTerm, type ExpressionScope } from './expressions.js';
import { toBool } from './value-sql.js';
import type { LogicalTable, MappedTriple, TermMap } from './r2rml.js';
import {
  equatedColumns,
  mapColumns,
  sqlEquals,
  termMapSql,
  termsEqual,
  type BoundMap,
  type ColumnTypes,
} from './term-sql.js';
import { ColumnClasses, distinctOnProjection, mergeSelfJoins, type Occurrence } from './self-joins.js';
import { columnComparison, conjuncts } from './column-filters.js';
import { hiddenPrefix, type Fixed, type Projection, type Rel, type SqlNames, type TableTypes } from './relation.js';
import { select, subquery, type SelectClauses } from './sql-select.js';
import { unsupported } from './sparql-errors.js';
import { sqlIdent } from '../../core/sql-text.js';

/** Most alternative SQL branches one basic graph pattern may unfold into. */
const maxBranches = 256;

/** A pattern position: a variable name or a constant term map. */
type Position = { variable: string } | { constant: TermMap };

/** A mapped triple chosen for one triple pattern, its tables read as `<alias>c` (child) and `<alias>p` (parent). */
interface Choice {
  triple: MappedTriple;
  alias: string;
}

/** What self-join elimination learns while clauses are rendered: the table occurrences and the equal columns. */
interface JoinFacts {
  occurrences: Occurrence[];
  classes: ColumnClasses;
}

/** A constant term map, bound to no table. */
const constantBound = (map: TermMap): BoundMap => ({ map, alias: '', types: () => undefined });

function position(node: Triple['subject'] | Triple['predicate'] | Triple['object']): Position {
  const n = node as { termType: string; value: string };
  if (n.termType === 'Variable') return { variable: n.value };
  if (n.termType === 'BlankNode') return { variable: `${hiddenPrefix}${n.value}` };
  if (n.termType === 'Quad') throw unsupported('RDF-star quoted triples');
  return { constant: { kind: 'constant', term: rdfTerm(n as never)! } };
}

/**
 * The FROM and WHERE clauses of one combination of mapped triples, added triple by triple. Each table
 * reference is read through `at(alias)` (self-join elimination maps replaced aliases); `facts`, when
 * given, learns what joins them.
 */
class BranchClauses {
  readonly from: string[] = [];
  readonly where: string[] = [];
  /** The term map each variable is bound to: its first position. */
  readonly bindings = new Map<string, BoundMap>();
  /** False when two positions can never hold the same term. */
  possible = true;

  constructor(
    private readonly tableTypes: TableTypes,
    private readonly at: (alias: string) => string,
    private readonly facts?: JoinFacts,
  ) {}

  add({ triple, alias }: Choice, positions: readonly Position[]): void {
    const childTypes = this.tableTypes(triple.child);
    const parentTypes = triple.parent ? this.tableTypes(triple.parent.table) : childTypes;
    const child = this.occurrence(`${alias}c`, triple.child, childTypes);
    const parent = triple.parent ? this.occurrence(`${alias}p`, triple.parent.table, parentTypes) : child;
    for (const j of triple.parent?.joins ?? []) {
      this.where.push(
        sqlEquals(`${this.at(child.alias)}.${sqlIdent(j.child)}`, `${this.at(parent.alias)}.${sqlIdent(j.parent)}`),
      );
      child.used.add(j.child);
      parent.used.add(j.parent);
      if (childTypes(j.child) !== undefined && childTypes(j.child) === parentTypes(j.parent))
        this.facts?.classes.union([child.alias, j.child], [parent.alias, j.parent]);
    }
    const maps = [
      this.bind(triple.subject, triple.subjectOnParent ? parent : child),
      this.bind(triple.predicate, child),
      this.bind(triple.object, triple.objectOnParent ? parent : child),
    ];
    for (const m of maps)
      for (const column of mapColumns(m.map)) this.where.push(`${m.alias}.${sqlIdent(column)} IS NOT NULL`);
    positions.forEach((p, k) => this.match(p, maps[k]));
  }

  private occurrence(alias: string, table: LogicalTable, types: ColumnTypes): Occurrence {
    if (this.at(alias) === alias) this.from.push(`${table.from} ${alias}`);
    const o: Occurrence = { alias, table, types, used: new Set() };
    this.facts?.occurrences.push(o);
    return o;
  }

  /** `map` read from the row of `o`, whose columns it uses. */
  private bind(map: TermMap, o: Occurrence): BoundMap {
    for (const column of mapColumns(map)) o.used.add(column);
    return { map, alias: this.at(o.alias), types: o.types };
  }

  /** A position's term is `m`: it binds a new variable, or must equal the constant or earlier binding. */
  private match(p: Position, m: BoundMap): void {
    const previous = 'constant' in p ? constantBound(p.constant) : this.bindings.get(p.variable);
    if (!previous) {
      this.bindings.set((p as { variable: string }).variable, m);
      return;
    }
    for (const [ca, cb] of this.facts ? equatedColumns(previous, m) : [])
      this.facts!.classes.union([previous.alias, ca], [m.alias, cb]);
    const condition = termsEqual(previous, m);
    if (condition === false) this.possible = false;
    else if (condition !== 'TRUE') this.where.push(condition);
  }
}

/**
 * A basic graph pattern: every combination of mapped triples that can produce its triple patterns
 * becomes one SELECT over the joined source tables; their set union is the pattern's answer.
 * `filters` are the group's filters, applied in each SELECT before deduplication.
 */
export class BgpUnfolder {
  private readonly positions: (readonly Position[])[];
  /** The pattern's variables, in order of appearance. */
  private readonly variables: string[];
  /** The mapped triples that may match each triple pattern. */
  private readonly candidates: MappedTriple[][];
  /** One mapped triple per triple pattern so far, as the unfolding descends. */
  private readonly chosen: Choice[] = [];
  private readonly branches: string[] = [];
  /** Each branch's SELECT for other items, where its rows do not depend on them (no DISTINCT on the terms). */
  private readonly reprojections: Rel['branch'][] = [];
  /** The kind of each variable's terms, while every branch so far agrees on it. */
  private readonly kinds = new Map<string, Fixed | null>();

  constructor(
    private readonly names: SqlNames,
    triples: readonly MappedTriple[],
    private readonly tableTypes: TableTypes,
    patterns: Triple[],
    private readonly filters: Expression[],
  ) {
    this.positions = patterns.map((p) => [position(p.subject), position(p.predicate), position(p.object)]);
    this.variables = [
      ...new Set(this.positions.flatMap((ps) => ps.flatMap((p) => ('variable' in p ? [p.variable] : [])))),
    ];
    this.candidates = this.positions.map(([, predicate]) =>
      triples.filter(
        (t) =>
          !('constant' in predicate) ||
          termsEqual(constantBound(predicate.constant), constantBound(t.predicate)) !== false,
      ),
    );
  }

  /** The union of every branch, or no solutions when no combination of mapped triples fits. */
  unfold(): Rel {
    const vars = new Map(this.variables.map((n) => [n, false]));
    this.choose(0);
    if (this.branches.length === 0) return this.names.noSolutions(vars);
    // The graph is a set: a solution found through several mappings (or duplicate rows) counts once.
    const fixed = new Map([...this.kinds].filter((entry): entry is [string, Fixed] => entry[1] !== null));
    const single = this.branches.length === 1;
    return {
      sql: single ? this.branches[0] : this.branches.join(' UNION '),
      vars,
      fixed,
      branch: single ? this.reprojections[0] : undefined,
    };
  }

  /** Every candidate for triple pattern `i` and on, depth first. */
  private choose(i: number): void {
    if (i === this.positions.length) return this.emit();
    for (const triple of this.candidates[i]) {
      this.chosen.push({ triple, alias: `t${i}` });
      this.choose(i + 1);
      this.chosen.pop();
    }
  }

  /** The clauses of the chosen combination, each table alias read through `at`; `facts` learns what joins them. */
  private render(at: (alias: string) => string, facts?: JoinFacts): BranchClauses {
    const clauses = new BranchClauses(this.tableTypes, at, facts);
    this.chosen.forEach((choice, i) => clauses.add(choice, this.positions[i]));
    return clauses;
  }

  /** The SELECT of the chosen combination, unless it can produce nothing. */
  private emit(): void {
    const facts: JoinFacts = { occurrences: [], classes: new ColumnClasses() };
    let clauses = this.render((alias) => alias, facts);
    if (!clauses.possible) return;
    const merged = mergeSelfJoins(facts.occurrences, facts.classes);
    if (merged.size > 0) clauses = this.render((alias) => merged.get(alias) ?? alias);
    const { from, where, bindings } = clauses;
    this.learnKinds(bindings);
    where.push(...this.filterConditions(bindings));
    const body = { from: from.join(', '), where: [...new Set(where)] };
    const bound = this.variables.map((n) => bindings.get(n)!);
    const kept = facts.occurrences.filter((o) => !merged.has(o.alias));
    const reproject = bound.every(injective) ? this.reprojection(bound, body, kept, facts.classes) : undefined;
    this.branches.push(
      reproject
        ? reproject(this.names.termItems)
        : select({ distinct: true, items: this.items(this.names.termItems, bound), ...body }),
    );
    this.reprojections.push(reproject);
    if (this.branches.length > maxBranches)
      throw unsupported(
        `a basic graph pattern that unfolds into more than ${maxBranches} alternatives over the mapping`,
      );
  }

  /** The SELECT items of every variable, projected from its bound term map. */
  private items(project: Projection, bound: BoundMap[]): string[] {
    return this.variables.flatMap((n, i) => project(n, bound[i]));
  }

  /** Records each variable's kind, or that branches disagree on it. */
  private learnKinds(bindings: Map<string, BoundMap>): void {
    for (const name of this.variables) {
      const { t, d, l } = termMapSql(bindings.get(name)!);
      const known = this.kinds.get(name);
      if (known === undefined) this.kinds.set(name, { t, d, l });
      else if (known && (known.t !== t || known.d !== d || known.l !== l)) this.kinds.set(name, null);
    }
  }

  /** The group's filters on this branch's rows: column comparisons where they can be, expressions elsewhere. */
  private filterConditions(bindings: Map<string, BoundMap>): string[] {
    const rowScope: ExpressionScope = {
      variable: (name) => (bindings.has(name) ? termMapSql(bindings.get(name)!) : undefined),
    };
    return this.filters
      .flatMap(conjuncts)
      .map(
        (f) =>
          columnComparison(f, (name) => bindings.get(name)) ??
          `coalesce(${toBool(compileExpression(f, rowScope))}, FALSE)`,
      );
  }

  /** The branch's SELECT for any items: its rows are distinct terms without a DISTINCT on the terms. */
  private reprojection(
    bound: BoundMap[],
    body: Omit<SelectClauses, 'items'>,
    kept: Occurrence[],
    classes: ColumnClasses,
  ): NonNullable<Rel['branch']> {
    const projected = bound.flatMap((b) => mapColumns(b.map).map((column) => [b.alias, column] as const));
    // Rows unique on a key of every table are already a set: the terms are rendered from them directly.
    if (distinctOnProjection(kept, classes, projected))
      return (project) => select({ items: this.items(project, bound), ...body });
    // Distinct source values give distinct terms: deduplicate the narrow source columns, then render the terms.
    const raw = new Map<string, string>();
    const renamed = bound.map((b) =>
      renameColumns(b, (column) => {
        const name = `${b.alias}__${column}`;
        raw.set(name, `${b.alias}.${sqlIdent(column)} AS ${sqlIdent(name)}`);
        return name;
      }),
    );
    const r = this.names.alias();
    const rows = select({ distinct: true, items: [...raw.values()], ...body });
    return (project) =>
      select({
        items: this.items(
          project,
          renamed.map((b) => ({ ...b, alias: r })),
        ),
        from: subquery(rows, r),
      });
  }
}

/** Whether different source values of a bound term map always give different terms. */
function injective(bound: BoundMap): boolean {
  const { map } = bound;
  if (map.kind === 'constant') return true;
  if (map.base) return false;
  const timestamp = (column: string) => /^TIMESTAMP/i.test(bound.types(column) ?? '');
  if (map.kind === 'column') return !timestamp(map.column);
  const columns = map.parts.filter((p): p is { column: string } => 'column' in p);
  if (columns.some((c) => timestamp(c.column))) return false;
  if (columns.length <= 1) return true;
  // Several columns: IRI-safe encoding keeps values apart only where fixed text with a reserved character separates
  // them.
  return (
    map.termType === 'iri' &&
    map.parts.every((p, i) =>
      'text' in p
        ? i === 0 || i === map.parts.length - 1 || /[^A-Za-z0-9\-._~]/.test(p.text)
        : !('column' in (map.parts[i + 1] ?? {})),
    )
  );
}

/** The same term map reading renamed columns (of a sub-query), with the original column types. */
function renameColumns(bound: BoundMap, rename: (column: string) => string): BoundMap {
  const { map } = bound;
  const types = new Map<string, string | undefined>();
  const column = (c: string) => {
    const name = rename(c);
    types.set(name.toLowerCase(), bound.types(c));
    return name;
  };
  const renamed: TermMap =
    map.kind === 'column'
      ? { ...map, column: column(map.column) }
      : map.kind === 'template'
        ? { ...map, parts: map.parts.map((p) => ('column' in p ? { column: column(p.column) } : p)) }
        : map;
  return { map: renamed, alias: bound.alias, types: (c) => types.get(c.toLowerCase()) };
}

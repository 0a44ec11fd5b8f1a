import type { LogicalTable, TemplatePart } from './r2rml.js';
import { termMapSql, type BoundMap, type ColumnTypes, type TermSql } from './term-sql.js';
import { numberOf, sqlText } from './value-sql.js';
import { select } from './sql-select.js';
import { unsupported } from './sparql-errors.js';

/** A solution sequence as SQL: a SELECT with five columns (`<id>_t/_v/_d/_l/_n`) per variable. */
export interface Rel {
  sql: string;
  /** variable name -> whether it may be unbound */
  vars: Map<string, boolean>;
  /** Always-bound variables whose term type, datatype and language are the same SQL constants in every row. */
  fixed?: Map<string, Fixed>;
  /** For the one SELECT of a basic graph pattern: that SELECT with other items per variable (the final projection's).
   * */
  branch?: (project: Projection) => string;
  /** The branch ends in LIMIT/OFFSET: it may lose items, but another slice needs a SELECT around it. */
  sliced?: boolean;
}

/** The SELECT items of one variable, from its term map as bound in the FROM clause. */
export type Projection = (name: string, bound: BoundMap) => string[];

/** The constant `t`, `d` and `l` expressions of a variable's terms. */
export type Fixed = Pick<TermSql, 't' | 'd' | 'l'>;

/** The term kind columns the client need not read because they are the same in every row. */
export interface FixedKind {
  t: number;
  d: string;
  l: string;
}

/** Column types of every logical table, by its FROM text. */
export type TableTypes = (table: LogicalTable) => ColumnTypes;

/** The translation of one query: the SQL and how to read its columns back. */
export interface Translation {
  sql: string;
  /**
   * Projected variables, in order, with their column prefix, the kind when it is the same in every row,
   * and where the value is a template read in parts, its fixed text and the result columns between.
   */
  columns: { name: string; id: string; fixed?: FixedKind; template?: TemplatePart[] }[];
  /** Queries run first: a row from any means a path of any length needed more steps than the bound allows. */
  checks?: string[];
}

/** The column suffixes of a variable: term type, value, datatype, language, number. */
export const termSuffixes = ['t', 'v', 'd', 'l', 'n'] as const;

/** The columns of a variable a relation does not bind. */
export const nullTerm: TermSql = {
  t: 'CAST(NULL AS INTEGER)',
  v: 'CAST(NULL AS VARCHAR)',
  d: 'CAST(NULL AS VARCHAR)',
  l: 'CAST(NULL AS VARCHAR)',
  n: 'CAST(NULL AS DOUBLE)',
};

/** Names the SPARQL grammar cannot produce, for blank nodes of the query acting as hidden variables. */
export const hiddenPrefix = ' b';

/** The SQL of the relation with one solution that binds nothing: the identity of join. */
export const unitSql = select({ items: [] });

/**
 * The names of one translation: each variable's column prefix (`v0`, `v1`, ... in order of first use)
 * and a fresh alias (`q0`, `q1`, ...) for every sub-query.
 */
export class SqlNames {
  private readonly ids = new Map<string, string>();
  private aliasCount = 0;

  /** The column prefix of variable `name`. */
  id(name: string): string {
    let id = this.ids.get(name);
    if (!id) this.ids.set(name, (id = `v${this.ids.size}`));
    return id;
  }

  alias(): string {
    return `q${this.aliasCount++}`;
  }

  /** A variable's columns under `alias`; constants where `rel` knows its kind, so expressions on it fold. */
  cols(alias: string, name: string, rel?: Rel): TermSql {
    const id = this.id(name);
    const p = `${alias}.`;
    const fixed = rel?.vars.get(name) === false ? rel.fixed?.get(name) : undefined;
    return { t: `${p}${id}_t`, v: `${p}${id}_v`, d: `${p}${id}_d`, l: `${p}${id}_l`, n: `${p}${id}_n`, ...fixed };
  }

  /** The five SELECT items of a variable bound to `term`, as one comma-separated text. */
  termColumns(name: string, term: TermSql): string {
    const id = this.id(name);
    // Every relation carries the numeric value column, so numbers are parsed once, where they enter.
    return termSuffixes
      .map((s) => `${s === 'n' ? `CAST(${numberOf(term)} AS DOUBLE)` : term[s]} AS ${id}_${s}`)
      .join(', ');
  }

  /** A variable's term columns, rendered from its bound term map: the projection every relation carries. */
  readonly termItems: Projection = (name, bound) => [this.termColumns(name, termMapSql(bound))];

  /** The relation with no solutions over the variables `vars`. */
  noSolutions(vars: Map<string, boolean>): Rel {
    return {
      sql: select({ items: [...vars.keys()].map((n) => this.termColumns(n, nullTerm)), where: ['FALSE'] }),
      vars,
    };
  }
}

/** The fixed kinds, from the first source that knows one, of the variables `vars` says are always bound. */
export function keepFixed(
  vars: Map<string, boolean>,
  ...sources: (Map<string, Fixed> | undefined)[]
): Map<string, Fixed> {
  const out = new Map<string, Fixed>();
  for (const [name, nullable] of vars) {
    if (nullable) continue;
    const found = sources.map((source) => source?.get(name)).find(Boolean);
    if (found) out.set(name, found);
  }
  return out;
}

/** A fixed kind as values, when its expressions are plain SQL constants. */
export function fixedKind(fixed: Fixed | undefined): FixedKind | undefined {
  if (!fixed || !/^\d+$/.test(fixed.t)) return undefined;
  const d = sqlText(fixed.d);
  const l = sqlText(fixed.l);
  return d === undefined || l === undefined ? undefined : { t: Number(fixed.t), d, l };
}

/** BIND or a SELECT expression naming a variable the group already binds. */
export function assignedTwice(name: string) {
  return unsupported(`assigning ?${name}, which is already in scope (not allowed by SPARQL)`);
}

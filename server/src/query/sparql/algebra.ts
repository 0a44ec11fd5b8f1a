import type { Expression, Pattern } from 'sparqljs';
import { compileExpression, type ExpressionScope } from './expressions.js';
import { numberOf, toBool, toTerm } from './value-sql.js';
import type { TermSql } from './term-sql.js';
import { keepFixed, nullTerm, unitSql, type Rel, type SqlNames } from './relation.js';
import { select, subquery } from './sql-select.js';

/** The columns of a variable both sides of a join may bind: the first side's where it binds it. */
const coalesced = (x: TermSql, y: TermSql): TermSql => ({
  t: `coalesce(${x.t}, ${y.t})`,
  v: `coalesce(${x.v}, ${y.v})`,
  d: `coalesce(${x.d}, ${y.d})`,
  l: `coalesce(${x.l}, ${y.l})`,
  n: `coalesce(${x.n}, ${y.n})`,
});

/** Two bindings of one variable agree: the same term, or one of them unbound. */
const compatible = (x: TermSql, y: TermSql): string =>
  `(${x.t} IS NULL OR ${y.t} IS NULL OR (${x.v} = ${y.v} AND ${x.t} = ${y.t} AND ${x.d} = ${y.d} AND ${x.l} = ${y.l}))`;

/**
 * The operators of SPARQL's algebra over relations (SPARQL 1.1 §18.5): join, left join, union, minus,
 * extend, filter, VALUES tables and EXISTS. `pattern` translates the graph patterns EXISTS tests.
 */
export class Algebra {
  constructor(
    private readonly names: SqlNames,
    private readonly pattern: (pattern: Pattern) => Rel,
  ) {}

  /** The variables of `rel` read through `alias`, and EXISTS over them, for expressions on its rows. */
  scope(rel: Rel, alias: string): ExpressionScope {
    return {
      variable: (name) => (rel.vars.has(name) ? this.names.cols(alias, name, rel) : undefined),
      exists: (pattern, negated) => this.exists(pattern, negated, rel, alias),
    };
  }

  /** Every variable of `rel` read through `alias`, as SELECT items. */
  private passThrough(rel: Rel, alias: string): string[] {
    return [...rel.vars.keys()].map((n) => this.names.termColumns(n, this.names.cols(alias, n)));
  }

  /** Columns of the union of two relations' variables, taking shared ones from both. */
  private joinOutput(x: Rel, y: Rel, ax: string, ay: string, left: boolean) {
    const { names } = this;
    const items: string[] = [];
    const on: string[] = [];
    const vars = new Map<string, boolean>();
    for (const [name, nx] of x.vars) {
      const ny = y.vars.get(name);
      if (ny === undefined) {
        items.push(names.termColumns(name, names.cols(ax, name)));
        vars.set(name, nx);
        continue;
      }
      const cx = names.cols(ax, name);
      const cy = names.cols(ay, name);
      const equal = `${cx.v} = ${cy.v} AND ${cx.t} = ${cy.t} AND ${cx.d} = ${cy.d} AND ${cx.l} = ${cy.l}`;
      on.push(nx || ny ? `(${cx.t} IS NULL OR ${cy.t} IS NULL OR (${equal}))` : equal);
      items.push(names.termColumns(name, nx || ny ? coalesced(cx, cy) : cx));
      vars.set(name, nx && (ny || left));
    }
    for (const [name, ny] of y.vars) {
      if (x.vars.has(name)) continue;
      items.push(names.termColumns(name, names.cols(ay, name)));
      vars.set(name, ny || left);
    }
    return { items, vars, on };
  }

  join(x: Rel, y: Rel): Rel {
    if (x.vars.size === 0 && x.sql === unitSql) return y;
    if (y.vars.size === 0 && y.sql === unitSql) return x;
    const ax = this.names.alias();
    const ay = this.names.alias();
    const { items, vars, on } = this.joinOutput(x, y, ax, ay, false);
    const right = subquery(y.sql, ay);
    const joined = on.length ? `JOIN ${right} ON ${on.join(' AND ')}` : `CROSS JOIN ${right}`;
    // An inner join matches equal terms: a kind fixed on either side is the kind of the output.
    return {
      sql: select({ items, from: `${subquery(x.sql, ax)} ${joined}` }),
      vars,
      fixed: keepFixed(vars, x.fixed, y.fixed),
    };
  }

  /** OPTIONAL: `filters` are the OPTIONAL's own, part of the join condition. */
  leftJoin(x: Rel, y: Rel, filters: Expression[]): Rel {
    const ax = this.names.alias();
    const ay = this.names.alias();
    const { items, vars, on } = this.joinOutput(x, y, ax, ay, true);
    // The OPTIONAL's filter sees the variables of both sides, as the joined solution would bind them.
    const both: ExpressionScope = {
      variable: (name) => {
        const inX = x.vars.has(name);
        const inY = y.vars.has(name);
        if (inX && inY) return coalesced(this.names.cols(ax, name), this.names.cols(ay, name));
        return inX ? this.names.cols(ax, name) : inY ? this.names.cols(ay, name) : undefined;
      },
    };
    const conditions = [...on, ...filters.map((f) => `coalesce(${toBool(compileExpression(f, both))}, FALSE)`)];
    const condition = conditions.length ? conditions.join(' AND ') : 'TRUE';
    const from = `${subquery(x.sql, ax)} LEFT JOIN ${subquery(y.sql, ay)} ON ${condition}`;
    return { sql: select({ items, from }), vars, fixed: keepFixed(vars, x.fixed) };
  }

  union(x: Rel, y: Rel): Rel {
    const names = [...new Set([...x.vars.keys(), ...y.vars.keys()])];
    const vars = new Map(names.map((n) => [n, (x.vars.get(n) ?? true) || (y.vars.get(n) ?? true)]));
    const side = (r: Rel) => {
      const a = this.names.alias();
      const items = names.map((n) => this.names.termColumns(n, r.vars.has(n) ? this.names.cols(a, n) : nullTerm));
      return select({ items, from: subquery(r.sql, a) });
    };
    const same = new Map(
      [...(x.fixed ?? [])].filter(([name, k]) => {
        const other = y.fixed?.get(name);
        return other && other.t === k.t && other.d === k.d && other.l === k.l;
      }),
    );
    return { sql: `${side(x)} UNION ALL ${side(y)}`, vars, fixed: keepFixed(vars, same) };
  }

  minus(x: Rel, y: Rel): Rel {
    const shared = [...x.vars.keys()].filter((n) => y.vars.has(n));
    if (shared.length === 0) return x;
    const ax = this.names.alias();
    const ay = this.names.alias();
    const agree = shared.map((n) => compatible(this.names.cols(ax, n), this.names.cols(ay, n)));
    const overlap = shared
      .map((n) => `(${this.names.cols(ax, n).t} IS NOT NULL AND ${this.names.cols(ay, n).t} IS NOT NULL)`)
      .join(' OR ');
    const items = this.passThrough(x, ax);
    const removed = select({ items: ['1'], from: subquery(y.sql, ay), where: [...agree, `(${overlap})`] });
    return {
      sql: select({ items, from: subquery(x.sql, ax), where: [`NOT EXISTS (${removed})`] }),
      vars: x.vars,
      fixed: x.fixed,
    };
  }

  /** BIND: `x` with variable `name` bound to `expression`. */
  extend(x: Rel, name: string, expression: Expression): Rel {
    const a = this.names.alias();
    const term = toTerm(compileExpression(expression, this.scope(x, a)));
    const items = this.passThrough(x, a);
    items.push(this.names.termColumns(name, term));
    return {
      sql: select({ items, from: subquery(x.sql, a) }),
      vars: new Map([...x.vars, [name, true]]),
      fixed: x.fixed,
    };
  }

  filter(x: Rel, expression: Expression): Rel {
    const a = this.names.alias();
    const condition = toBool(compileExpression(expression, this.scope(x, a)));
    const items = this.passThrough(x, a);
    return { sql: select({ items, from: subquery(x.sql, a), where: [condition] }), vars: x.vars, fixed: x.fixed };
  }

  /** EXISTS { pattern } as a correlated sub-query on the variables the outer row binds. */
  private exists(pattern: Pattern, negated: boolean, outer: Rel, outerAlias: string): string {
    const inner = this.pattern(pattern);
    const ai = this.names.alias();
    const conditions = [...inner.vars.keys()]
      .filter((n) => outer.vars.has(n))
      .map((n) => compatible(this.names.cols(outerAlias, n), this.names.cols(ai, n)));
    const matches = select({ items: ['1'], from: subquery(inner.sql, ai), where: conditions });
    return `(${negated ? 'NOT ' : ''}EXISTS (${matches}))`;
  }

  /** VALUES rows as an inline table. */
  values(rows: Record<string, unknown>[]): Rel {
    const variables = [...new Set(rows.flatMap((r) => Object.keys(r)))].map((k) => k.replace(/^[?$]/, ''));
    const nullable = new Map(variables.map((n) => [n, false]));
    const lines = rows.map((row) =>
      variables.map((n) => {
        const node = (row[`?${n}`] ?? row[n]) as Expression | undefined;
        if (!node) {
          nullable.set(n, true);
          return this.names.termColumns(n, nullTerm);
        }
        const term = toTerm(compileExpression(node, { variable: () => undefined }));
        return this.names.termColumns(n, {
          t: `CAST(${term.t} AS INTEGER)`,
          v: `CAST(${term.v} AS VARCHAR)`,
          d: `CAST(${term.d} AS VARCHAR)`,
          l: `CAST(${term.l} AS VARCHAR)`,
          n: `CAST(${numberOf(term)} AS DOUBLE)`,
        });
      }),
    );
    if (lines.length === 0) return this.names.noSolutions(nullable);
    return { sql: lines.map((items) => select({ items })).join(' UNION ALL '), vars: nullable };
  }
}

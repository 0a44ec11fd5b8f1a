import type { LogicalTable } from './r2rml.js';
import type { ColumnTypes } from './term-sql.js';

/** One table reference of a generated FROM clause, with the columns the query reads from it. */
export interface Occurrence {
  alias: string;
  table: LogicalTable;
  types: ColumnTypes;
  used: Set<string>;
}

/** A column of one FROM reference. */
export type ColumnNode = readonly [alias: string, column: string];

/** Classes of columns the WHERE clause makes equal (union-find over `alias.column`). */
export class ColumnClasses {
  private readonly parent = new Map<string, string>();

  private key([alias, column]: ColumnNode): string {
    return `${alias}\u0000${column.toLowerCase()}`;
  }

  private root(key: string): string {
    let node = key;
    while (this.parent.has(node) && this.parent.get(node) !== node) node = this.parent.get(node)!;
    // Path compression keeps later look-ups short.
    for (let step = key; step !== node;) {
      const next = this.parent.get(step)!;
      this.parent.set(step, node);
      step = next;
    }
    return node;
  }

  union(a: ColumnNode, b: ColumnNode): void {
    const ra = this.root(this.key(a));
    const rb = this.root(this.key(b));
    if (ra !== rb) this.parent.set(rb, ra);
  }

  same(a: ColumnNode, b: ColumnNode): boolean {
    return this.root(this.key(a)) === this.root(this.key(b));
  }

  /** The class of a column, comparable between nodes. */
  classOf(node: ColumnNode): string {
    return this.root(this.key(node));
  }
}

/** Whether SQL `=` on a column type means the same value rendered the same way (not floats: 0.0 = -0.0). */
const exactEquality = (type: string | undefined): boolean => type !== undefined && !/^(FLOAT|DOUBLE|REAL)/i.test(type);

/**
 * Self-join elimination (as Ontop does it). A reference to a table is replaced by another reference
 * to the same table when both must read the same row (they are equal on a declared unique key), or
 * when every column it reads is already equal to the same column of the other: then the other's row
 * itself satisfies it, and the pattern's set semantics hide the rows it would repeat.
 * Returns each replaced alias with the alias that replaces it; merged columns join their classes.
 */
export function mergeSelfJoins(occurrences: readonly Occurrence[], classes: ColumnClasses): Map<string, string> {
  const merged = new Map<string, string>();
  for (const x of occurrences) {
    const sameColumn = (y: Occurrence, column: string) =>
      exactEquality(x.types(column)) && classes.same([x.alias, column], [y.alias, column]);
    const target = occurrences.find(
      (y) =>
        y !== x &&
        !merged.has(y.alias) &&
        y.table.from === x.table.from &&
        ((x.table.keys ?? []).some((key) => key.length > 0 && key.every((column) => sameColumn(y, column))) ||
          [...x.used].every((column) => sameColumn(y, column))),
    );
    if (!target) continue;
    merged.set(x.alias, target.alias);
    for (const column of x.used) {
      classes.union([target.alias, column], [x.alias, column]);
      target.used.add(column);
    }
  }
  // A reference merged into one that was merged later resolves to the last one.
  const resolve = (alias: string): string => (merged.has(alias) ? resolve(merged.get(alias)!) : alias);
  return new Map([...merged.keys()].map((alias) => [alias, resolve(alias)]));
}

/**
 * Whether the joined rows are distinct on the projected columns without DISTINCT: every table
 * reference has a declared unique key whose columns all equal projected columns, so equal projections
 * mean the same row of every table.
 */
export function distinctOnProjection(
  occurrences: readonly Occurrence[],
  classes: ColumnClasses,
  projected: readonly ColumnNode[],
): boolean {
  const projectedClasses = new Set(projected.map((node) => classes.classOf(node)));
  return occurrences.every((o) =>
    (o.table.keys ?? []).some(
      (key) =>
        key.length > 0 &&
        key.every(
          (column) => exactEquality(o.types(column)) && projectedClasses.has(classes.classOf([o.alias, column])),
        ),
    ),
  );
}

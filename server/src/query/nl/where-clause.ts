import { columnSql, type ColumnRef } from './column-roles.js';
import type { SchemaColumn, SchemaTable } from './schema-context.js';

/**
 * The WHERE conditions of one plan, with their descriptions for the answer sentence. Conditions are
 * written before the tables are joined, so a column reference is a placeholder until {@link resolve}
 * knows each table's alias.
 */
export class WhereClause {
  private readonly written: string[] = [];
  private readonly described: string[] = [];
  private readonly refs: ColumnRef[] = [];
  private readonly bounds = new Map<SchemaColumn, { op: string; value: number }[]>();
  private readonly pinned = new Set<SchemaColumn>();

  constructor(
    /** Told the table of every condition, so that the table is joined. */
    private readonly touch: (table: SchemaTable) => void,
    private readonly refuse: (reason: string) => never,
  ) {}

  /** A placeholder for `ref`'s column, replaced by the aliased column in {@link resolve}. */
  ref(ref: ColumnRef): string {
    this.refs.push(ref);
    return `\u0000${this.refs.length - 1}\u0000`;
  }

  /** `<column> <rhs>`; with `asInteger` the column is cast first (a year kept as text). */
  filter(ref: ColumnRef, rhs: string, description: string, asInteger = false): void {
    // "a singer above 40 and a singer below 30" asks for two sets of rows, which one WHERE cannot say.
    const bound = /^(>=|<=|>|<) (-?[\d.]+)$/.exec(rhs);
    if (bound) {
      const all = [...(this.bounds.get(ref.column) ?? []), { op: bound[1], value: Number(bound[2]) }];
      const lower = Math.max(...all.filter((b) => b.op.startsWith('>')).map((b) => b.value));
      const upper = Math.min(...all.filter((b) => b.op.startsWith('<')).map((b) => b.value));
      if (lower >= upper)
        this.refuse(
          `The question compares ${ref.column.name} in two ways no row meets at once (two sets of rows are not ` +
            `supported)`,
        );
      this.bounds.set(ref.column, all);
    }
    if (rhs.startsWith('= ')) this.pinned.add(ref.column);
    this.condition(ref, (column) => `${asInteger ? `TRY_CAST(${column} AS INTEGER)` : column} ${rhs}`, description);
  }

  /** A condition written by `sql` around the column's reference (a function of it, or a range over it). */
  condition(ref: ColumnRef, sql: (column: string) => string, description: string): void {
    this.touch(ref.table);
    this.written.push(sql(this.ref(ref)));
    this.described.push(description);
  }

  /** Whether a condition holds `column` to one value (`= 'EU'`, `= true`). */
  pins(column: SchemaColumn): boolean {
    return this.pinned.has(column);
  }

  /** Whether a condition refers to a column of `table`. */
  mentions(table: SchemaTable): boolean {
    return this.refs.some((r) => r.table === table);
  }

  /** Fills in the column references once the joins have given each table its alias. */
  resolve(aliases: ReadonlyMap<SchemaTable, string>): void {
    const resolved = (text: string): string =>
      // eslint-disable-next-line no-control-regex -- NUL delimits the placeholders {@link ref} writes
      text.replace(/\u0000(\d+)\u0000/g, (_, i: string) => {
        const ref = this.refs[Number(i)];
        return columnSql(ref.column, aliases.get(ref.table));
      });
    for (let k = 0; k < this.written.length; k++) this.written[k] = resolved(this.written[k]);
  }

  /** The conditions, to be joined with AND. */
  get conditions(): string[] {
    return [...this.written];
  }

  /** ` WHERE ...`, or nothing without conditions. */
  get sql(): string {
    return this.written.length ? ` WHERE ${this.written.join(' AND ')}` : '';
  }

  /** ` where ...` for the answer sentence, or nothing without conditions. */
  get text(): string {
    return this.described.length ? ` where ${this.described.join(' and ')}` : '';
  }
}

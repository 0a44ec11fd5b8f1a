import { labelColumn } from './column-roles.js';
import type { Relationship, SchemaColumn, SchemaContext, SchemaTable } from './schema-context.js';
import { sqlIdent } from '../../core/sql-text.js';

/** One step of a join path: a relationship walked from table key `from` to table key `to`. */
export interface JoinStep {
  step: Relationship;
  from: string;
  to: string;
}

/** Shortest path of relationships from table `a` to table `b` (breadth first), or undefined. */
export function relationshipPath(schema: SchemaContext, a: SchemaTable, b: SchemaTable): JoinStep[] | undefined {
  if (a === b) return [];
  const previous = new Map<string, JoinStep>();
  const queue = [a.key];
  const seen = new Set([a.key]);
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const r of schema.relationships) {
      for (const [x, y] of [
        [r.from.table, r.to.table],
        [r.to.table, r.from.table],
      ]) {
        if (x !== at || seen.has(y)) continue;
        seen.add(y);
        previous.set(y, { step: r, from: x, to: y });
        if (y === b.key) {
          const steps = [];
          for (let k: string = y; k !== a.key; k = previous.get(k)!.from) steps.unshift(previous.get(k)!);
          return steps;
        }
        queue.push(y);
      }
    }
  }
  return undefined;
}

/** Whether every row of `a` has at most one row of `b` (the path follows foreign keys towards keys). */
export function isToOne(schema: SchemaContext, a: SchemaTable, b: SchemaTable): boolean {
  const steps = relationshipPath(schema, a, b);
  return steps !== undefined && steps.every(({ step, from }) => step.from.table === from);
}

/**
 * The FROM clause: `main` (alias t1) joined with each of `tables` along the shortest relationship path;
 * `refuse` is called for a table no relationship reaches.
 */
export function joinTables(
  schema: SchemaContext,
  main: SchemaTable,
  tables: readonly SchemaTable[],
  refuse: (reason: string) => never,
): { sql: string; aliases: Map<SchemaTable, string>; joined: boolean } {
  const aliases = new Map<SchemaTable, string>([[main, 't1']]);
  const byKey = new Map(schema.tables.map((t) => [t.key, t]));
  const qualified = (t: SchemaTable): string => `${sqlIdent(t.source)}.${sqlIdent(t.name)}`;
  let sql = `${qualified(main)} AS t1`;
  const joins: [SchemaTable, SchemaTable][] = [];
  for (const table of tables) {
    if (aliases.has(table)) continue;
    const steps = relationshipPath(schema, main, table);
    if (!steps)
      refuse(
        `No relationship connects ${main.source}.${main.name} with ${table.source}.${table.name}; declare one ` +
          `under natural_language.relationships in sources.yaml`,
      );
    for (const { step, from, to } of steps) {
      const target = byKey.get(to)!;
      if (aliases.has(target)) continue;
      const alias = `t${aliases.size + 1}`;
      aliases.set(target, alias);
      const [fromColumn, toColumn] =
        step.from.table === from ? [step.from.column, step.to.column] : [step.to.column, step.from.column];
      const left = `${aliases.get(byKey.get(from)!)}.${sqlIdent(fromColumn)}`;
      const right = `${alias}.${sqlIdent(toColumn)}`;
      // Keys stored with different types (a text id referencing a number) are compared as text.
      const kinds = [
        byKey.get(from)!.columns.find((c) => c.name === fromColumn)?.kind,
        target.columns.find((c) => c.name === toColumn)?.kind,
      ];
      const on = kinds[0] === kinds[1] ? `${left} = ${right}` : `CAST(${left} AS VARCHAR) = CAST(${right} AS VARCHAR)`;
      sql += ` JOIN ${qualified(target)} AS ${alias} ON ${on}`;
      joins.push([byKey.get(from)!, target]);
    }
  }
  const roundabout = longWayRound(schema, [main, ...tables], joins);
  if (roundabout)
    refuse(
      `${roundabout[0].name} and ${roundabout[1].name} are related directly, but the question's tables join them ` +
        `only through others; name how they are connected`,
    );
  return { sql, aliases, joined: aliases.size > 1 };
}

/**
 * Two of `named` that the joins made connect only the long way round while a shorter relationship path ties them
 * (students joined through their courses to programs, when each student has a program): the rows would pair them by
 * a relation the question did not mean, so the question is refused rather than answered with it.
 */
function longWayRound(
  schema: SchemaContext,
  named: readonly SchemaTable[],
  joins: readonly (readonly [SchemaTable, SchemaTable])[],
): [SchemaTable, SchemaTable] | undefined {
  const joinedDistance = (a: SchemaTable, b: SchemaTable): number => {
    const seen = new Map([[a, 0]]);
    for (const queue = [a]; queue.length > 0;) {
      const at = queue.shift()!;
      for (const [x, y] of joins)
        for (const next of at === x ? [y] : at === y ? [x] : [])
          if (!seen.has(next)) {
            seen.set(next, seen.get(at)! + 1);
            queue.push(next);
          }
    }
    return seen.get(b) ?? Infinity;
  };
  for (const [i, a] of named.entries())
    for (const b of named.slice(i + 1)) {
      const direct = a === b ? undefined : relationshipPath(schema, a, b);
      if (direct && direct.length < joinedDistance(a, b)) return [a, b];
    }
  return undefined;
}

/** The column of `main` a relationship ties to the label of `table` (lake.state_name -> state.state_name), or
 * undefined. */
export function labelReference(schema: SchemaContext, main: SchemaTable, table: SchemaTable): SchemaColumn | undefined {
  const label = labelColumn(table);
  const step = schema.relationships.find(
    (r) =>
      (r.from.table === main.key && r.to.table === table.key && r.to.column === label.name) ||
      (r.to.table === main.key && r.from.table === table.key && r.from.column === label.name),
  );
  const name = step ? (step.from.table === main.key ? step.from.column : step.to.column) : undefined;
  return main.columns.find((c) => c.name === name);
}

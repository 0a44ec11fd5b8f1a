import {
  aggregateNames,
  columnSql,
  defaultMeasure,
  keyColumn,
  labelColumn,
  tallyColumn,
  type ColumnRef,
} from './column-roles.js';
import { bucketSql } from './date-sql.js';
import { joinTables } from './join-paths.js';
import type { CountCondition, CueOf, PlanContext, Resolved } from './plan-context.js';
import type { AggregateCue, Measure, SuperlativeCue } from './plan-measures.js';
import type { PlannedQuery } from './plan-parts.js';
import type { SchemaColumn, SchemaTable } from './schema-context.js';
import type { Candidate } from './schema-linker.js';
import { sqlIdent } from '../../core/sql-text.js';

/** The column a "for each" names: the column itself, or the key (else the label) of a table. */
function groupedColumn(chosen: Candidate): ColumnRef {
  if (chosen.kind !== 'table') return { table: chosen.table, column: chosen.column };
  return { table: chosen.table, column: keyColumn(chosen.table) ?? labelColumn(chosen.table) };
}

/** What the question asks for, decided (question-plan.ts) before any SQL is written. */
export interface QueryShape {
  aggregates: AggregateCue[];
  superlative?: SuperlativeCue;
  top?: CueOf<'top'>;
  /** Whether a superlative orders every row or group instead of picking the first ("from highest to lowest"). */
  listsAll: boolean;
  /** The date groupings, as columns to group by. */
  buckets: ColumnRef[];
  /** What "for each" / "by" / a counted superlative groups by. */
  groupLinks: Resolved[];
  /** What "ordered by" names. */
  orderLink?: Resolved;
  countCue?: AggregateCue;
  countTarget?: Resolved;
  measures: Measure[];
  /** Tables named and not used otherwise: the rows the question asks for. */
  entityLinks: Resolved[];
  /** Whether the groups are ranked by their count ("which year has the most concerts"). */
  rankByCount: boolean;
  /** The column rows are ranked by, without an aggregate ("the oldest singer": age). */
  rankBy?: ColumnRef;
  /** Columns shown as they are; a count condition may add the rows' label. */
  projection: ColumnRef[];
  /** The table of the FROM clause, the others joined to it. */
  main: SchemaTable;
}

/** The SELECT of a decided shape: joins, groups, the SELECT list, HAVING, ORDER BY and LIMIT, with the parts a ratio
 * composes. */
export function writeQuery(plan: PlanContext, shape: QueryShape): PlannedQuery {
  return new QueryWriter(plan, shape).write();
}

class QueryWriter {
  private readonly from: { sql: string; aliases: Map<SchemaTable, string>; joined: boolean };
  /** The GROUP BY columns: date groupings, then each group's column (or a table's key and label). */
  private readonly groups: ColumnRef[];
  /** The grouping columns shown, first in the SELECT list. */
  private readonly groupSelect: ColumnRef[];
  private readonly select: string[] = [];
  private readonly order: string[] = [];
  private limit: number | undefined;
  private meaning: string | undefined;
  private having = '';

  constructor(
    private readonly plan: PlanContext,
    private readonly shape: QueryShape,
  ) {
    this.from = joinTables(plan.schema, shape.main, plan.tables, (reason) => plan.refuse(reason));
    plan.where.resolve(this.from.aliases);
    this.groups = [...shape.buckets];
    this.groupSelect = [...shape.buckets];
    for (const g of shape.groupLinks) {
      if (g.chosen.kind === 'column') {
        this.groups.push({ table: g.chosen.table, column: g.chosen.column });
        this.groupSelect.push({ table: g.chosen.table, column: g.chosen.column });
      } else {
        const label = labelColumn(g.chosen.table);
        const key = keyColumn(g.chosen.table);
        if (key && key !== label) this.groups.push({ table: g.chosen.table, column: key });
        this.groups.push({ table: g.chosen.table, column: label });
        this.groupSelect.push({ table: g.chosen.table, column: label });
      }
    }
    this.limit = shape.top?.n;
  }

  write(): PlannedQuery {
    const { plan, shape } = this;
    if (
      plan.having &&
      shape.countTarget?.chosen.kind === 'table' &&
      shape.measures.length === 0 &&
      this.groupSelect.length === 0 &&
      shape.projection.length === 0
    )
      return this.countMatching(plan.having, shape.countTarget.chosen.table);
    if (plan.having) this.havingGroups(plan.having);
    if (this.aggregated) this.aggregateSelect();
    else this.listingSelect();
    this.explicitOrder();
    return this.query();
  }

  private get aggregated(): boolean {
    return this.shape.countCue !== undefined || this.shape.measures.length > 0;
  }

  private alias(table: SchemaTable): string {
    return this.from.aliases.get(table) ?? this.plan.refuse(`${table.name} is not joined to the rest of the question`);
  }

  private col(ref: ColumnRef): string {
    const column = columnSql(ref.column, this.alias(ref.table));
    return ref.bucket ? bucketSql(ref.bucket, column, ref.column) : column;
  }

  /** A column of the SELECT list; a date grouping is shown under the unit's name ("month"), the expression being no
   * name to read. */
  private shown(ref: ColumnRef): string {
    return ref.bucket ? `${this.col(ref)} AS ${sqlIdent(ref.bucket)}` : this.col(ref);
  }

  /** "How many authors have published more than 2 papers?": the authors meeting the count condition, counted. */
  private countMatching(having: CountCondition, counted: SchemaTable): PlannedQuery {
    const key = keyColumn(counted) ?? labelColumn(counted);
    const otherKey = keyColumn(having.table);
    const condition =
      `${otherKey ? `count(DISTINCT ${this.col({ table: having.table, column: otherKey })})` : 'count(*)'} ` +
      `${having.op} ${having.value}`;
    const inner =
      `SELECT ${this.col({ table: counted, column: key })} FROM ` +
      (`${this.from.sql}${this.plan.where.sql} GROUP BY ${this.col({ table: counted, column: key })} HAVING ` +
        `${condition}`);
    const sql = `SELECT count(*) AS ${sqlIdent('count')} FROM (${inner}) AS matching`;
    // One value over a subquery: composed with another plan only as a whole (a scalar subquery).
    return {
      sql,
      meaning:
        `number of ${counted.name} with ${having.op} ${having.value} ` + `${having.table.name}${this.plan.where.text}`,
      grouped: false,
      parts: {
        select: [`count(*) AS ${sqlIdent('count')}`],
        from: `(${sql}) AS one`,
        where: [],
        groupBy: [],
        keys: [],
        keyIds: [],
        aggregated: true,
        counted: 'rows',
        limited: false,
        ranked: true,
        aliases: new Map(),
      },
    };
  }

  /** "regions with more than 25 customers": the rows asked for, grouped, with the count condition as HAVING. */
  private havingGroups(having: CountCondition): void {
    const { projection, entityLinks } = this.shape;
    if (this.aggregated) this.plan.refuse('A condition on a count together with another aggregate is not supported');
    const projected = projection.length > 0;
    const entity = entityLinks[0]?.chosen.kind === 'table' ? entityLinks[0].chosen.table : undefined;
    const rows = projected ? projection : entity ? [{ table: entity, column: labelColumn(entity) }] : [];
    if (rows.length === 0) this.plan.refuse(`Could not tell what to count ${having.table.name} for`);
    if (!projected) projection.push(...rows);
    this.groups.push(...rows);
    // Rows of an entity are told apart by its key, not its name.
    const entityKey = projected || !entity ? undefined : keyColumn(entity);
    if (entityKey && rows[0].table === entity) this.groups.push({ table: rows[0].table, column: entityKey });
    const key = keyColumn(having.table);
    const counted =
      key && this.from.joined ? `count(DISTINCT ${this.col({ table: having.table, column: key })})` : 'count(*)';
    this.having = ` HAVING ${counted} ${having.op} ${having.value}`;
  }

  /** The groups shown, the columns shown beside them (grouped by too), the count and the measures; ordered by the
   * first aggregate. */
  private aggregateSelect(): void {
    const { shape, groups, groupSelect, select } = this;
    for (const g of groupSelect) select.push(this.shown(g));
    for (const p of shape.projection) {
      if (groups.some((g) => g.column === p.column)) continue;
      // A column of a table grouped by its key ("the name and capacity of each stadium") is shown and grouped by too.
      // "business names and their average ratings": a column of another table than the aggregated one, with
      // "their"/"its", names the rows the aggregate is taken per (grouped by that table's key too).
      const aggregatedTable = shape.countTarget?.chosen.table ?? shape.measures[0]?.ref.table;
      const per =
        aggregatedTable !== undefined &&
        p.table !== aggregatedTable &&
        this.plan.tokens.some((t) => t.text === 'their' || t.text === 'its');
      // So is one of a table whose rows are grouped by their label ("the stadium name and capacity with the most
      // concerts"): each stadium, its key grouped by too, so one value per group.
      const labelled = groups.some((g) => g.table === p.table && g.column === labelColumn(p.table));
      const rows = (per || labelled) && keyColumn(p.table) !== undefined;
      if (!rows && !shape.groupLinks.some((g) => g.chosen.kind === 'table' && g.chosen.table === p.table))
        this.plan.refuse(`Cannot show "${p.column.name}" next to an aggregate without grouping by it`);
      const key = rows ? keyColumn(p.table) : undefined;
      if (key && key !== p.column && !groups.some((g) => g.column === key))
        groups.push({ table: p.table, column: key });
      groups.push(p);
      select.splice(groupSelect.length, 0, this.col(p));
      groupSelect.push(p);
    }
    if (shape.countCue) this.countSelect();
    for (const m of shape.measures) {
      const aggregate = `${m.fn}(${this.col(m.ref)})`;
      select.push(`${m.wrap ? m.wrap(aggregate) : aggregate} AS ${sqlIdent(m.name)}`);
      const measure = m.meaning ?? `${aggregateNames[m.fn]} ${m.ref.column.name} of ${m.ref.table.name}`;
      this.meaning ??= `${measure}${this.plan.where.text}`;
    }
    const { superlative } = shape;
    if (groups.length > 0) {
      const first = shape.countCue ? 'count' : shape.measures[0].name;
      // A series over dates ("monthly totals") reads in date order, then by the other groups; other groups rank by
      // their aggregate.
      if (this.order.length === 0 && shape.buckets.length > 0 && !superlative)
        this.order.push(...groupSelect.map((g) => `${this.col(g)} ASC`));
      if (this.order.length === 0)
        this.order.push(`${sqlIdent(first)} ${superlative && !superlative.descending ? 'ASC' : 'DESC'}`);
      if (superlative && this.limit === undefined && !shape.listsAll) this.limit = 1;
      this.meaning = undefined;
    } else if (superlative) this.plan.refuse('A "most" or "least" needs something to compare: say what to group by');
  }

  /** The count: of rows (distinct keys of the main table when joined), of distinct values of a column, or the sum of a
   * tally column. */
  private countSelect(): void {
    const { shape } = this;
    const main = shape.main;
    const target = shape.countTarget?.chosen;
    const tally = tallyColumn(main);
    let expression = 'count(*)';
    let what = main.name;
    if (target?.kind === 'column') {
      expression = `count(DISTINCT ${this.col({ table: target.table, column: target.column })})`;
      what = `distinct ${target.column.name} values`;
    } else if (tally) {
      // A table of tallies (a `count` column per row, as check-ins per day): how many is their sum.
      expression = `sum(${this.col({ table: main, column: tally })})`;
      what = `${main.name} (sum of ${tally.name})`;
    } else if (this.from.joined && keyColumn(main))
      expression = `count(DISTINCT ${this.col({ table: main, column: keyColumn(main)! })})`;
    // "the top 2 airlines with the most flights", "..., and how many courses": the count is shown beside the ranked
    // groups.
    // ...but not "the year with the most number of concerts", where the count only ranks.
    const askedApart = shape.aggregates.some((a) => a.fn === 'count' && a.at !== shape.superlative?.end);
    const countShown = !shape.rankByCount || shape.top !== undefined || askedApart;
    if (shape.rankByCount && this.groupSelect.length > 0)
      this.order.push(`${expression} ${shape.superlative!.descending ? 'DESC' : 'ASC'}`);
    if (countShown || this.groupSelect.length === 0) this.select.push(`${expression} AS ${sqlIdent('count')}`);
    this.meaning = `number of ${what}${this.plan.where.text}`;
  }

  /** Nothing aggregated: the columns asked for (or every column), ordered by the groups named or ranked by a column. */
  private listingSelect(): void {
    const { shape, plan } = this;
    if (shape.buckets.length > 0) plan.refuse(`Say what to count, sum or average per ${shape.buckets[0].bucket}`);
    if (shape.projection.length > 0) for (const p of shape.projection) this.select.push(this.col(p));
    else this.select.push(`${this.alias(shape.main)}.*`);
    // Nothing aggregated: "for every singer" just means all of them, and "customers by region" lists them in that
    // order.
    if (!plan.having) this.groups.splice(0);
    if (!shape.orderLink)
      for (const g of shape.groupLinks)
        if (g.chosen.kind === 'column') this.order.push(this.col({ table: g.chosen.table, column: g.chosen.column }));
    const { rankBy } = shape;
    if (rankBy) {
      if (!plan.toOne(shape.main, rankBy.table))
        plan.refuse(
          `Ranking ${shape.main.name} by ${rankBy.column.name} of ${rankBy.table.name} needs an aggregate: say ` +
            `"total" or "average"`,
        );
      this.order.push(`${this.col(rankBy)} ${shape.superlative?.descending === false ? 'ASC' : 'DESC'} NULLS LAST`);
      if (!shape.listsAll) this.limit ??= 1;
    }
  }

  /** "ordered by ...": the count or measure already shown, else the column named first; a top-N alone ranks by the
   * table's obvious number. */
  private explicitOrder(): void {
    const { shape, plan, order } = this;
    const { orderLink, countCue, top } = shape;
    const descending = plan.cue('direction')[0]?.descending ?? plan.cue('superlative')[0]?.descending ?? false;
    const orderedMeasure =
      orderLink?.chosen.kind === 'column'
        ? shape.measures.find((m) => m.ref.column === (orderLink.chosen as { column: SchemaColumn }).column)
        : undefined;
    const byCount =
      orderLink?.chosen.kind === 'table' &&
      countCue !== undefined &&
      this.groups.length > 0 &&
      this.select.some((s) => s.endsWith(` AS ${sqlIdent('count')}`));
    if (byCount) {
      // "ordered by the number of restaurants": the count already shown.
      order.splice(
        0,
        order.length,
        `${sqlIdent('count')} ${(plan.cue('direction')[0]?.descending ?? true) ? 'DESC' : 'ASC'}`,
      );
    } else if (orderLink && orderedMeasure) {
      // "ordered by the highest average rating": the aggregate already shown.
      order.splice(0, order.length, `${sqlIdent(orderedMeasure.name)} ${descending ? 'DESC' : 'ASC'}`);
    } else if (orderLink) {
      const ref = {
        table: orderLink.chosen.table,
        column:
          orderLink.chosen.kind === 'table'
            ? labelColumn(orderLink.chosen.table)
            : (orderLink.chosen as { column: SchemaColumn }).column,
      };
      if (!this.from.aliases.has(ref.table))
        plan.refuse(`Cannot order by ${ref.column.name}: its table is not part of the question`);
      // "... for each paper, ordered by the paper ID": a group key the groups are ordered by is shown, first.
      const key = this.groups.some((g) => g.column === ref.column) && !this.select.includes(this.col(ref));
      if (key && this.aggregated) this.select.unshift(this.col(ref));
      order.unshift(`${this.col(ref)} ${descending ? 'DESC' : 'ASC'}`);
    } else if (top && order.length === 0) {
      const measure = defaultMeasure(shape.main) ?? plan.refuse(`Could not tell what "top ${top.n}" ranks by`);
      order.push(`${this.col({ table: shape.main, column: measure })} DESC NULLS LAST`);
    }
  }

  /** The statement and its parts. */
  private query(): PlannedQuery {
    const { shape, plan, groups, groupSelect, order, limit, from } = this;
    // Rows of a listing reached through a join repeat once per related row: "which organizations have authors ..."
    // lists each once.
    const distinct =
      (plan.cue('distinct').length > 0 || (from.joined && groups.length === 0)) && !this.aggregated ? 'DISTINCT ' : '';
    // Groups tied on a ranked aggregate come in the order of their values, so a LIMIT keeps the same ones every time.
    if (limit !== undefined && groups.length > 0 && order.length > 0)
      for (const g of groupSelect) if (!order.some((o) => o.startsWith(this.col(g)))) order.push(`${this.col(g)} ASC`);
    const sql =
      `SELECT ${distinct}${this.select.join(', ')} FROM ${from.sql}${plan.where.sql}` +
      (groups.length ? ` GROUP BY ${groups.map((g) => this.col(g)).join(', ')}${this.having}` : '') +
      (order.length ? ` ORDER BY ${order.join(', ')}` : '') +
      (limit !== undefined ? ` LIMIT ${limit}` : '');
    const keyRefs = this.aggregated
      ? groupSelect
      : shape.groupLinks.filter((g) => from.aliases.has(g.chosen.table)).map((g) => groupedColumn(g.chosen));
    // The first ordering key, shown beside the rows of one more than the limit: a tie at the cut shows in the rows.
    const rank = order[0]?.replace(/ (ASC|DESC)( NULLS (LAST|FIRST))?$/, '');
    const tieCheck =
      limit !== undefined && rank
        ? {
            sql:
              `SELECT ${this.select.join(', ')}, ${rank} AS "tie_rank" FROM ${from.sql}${plan.where.sql}` +
              (groups.length ? ` GROUP BY ${groups.map((g) => this.col(g)).join(', ')}${this.having}` : '') +
              ` ORDER BY ${order.join(', ')} LIMIT ${limit + 1}`,
            limit,
          }
        : undefined;
    return {
      sql,
      meaning: this.meaning,
      grouped: groups.length > 0,
      tieCheck,
      parts: {
        select: this.select,
        from: from.sql,
        where: plan.where.conditions,
        groupBy: groups.map((g) => this.col(g)),
        keys: keyRefs.map((r) => this.col(r)),
        keyIds: keyRefs.map((r) => `${r.table.key}.${r.column.name}${r.bucket ? `@${r.bucket}` : ''}`),
        aggregated: this.aggregated,
        counted: shape.countCue ? (shape.countTarget?.chosen.kind === 'column' ? 'column' : 'rows') : undefined,
        limited: limit !== undefined || distinct !== '' || plan.having !== undefined,
        ranked: limit !== undefined || plan.having !== undefined,
        aliases: from.aliases,
      },
    };
  }
}

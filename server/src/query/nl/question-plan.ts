import { labelColumn, type ColumnRef } from './column-roles.js';
import { labelReference } from './join-paths.js';
import type { CueOf, PlanContext, Resolved } from './plan-context.js';
import { bucketGroups, checkFormats } from './plan-dates.js';
import { readFilters } from './plan-filters.js';
import {
  rangeOrder,
  readAggregates,
  readCount,
  readMeasures,
  superlativeColumn,
  type AggregateCue,
  type Counting,
  type Measure,
  type SuperlativeCue,
} from './plan-measures.js';
import type { PlanAddition, PlannedQuery } from './plan-parts.js';
import { writeQuery, type QueryShape } from './plan-select.js';
import { checkConfidence } from './confidence.js';
import { readQuestion } from './question-reading.js';
import type { SchemaContext, SchemaTable } from './schema-context.js';
import type { SchemaIndex } from './schema-linker.js';

/** What "by", "per", "for each" and "ordered by" name. */
interface Grouping {
  groupLinks: Resolved[];
  /** "top 5 products by price": with a top-N and nothing aggregated, the number "by" ranks by. */
  topBy?: ColumnRef;
  orderLink?: Resolved;
}

/**
 * One question's translation, step by step: read the grammar cues, link the other words to the schema
 * and resolve each link to one meaning (question-reading.ts), decide what the query counts, measures,
 * groups and ranks, then write one SELECT (see {@link QuestionPlan.build}).
 */
export class QuestionPlan {
  private readonly plan: PlanContext;

  /** `prefer`: `table.column` names that win a tie between equally near values (the asker's pick). */
  constructor(question: string, schema: SchemaContext, index: SchemaIndex, prefer: readonly string[] = []) {
    this.plan = readQuestion(question, schema, index, prefer);
  }

  /**
   * The query, decided in steps that each claim links (marked used) the later ones leave alone: what is
   * ranked and grouped, the WHERE conditions, what is counted and measured, the groups asked for, the
   * columns shown and the main table; then the SQL (plan-select.ts). A composed question may join a table and add a
   * condition on the main table's rows (`addition`).
   */
  build(addition: PlanAddition = {}): PlannedQuery {
    const plan = this.plan;
    const aggregates = readAggregates(plan);
    const { superlative, top, listsAll } = this.readRanking(aggregates);
    const grouping = this.readGrouping(aggregates, top);
    readFilters(plan);
    const buckets = bucketGroups(plan);
    const counting = readCount(plan, aggregates, superlative);
    const measures = readMeasures(plan, aggregates);
    checkFormats(plan, buckets);
    const entityLinks = plan.links.filter((l) => !plan.used.has(l) && l.chosen.kind === 'table');
    this.sumPerEntity(grouping, measures, entityLinks, top, buckets.length > 0);
    const rankByCount = this.rankByCount(superlative, counting, grouping, buckets.length > 0, entityLinks);
    this.countPerRow(counting, superlative, grouping, buckets.length > 0);
    const rankBy = grouping.topBy ?? (superlative && !rankByCount ? superlativeColumn(plan, superlative) : undefined);
    const projection = this.projection(entityLinks);
    // The FROM table: what is counted, else the rows asked for, else what is measured, grouped or shown.
    const main =
      counting.countTarget?.chosen.table ??
      entityLinks[0]?.chosen.table ??
      measures[0]?.ref.table ??
      grouping.groupLinks[0]?.chosen.table ??
      projection[0]?.table ??
      plan.links[0].chosen.table;
    if (addition.join) plan.addTable(addition.join);
    const extra = addition.condition?.(main);
    if (extra) plan.where.condition(extra.ref, extra.sql, extra.description);
    const groupLinks = grouping.groupLinks.map((g) => this.groupDirectly(main, g));
    const shape: QueryShape = {
      aggregates,
      superlative,
      top,
      listsAll,
      buckets,
      groupLinks,
      orderLink: grouping.orderLink,
      ...counting,
      measures,
      entityLinks,
      rankByCount,
      rankBy,
      projection,
      main,
    };
    checkConfidence(plan, shape);
    const picked = plan.picks.map((p) => ({
      words: p.words,
      means: `${p.table.source}.${p.table.name}.${p.column.name}`,
      value: p.value,
    }));
    return { ...writeQuery(plan, shape), asked: this.askedWords(), ...(picked.length > 0 ? { picked } : {}) };
  }

  /**
   * The question's words for what the answer is, from its first cue or link (or an opening "which") to its last
   * link, as written: "how many priority shipments", "total declared value of shipments by warehouse".
   */
  private askedWords(): string | undefined {
    const plan = this.plan;
    const starts = [...plan.cues.map((c) => c.at), ...plan.links.map((l) => l.start)];
    const ends = [...plan.cues.map((c) => c.end), ...plan.links.map((l) => l.end)];
    if (starts.length === 0) return undefined;
    return plan.words(plan.tokens[0].text === 'which' ? 0 : Math.min(...starts), Math.max(...ends));
  }

  /** The superlative and top-N, and whether a superlative lists every row in order rather than picking the first. */
  private readRanking(aggregates: readonly AggregateCue[]): {
    superlative?: SuperlativeCue;
    top?: CueOf<'top'>;
    listsAll: boolean;
  } {
    const plan = this.plan;
    // "the most authors, ordered by the number of authors": the ordering restates the superlative's count,
    // so the superlative still groups and ranks, over every group.
    const restated = plan
      .cue('order')
      .some((o) => aggregates.some((a) => a.fn === 'count' && a.at >= o.end && a.at <= o.end + 1));
    const ordered = plan.cue('order').length > 0 && !restated;
    // "Which airports have the shortest connect time, sorted in ascending order?": a sorted list, not one row.
    const sortedList =
      plan.cue('direction').length > 0 &&
      plan.tokens.some((t) => ['sorted', 'ordered', 'sort', 'order'].includes(t.text));
    // With an explicit ordering, "from the oldest to the youngest" only gives its direction.
    return {
      superlative: ordered ? undefined : plan.cue('superlative')[0],
      top: plan.cue('top')[0],
      listsAll: restated || sortedList || rangeOrder(plan) !== undefined,
    };
  }

  /** The links after "by" / "per" / "for each" (not values) and after "ordered by". */
  private readGrouping(aggregates: readonly AggregateCue[], top: CueOf<'top'> | undefined): Grouping {
    const plan = this.plan;
    let groupLinks = plan
      .cue('group')
      .map((g) => this.rankedEntity(g, aggregates, top) ?? plan.linkAfter(g.end))
      .filter((l): l is Resolved => l !== undefined && l.chosen.kind !== 'value');
    // "top 5 products by price": with a top-N and nothing aggregated, "by" a number ranks instead of grouping.
    let topBy: ColumnRef | undefined;
    const lone = groupLinks[0];
    if (
      top &&
      aggregates.length === 0 &&
      groupLinks.length === 1 &&
      lone.chosen.kind === 'column' &&
      lone.chosen.column.kind === 'number'
    ) {
      topBy = { table: lone.chosen.table, column: lone.chosen.column };
      plan.used.add(lone);
      groupLinks = [];
    }
    for (const l of groupLinks) plan.used.add(l);
    const orderLink = plan.cue('order').map((o) => plan.linkAfter(o.end))[0];
    if (orderLink) plan.used.add(orderLink);
    return { groupLinks, topBy, orderLink };
  }

  /**
   * "top 5 customers by total declared value of shipments": "by" followed by an aggregate ranks the rows named before
   * it by that aggregate, so they are what is grouped (the entity after the top-N, else the table named before "by"),
   * never the measured column itself.
   */
  private rankedEntity(
    group: CueOf<'group'>,
    aggregates: readonly AggregateCue[],
    top: CueOf<'top'> | undefined,
  ): Resolved | undefined {
    const plan = this.plan;
    const next = plan.linkAfter(group.end);
    const ranks = aggregates.some((a) => a.at >= group.end && (next === undefined || a.end <= next.start));
    if (!ranks) return undefined;
    const entity = top
      ? plan.linkAfter(top.end)
      : [...plan.links].reverse().find((l) => l.end <= group.at && l.chosen.kind === 'table');
    return entity?.chosen.kind === 'table'
      ? entity
      : plan.refuse(`Could not tell what "${plan.words(group.at, group.end)}" ranks`);
  }

  /**
   * "top 3 customers by revenue": the number belongs to another table, so it is summed per entity. "Which 4 studios
   * have the highest total attendance?": the aggregate named ranks the N rows asked for, so it is taken per row.
   */
  private sumPerEntity(
    grouping: Grouping,
    measures: Measure[],
    entityLinks: Resolved[],
    top: CueOf<'top'> | undefined,
    bucketed: boolean,
  ): void {
    const { topBy } = grouping;
    const entity = entityLinks[0];
    if (!entity) return;
    if (topBy && topBy.table !== entity.chosen.table) {
      measures.push({ fn: 'sum', ref: topBy, name: `sum_${topBy.column.name}` });
      grouping.topBy = undefined;
    } else if (!top || entity.start !== top.end || measures.length === 0 || grouping.groupLinks.length > 0 || bucketed)
      return;
    grouping.groupLinks = [entityLinks.shift()!];
    this.plan.used.add(grouping.groupLinks[0]);
  }

  /**
   * "Which year has the most concerts?": with a counted superlative, what is asked for is what is grouped,
   * ranked by the count (not shown: the question asks for the year). Returns whether groups rank by the count.
   */
  private rankByCount(
    superlative: SuperlativeCue | undefined,
    { countCue, frequency }: Counting,
    grouping: Grouping,
    bucketed: boolean,
    entityLinks: Resolved[],
  ): boolean {
    const plan = this.plan;
    const after = superlative ? plan.linkAfter(superlative.end) : undefined;
    const rankByCount =
      !!superlative &&
      !!countCue &&
      (!superlative.implied || frequency) &&
      !(after?.chosen.kind === 'column' && after.chosen.column.kind === 'number');
    if (!rankByCount || !superlative || grouping.groupLinks.length > 0 || bucketed) return rankByCount;
    const columnBefore = (l: Resolved): boolean =>
      l.end <= superlative.at && l.chosen.kind === 'column' && !plan.used.has(l);
    const asked =
      frequency && after?.chosen.kind === 'column'
        ? after
        : frequency && plan.links.some(columnBefore)
          ? [...plan.links].reverse().find(columnBefore)
          : entityLinks.length > 0
            ? entityLinks.shift()
            : plan.links.find((l) => !plan.used.has(l) && l.chosen.kind === 'column');
    if (asked) {
      grouping.groupLinks = [asked];
      plan.used.add(asked);
    }
    return rankByCount;
  }

  /** "Which users have posted reviews ..., and how many reviews have they posted?": counts per row asked for. */
  private countPerRow(
    { countTarget }: Counting,
    superlative: SuperlativeCue | undefined,
    grouping: Grouping,
    bucketed: boolean,
  ): void {
    const plan = this.plan;
    const which = plan.tokens[0]?.text === 'which' ? plan.links.find((l) => l.start === 1) : undefined;
    if (!countTarget || superlative || grouping.groupLinks.length > 0 || bucketed || plan.having) return;
    if (which?.chosen.kind !== 'table' || which === countTarget || which.chosen.table === countTarget.chosen.table)
      return;
    grouping.groupLinks = [which];
    plan.used.add(which);
  }

  /**
   * The column links no step used, shown as they are; "Which airports ...? Show the connect time",
   * "the cities ... and their population": the rows asked for are named by their label beside them.
   */
  private projection(entityLinks: readonly Resolved[]): ColumnRef[] {
    const plan = this.plan;
    const projection: ColumnRef[] = [];
    for (const l of plan.links) {
      if (plan.used.has(l) || l.chosen.kind !== 'column') continue;
      const column = l.chosen.column;
      if (!projection.some((p) => p.column === column)) projection.push({ table: l.chosen.table, column });
    }
    // "Show both courses and scores": a table listed with a column names the rows too.
    const listed = entityLinks.find(
      (l) => plan.tokens[l.end]?.text === 'and' || plan.tokens[l.start - 1]?.text === 'and',
    );
    const asked = listed ?? entityLinks[0];
    const namesRows =
      asked !== undefined &&
      (listed !== undefined ||
        plan.tokens[asked.start - 1]?.text === 'which' ||
        plan.tokens.some((t) => t.text === 'their' || t.text === 'its'));
    if (
      namesRows &&
      asked.chosen.kind === 'table' &&
      projection.length > 0 &&
      projection.every((p) => p.table === asked.chosen.table)
    ) {
      const label = labelColumn(asked.chosen.table);
      if (!projection.some((p) => p.column === label)) projection.unshift({ table: asked.chosen.table, column: label });
    }
    return projection;
  }

  /**
   * "How many lakes are there in each state?": when the counted table's own column already holds the
   * group's label (lake.state_name -> state.state_name), group by it without joining the other table,
   * unless something else of the question (another link, a condition) needs that table.
   */
  private groupDirectly(main: SchemaTable, group: Resolved): Resolved {
    const plan = this.plan;
    if (group.chosen.kind !== 'table') return group;
    const table = group.chosen.table;
    const needed =
      main === table || plan.links.filter((l) => l.chosen.table === table).length > 1 || plan.where.mentions(table);
    const direct = needed ? undefined : labelReference(plan.schema, main, table);
    if (!direct) return group;
    const at = plan.tables.indexOf(table);
    if (at >= 0) plan.tables.splice(at, 1);
    return { ...group, chosen: { kind: 'column', table: main, column: direct } };
  }
}

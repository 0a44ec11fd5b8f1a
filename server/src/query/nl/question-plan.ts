import { quoteDouble } from '../connectors/filters.js';
import {
  aggregateNames,
  amountMeasure,
  columnSql,
  comparisonSql,
  defaultMeasure,
  describeComparison,
  groupedColumn,
  isFlagColumn,
  keyColumn,
  labelColumn,
  sqlLiteral,
  tallyColumn,
  yearColumnOf,
  type ColumnRef,
} from './column-roles.js';
import { readBuckets, type BucketMention } from './date-buckets.js';
import { namesCondition, namesColumn } from './date-names.js';
import { dayNames, monthNames, monthsOfPeriod, openEnd, openStart } from './date-phrases.js';
import { linkDateSpan } from './date-spans.js';
import { agoCondition, bucketSql, calendarCondition, daysSince, recentCondition, weekdayCondition, yearsAgoCondition } from './date-sql.js';
import { isToOne, joinTables, relationshipPath, type JoinStep } from './join-paths.js';
import type { PlannedQuery } from './plan-parts.js';
import { linkQuotedValues, quotedSpans, type QuotedSpan } from './quoted-values.js';
import { readCues, type Aggregate, type Cue, type Implied } from './question-grammar.js';
import { fillerWords, type Token, tokenize } from './question-words.js';
import type { SchemaColumn, SchemaContext, SchemaTable } from './schema-context.js';
import type { Candidate, Link, SchemaIndex } from './schema-linker.js';
import { readTextMatches, textMatchSql, type TextMatch } from './text-match.js';
import { notUnderstood } from './translator.js';

type Resolved = Link & { chosen: Candidate };

/** An aggregate of the SELECT list: `fn` over a column, shown as `name`, optionally inside `wrap` ("days since the latest"). */
interface Measure {
  fn: Aggregate;
  ref: ColumnRef;
  name: string;
  wrap?: (aggregate: string) => string;
  /** What the value is, for the answer sentence, when not "<aggregate> <column> of <table>". */
  meaning?: string;
}

/**
 * One question's translation, step by step: read the grammar cues, link the other words to the schema,
 * resolve each link to one meaning, then build one SELECT (see {@link QuestionPlan.build}).
 */
export class QuestionPlan {
  private readonly tokens: Token[];
  private readonly cues: Cue[];
  private readonly links: Resolved[] = [];
  private readonly tables: SchemaTable[] = [];
  private readonly used = new Set<Resolved>();
  private readonly conditions: string[] = [];
  private readonly described: string[] = [];
  /** Date groupings the question asks for ("monthly", "per quarter"), read from words nothing else claimed. */
  private readonly buckets: BucketMention[];
  /** Quoted literals a text starts with, ends with or contains. */
  private readonly textMatches: TextMatch[];
  /** Whether the question asks for the days between two dates (a derived column, see date-spans.ts). */
  private readonly dateSpan: boolean;

  constructor(
    private readonly question: string,
    private readonly schema: SchemaContext,
    index: SchemaIndex,
  ) {
    this.tokens = tokenize(question);
    const read = readCues(this.tokens);
    // "the minimum connect time", "total credit": a whole column name wins over the grammar words inside it.
    const named = index.wholeNames(this.tokens);
    const cues = read.cues.filter((c) => !named.some((n) => c.at < n.end && c.end > n.start));
    const taken = new Set([...cues.flatMap((c) => Array.from({ length: c.end - c.at }, (_, k) => c.at + k))]);
    this.cues = cues;
    // "names that start with \"J\"": the phrase and its literal are read whole, the literal not linked.
    const spans = quotedSpans(question);
    this.textMatches = readTextMatches(this.tokens, spans);
    for (const m of this.textMatches) for (let k = m.at; k < m.end; k++) taken.add(k);
    const matched = (span: QuotedSpan): boolean => this.textMatches.some((m) => m.at <= span.start && span.end <= m.end);
    const linked = linkQuotedValues(this.tokens, index.link(this.tokens, taken), spans.filter((span) => !matched(span)));
    // "the time from hire to termination": two date columns and the word for the span are one number, the days between.
    const spanned = linkDateSpan(this.tokens, linked, (k) => !taken.has(k));
    this.dateSpan = spanned !== undefined;
    const links = spanned?.links ?? linked;
    const covered = new Set(taken);
    for (const link of spanned?.absorbed ?? []) for (let k = link.start; k < link.end; k++) covered.add(k);
    for (const link of links) for (let k = link.start; k < link.end; k++) covered.add(k);
    // "above age 20": the number after the column belongs to the comparison.
    for (const cue of cues) {
      if (cue.kind !== 'compare' || cue.values.length > 0) continue;
      const link = links.find((l) => l.start >= cue.end);
      if (link && this.tokens[link.end]?.kind === 'number') covered.add(link.end);
    }
    // "membership level is 1": a number right after a column (and "is") is that column's value.
    for (const link of links) {
      const at = this.tokens[link.end]?.text === 'is' || this.tokens[link.end]?.text === 'of' ? link.end + 1 : link.end;
      if (this.tokens[at]?.kind === 'number' && !covered.has(at) && link.candidates.some((c) => c.kind === 'column' && c.column.kind === 'number')) {
        covered.add(at);
        this.equalities.push({ link, value: Number(this.tokens[at].text) });
      }
    }
    // "a grade of A or C": "or" between two values of one column is a list of values.
    for (const [k, t] of this.tokens.entries()) {
      const before = links.find((l) => l.end === k);
      const after = links.find((l) => l.start === k + 1);
      const columns = (l?: Link) => (l?.candidates ?? []).filter((c) => c.kind === 'value').map((c) => (c as { column: SchemaColumn }).column);
      if (t.text === 'or' && columns(before).some((c) => columns(after).includes(c))) covered.add(k);
    }
    // "courses without exams": a negated flag is still one condition (see readFilters).
    for (const link of links) {
      const at = this.withoutBefore(link);
      if (at !== undefined) covered.add(at);
    }
    const groupEnds = new Set(cues.filter((c) => c.kind === 'group').map((c) => c.end));
    this.buckets = readBuckets(this.tokens, (k) => !covered.has(k), groupEnds);
    for (const b of this.buckets) for (let k = b.at; k < b.end; k++) covered.add(k);
    const unlinked = this.tokens.filter((t, k) => !covered.has(k) && !(t.kind === 'word' && fillerWords.has(t.text)));
    if (unlinked.length > 0) {
      throw notUnderstood(`Could not link these words to any table, column or value: ${[...new Set(unlinked.map((t) => `"${t.text}"`))].join(', ')}`, schema);
    }
    if (links.length === 0) throw notUnderstood('The question names no table, column or value', schema);
    this.resolve(links);
  }

  private refuse(reason: string): never {
    throw notUnderstood(reason, this.schema);
  }

  /** Picks one meaning per link, preferring tables the question names and tables related to them. */
  private resolve(input: Link[]): void {
    // "order amount", "product category": a table name followed by one of its columns is that column.
    const links: Link[] = [];
    const counted = new Set([
      ...this.cue('aggregate')
        .filter((a) => a.fn === 'count')
        .map((a) => a.end),
      ...this.cue('superlative')
        .filter((s) => ['most', 'least', 'fewest'].includes(this.tokens[s.at].text))
        .map((s) => s.end),
    ]);
    for (const link of input) {
      const previous = links[links.length - 1];
      // ...except right after "how many" or "the most": "how many customers signed up" counts customers.
      const tables = previous?.end === link.start && !counted.has(previous.start) ? previous.candidates.filter((c) => c.kind === 'table').map((c) => c.table) : [];
      const column = link.candidates.find((c) => c.kind === 'column' && tables.includes(c.table));
      if (column)
        links[links.length - 1] = {
          start: previous.start,
          end: link.end,
          candidates: [column],
        };
      else links.push(link);
    }
    // "states that border the state where ...": one table in two roles needs a self-join, which is not supported.
    const named = links.filter((l) => l.candidates[0].kind === 'table');
    for (const [k, first] of named.entries()) {
      const again = named.slice(k + 1).find((l) => l.candidates[0].table === first.candidates[0].table);
      const clause = again && this.tokens.slice(first.end).some((t) => ['where', 'that', 'which', 'whose', 'who'].includes(t.text));
      if (again && clause) this.refuse(`"${first.candidates[0].table.name}" is named twice in two roles; one query over one copy of the table cannot tell them apart`);
    }
    for (const link of links) {
      const table = link.candidates.find((c) => c.kind === 'table');
      if (table && link.candidates[0].kind !== 'value') this.addTable(table.table);
    }
    for (const [k, original] of links.entries()) {
      const link = { ...original, candidates: this.byRole(original) };
      // "the name of the shop": a column followed by "of <table>" belongs to that table; so does a value
      // right before a table's name ("the Computer Science program").
      const next = links[k + 1];
      const between = next ? this.tokens.slice(link.end, next.start).map((t) => t.text) : [];
      const ofTable = between.length > 0 ? between.every((w) => w === 'of' || w === 'the' || w === 'a' || w === 'each' || w === 'every') : link.candidates[0].kind === 'value';
      const owner = next && ofTable ? next.candidates.find((c) => c.kind === 'table') : undefined;
      // "the state of New York": a value right after the name of a column it is a value of belongs to that column.
      const previous = links[k - 1];
      const gap = previous ? this.tokens.slice(previous.end, link.start).map((t) => t.text) : [];
      const named = gap.every((w) => w === 'of' || w === 'is') ? previous?.candidates.filter((c) => c.kind === 'column').map((c) => (c as { column: SchemaColumn }).column) : undefined;
      // "states with an area greater than 1000", "journals whose name ...": a column right after a table it has is that table's.
      const having = gap.length > 0 && ['with', 'whose'].includes(gap[0]) && gap.slice(1).every((w) => ['a', 'an', 'the'].includes(w));
      const holder = having ? previous?.candidates.find((c) => c.kind === 'table') : undefined;
      const chosen =
        link.candidates.find((c) => c.kind === 'table') && link.candidates[0].kind !== 'value'
          ? link.candidates.find((c) => c.kind === 'table')!
          : (link.candidates.find((c) => c.kind === 'value' && named?.includes(c.column)) ??
            // "the easiness scores ... show courses and scores": a word naming a column named before is that column again.
            link.candidates.find((c) => c.kind === 'column' && this.links.some((l) => l.chosen.kind === 'column' && l.chosen.column === c.column)) ??
            link.candidates.find((c) => owner !== undefined && c.table === owner.table) ??
            link.candidates.find((c) => c.kind === 'column' && holder !== undefined && c.table === holder.table) ??
            link.candidates.find((c) => this.tables.includes(c.table)) ??
            link.candidates.find((c) => this.tables.some((t) => this.path(t, c.table) !== undefined)) ??
            link.candidates[0]);
      this.addTable(chosen.table);
      this.links.push({ ...link, chosen });
    }
  }

  /**
   * "flights from LAX to ORD": a value after "from" (or "to") is first a value of a column named for that
   * role (from_airport, origin; to_airport, destination), so the two values are two filters.
   */
  private byRole(link: Link): Candidate[] {
    const role = this.tokens
      .slice(Math.max(0, link.start - 4), link.start)
      .reverse()
      .find((t) => t.text === 'from' || t.text === 'to')?.text;
    if (!role || link.candidates[0].kind !== 'value') return link.candidates;
    const pattern = role === 'from' ? /(^|_)from(_|$)|origin|depart|source/i : /(^|_)to(_|$)|dest|arriv|target/i;
    const fits = (c: Candidate): boolean => c.kind === 'value' && pattern.test(c.column.name);
    return [...link.candidates.filter(fits), ...link.candidates.filter((c) => !fits(c))];
  }

  private addTable(table: SchemaTable): void {
    if (!this.tables.includes(table)) this.tables.push(table);
  }

  private cue<K extends Cue['kind']>(kind: K): Extract<Cue, { kind: K }>[] {
    return this.cues.filter((c): c is Extract<Cue, { kind: K }> => c.kind === kind);
  }

  /** The first link starting at or after token `at`, skipping only filler words and date groupings ("total quarterly sales"). */
  private linkAfter(at: number): Resolved | undefined {
    for (let k = at; k < this.tokens.length; k++) {
      const link = this.links.find((l) => l.start === k);
      if (link) return link;
      const grouping = this.buckets.some((b) => b.at <= k && k < b.end);
      if (!grouping && !(this.tokens[k].kind === 'word' && fillerWords.has(this.tokens[k].text))) return undefined;
    }
    return undefined;
  }

  /** The nearest column link ending at or before token `at`, of a number column. */
  private numberColumnBefore(at: number): Resolved | undefined {
    return [...this.links].reverse().find((l) => l.end <= at && l.chosen.kind === 'column' && l.chosen.column.kind === 'number');
  }

  build(): PlannedQuery {
    let aggregates = this.cue('aggregate');
    // "number of products" where a column is called Number_products: the column, not a count.
    const numberColumn = (a: Extract<Cue, { kind: 'aggregate' }>): boolean => {
      const next = a.fn === 'count' ? this.links.find((l) => l.start === a.end) : undefined;
      return next?.chosen.kind === 'column' && /num/i.test(next.chosen.column.name) && next.chosen.column.kind === 'number';
    };
    // ...and "maximum number of final tables" is the maximum of that number.
    const afterAggregate = (a: Extract<Cue, { kind: 'aggregate' }>): boolean => a.fn === 'count' && aggregates.some((b) => b.fn !== 'count' && b.end === a.at);
    // "the total number of citations" with a citation_num column is the sum of that column.
    aggregates = aggregates.flatMap((a) =>
      numberColumn(a) && this.tokens[a.at].text === 'total' ? [{ ...a, fn: 'sum' as const }] : numberColumn(a) || afterAggregate(a) ? [] : [a],
    );
    // "the most authors, ordered by the number of authors": the ordering restates the superlative's count,
    // so the superlative still groups and ranks, over every group.
    const restated = this.cue('order').some((o) => aggregates.some((a) => a.fn === 'count' && a.at >= o.end && a.at <= o.end + 1));
    const ordered = this.cue('order').length > 0 && !restated;
    // "Which airports have the shortest connect time, sorted in ascending order?": a sorted list, not one row.
    const sortedList = this.cue('direction').length > 0 && this.tokens.some((t) => ['sorted', 'ordered', 'sort', 'order'].includes(t.text));
    this.listsAll = restated || sortedList || this.rangeOrder() !== undefined;
    // With an explicit ordering, "from the oldest to the youngest" only gives its direction.
    const superlative = ordered ? undefined : this.cue('superlative')[0];
    const top = this.cue('top')[0];
    let groupLinks = this.cue('group')
      .map((g) => this.linkAfter(g.end))
      .filter((l): l is Resolved => l !== undefined && l.chosen.kind !== 'value');
    // "top 5 products by price": with a top-N and nothing aggregated, "by" a number ranks instead of grouping.
    let topBy: ColumnRef | undefined;
    const lone = groupLinks[0];
    if (top && aggregates.length === 0 && groupLinks.length === 1 && lone.chosen.kind === 'column' && lone.chosen.column.kind === 'number') {
      topBy = { table: lone.chosen.table, column: lone.chosen.column };
      this.used.add(lone);
      groupLinks = [];
    }
    for (const l of groupLinks) this.used.add(l);
    const orderLink = this.cue('order').map((o) => this.linkAfter(o.end))[0];
    if (orderLink) this.used.add(orderLink);

    this.readFilters();
    const buckets = this.bucketGroups();

    // What is counted: the table (or column) right after "how many" / "number of".
    // "the stadium with the most concerts": a superlative right before a table counts that table.
    const frequency = superlative?.implied === 'frequency';
    // Only "most", "least" and "fewest" count: "the highest mountains" ranks them by a number.
    const counting = superlative !== undefined && ['most', 'least', 'fewest'].includes(this.tokens[superlative.at].text);
    const mostOf = frequency || (superlative && counting && !superlative.implied && this.linkAfter(superlative.end)?.chosen.kind === 'table') ? superlative : undefined;
    const countCue =
      aggregates.find((a) => a.fn === 'count') ??
      (mostOf && superlative ? { kind: 'aggregate' as const, fn: 'count' as const, at: superlative.at, end: superlative.end } : undefined);
    const countTarget = countCue && !(frequency && !aggregates.some((a) => a.fn === 'count')) ? this.linkAfter(countCue.end) : undefined;
    if (countTarget) this.used.add(countTarget);

    // What is averaged, summed, or ranked: the first number column after the word.
    const measures: Measure[] = [];
    for (const a of aggregates.filter((x) => x.fn !== 'count')) {
      const ref = this.measured(a);
      if (!ref) this.refuse(`Could not tell which number to take the ${aggregateNames[a.fn]} of`);
      // "their average ratings ordered by the highest average rating": one aggregate, named twice.
      if (!measures.some((m) => m.fn === a.fn && m.ref.column === ref.column)) measures.push({ fn: a.fn, ref, name: `${a.fn}_${ref.column.name}` });
    }
    // "How long has it been since the last admission?": the days from the latest date to today.
    for (const cue of this.cue('elapsed')) {
      const ref = this.dateColumn(cue.at);
      measures.push({ fn: 'max', ref, name: `days_since_latest_${ref.column.name}`, wrap: daysSince, meaning: `days since the latest ${ref.column.name}` });
    }
    this.checkFormats(buckets);

    const entityLinks = this.links.filter((l) => !this.used.has(l) && l.chosen.kind === 'table');
    // "top 3 customers by revenue": the number belongs to another table, so it is summed per entity.
    if (topBy && entityLinks[0] && topBy.table !== entityLinks[0].chosen.table) {
      measures.push({ fn: 'sum', ref: topBy, name: `sum_${topBy.column.name}` });
      groupLinks = [entityLinks.shift()!];
      this.used.add(groupLinks[0]);
      topBy = undefined;
    }
    // "Which year has the most concerts?": with a counted superlative, what is asked for is what is grouped,
    // ranked by the count (not shown: the question asks for the year).
    const afterSuperlative = superlative ? this.linkAfter(superlative.end) : undefined;
    const rankByCount =
      !!superlative && !!countCue && (!superlative.implied || frequency) && !(afterSuperlative?.chosen.kind === 'column' && afterSuperlative.chosen.column.kind === 'number');
    if (rankByCount && groupLinks.length === 0 && buckets.length === 0) {
      const asked =
        frequency && afterSuperlative?.chosen.kind === 'column'
          ? afterSuperlative
          : frequency && superlative && this.links.some((l) => l.end <= superlative.at && l.chosen.kind === 'column' && !this.used.has(l))
            ? [...this.links].reverse().find((l) => l.end <= superlative.at && l.chosen.kind === 'column' && !this.used.has(l))
            : entityLinks.length > 0
              ? entityLinks.shift()
              : this.links.find((l) => !this.used.has(l) && l.chosen.kind === 'column');
      if (asked) {
        groupLinks = [asked];
        this.used.add(asked);
      }
    }
    // "Which users have posted reviews ..., and how many reviews have they posted?": counts per row asked for.
    const which = this.tokens[0]?.text === 'which' ? this.links.find((l) => l.start === 1) : undefined;
    if (countTarget && !superlative && groupLinks.length === 0 && buckets.length === 0 && which?.chosen.kind === 'table' && which !== countTarget && which.chosen.table !== countTarget.chosen.table && !this.having) {
      groupLinks = [which];
      this.used.add(which);
    }
    const rankBy = topBy ?? (superlative && !rankByCount ? this.superlativeColumn(superlative) : undefined);
    const projection: ColumnRef[] = [];
    for (const l of this.links) {
      if (this.used.has(l) || l.chosen.kind !== 'column') continue;
      const column = l.chosen.column;
      if (!projection.some((p) => p.column === column)) projection.push({ table: l.chosen.table, column });
    }
    // "Which airports ...? Show the connect time", "the cities ... and their population": the rows asked for
    // are named by their label beside the columns shown.
    // "Show both courses and scores": a table listed with a column names the rows too.
    const listed = entityLinks.find((l) => this.tokens[l.end]?.text === 'and' || this.tokens[l.start - 1]?.text === 'and');
    const asked = listed ?? entityLinks[0];
    const namesRows = asked !== undefined && (listed !== undefined || this.tokens[asked.start - 1]?.text === 'which' || this.tokens.some((t) => t.text === 'their' || t.text === 'its'));
    if (namesRows && asked.chosen.kind === 'table' && projection.length > 0 && projection.every((p) => p.table === asked.chosen.table)) {
      const label = labelColumn(asked.chosen.table);
      if (!projection.some((p) => p.column === label)) projection.unshift({ table: asked.chosen.table, column: label });
    }

    const main =
      countTarget?.chosen.table ?? entityLinks[0]?.chosen.table ?? measures[0]?.ref.table ?? groupLinks[0]?.chosen.table ?? projection[0]?.table ?? this.links[0].chosen.table;
    // "How many lakes are there in each state?": when the counted table's own column already holds the
    // group's label (lake.state_name -> state.state_name), group by it without joining the other table.
    groupLinks = groupLinks.map((g) => {
      const direct = g.chosen.kind === 'table' ? this.ownReference(main, g.chosen.table) : undefined;
      if (!direct) return g;
      const at = this.tables.indexOf(g.chosen.table);
      if (at >= 0) this.tables.splice(at, 1);
      return { ...g, chosen: { kind: 'column', table: main, column: direct } };
    });
    const from = this.joins(main);
    const alias = (table: SchemaTable): string => from.aliases.get(table) ?? this.refuse(`${table.name} is not joined to the rest of the question`);
    const col = (ref: ColumnRef): string => {
      const column = columnSql(ref.column, alias(ref.table));
      return ref.bucket ? bucketSql(ref.bucket, column, ref.column) : column;
    };
    // A date grouping is shown under the unit's name ("month"), the expression being no name to read.
    const shown = (ref: ColumnRef): string => (ref.bucket ? `${col(ref)} AS ${quoteDouble(ref.bucket)}` : col(ref));

    const groups: ColumnRef[] = [...buckets];
    const groupSelect: ColumnRef[] = [...buckets];
    for (const g of groupLinks) {
      if (g.chosen.kind === 'column') {
        groups.push({ table: g.chosen.table, column: g.chosen.column });
        groupSelect.push({ table: g.chosen.table, column: g.chosen.column });
      } else {
        const label = labelColumn(g.chosen.table);
        const key = keyColumn(g.chosen.table);
        if (key && key !== label) groups.push({ table: g.chosen.table, column: key });
        groups.push({ table: g.chosen.table, column: label });
        groupSelect.push({ table: g.chosen.table, column: label });
      }
    }

    const select: string[] = [];
    const order: string[] = [];
    let limit = top?.n;
    let meaning: string | undefined;
    const where = this.conditions.length ? ` WHERE ${this.conditions.join(' AND ')}` : '';
    const filterText = this.described.length ? ` where ${this.described.join(' and ')}` : '';

    let having = '';
    if (this.having && countTarget?.chosen.kind === 'table' && measures.length === 0 && groupSelect.length === 0 && projection.length === 0) {
      // "How many authors have published more than 2 papers?": the authors meeting the count condition, counted.
      const counted = countTarget.chosen.table;
      const key = keyColumn(counted) ?? labelColumn(counted);
      const otherKey = keyColumn(this.having.table);
      const condition = `${otherKey ? `count(DISTINCT ${col({ table: this.having.table, column: otherKey })})` : 'count(*)'} ${this.having.op} ${this.having.value}`;
      const inner = `SELECT ${col({ table: counted, column: key })} FROM ${from.sql}${where} GROUP BY ${col({ table: counted, column: key })} HAVING ${condition}`;
      return this.single(`SELECT count(*) AS ${quoteDouble('count')} FROM (${inner}) AS matching`, `number of ${counted.name} with ${this.having.op} ${this.having.value} ${this.having.table.name}${filterText}`);
    }
    if (this.having) {
      if (countCue || measures.length > 0) this.refuse('A condition on a count together with another aggregate is not supported');
      const shown =
        projection.length > 0
          ? projection
          : entityLinks[0]?.chosen.kind === 'table'
            ? [{ table: entityLinks[0].chosen.table, column: labelColumn(entityLinks[0].chosen.table) }]
            : [];
      if (shown.length === 0) this.refuse(`Could not tell what to count ${this.having.table.name} for`);
      if (projection.length === 0) projection.push(...shown);
      groups.push(...shown);
      // Rows of an entity are told apart by its key, not its name.
      const entityKey = projection === shown || entityLinks[0]?.chosen.kind !== 'table' ? undefined : keyColumn(entityLinks[0].chosen.table);
      if (entityKey && shown[0].table === entityLinks[0].chosen.table) groups.push({ table: shown[0].table, column: entityKey });
      const key = keyColumn(this.having.table);
      const counted = key && from.joined ? `count(DISTINCT ${col({ table: this.having.table, column: key })})` : 'count(*)';
      having = ` HAVING ${counted} ${this.having.op} ${this.having.value}`;
    }
    if (countCue || measures.length > 0) {
      for (const g of groupSelect) select.push(shown(g));
      for (const p of projection) {
        if (groups.some((g) => g.column === p.column)) continue;
        // A column of a table grouped by its key ("the name and capacity of each stadium") is shown and grouped by too.
        // "business names and their average ratings": a column of another table than the aggregated one, with
        // "their"/"its", names the rows the aggregate is taken per (grouped by that table's key too).
        const aggregatedTable = countTarget?.chosen.table ?? measures[0]?.ref.table;
        const per = aggregatedTable !== undefined && p.table !== aggregatedTable && this.tokens.some((t) => t.text === 'their' || t.text === 'its');
        if (!per && !groupLinks.some((g) => g.chosen.kind === 'table' && g.chosen.table === p.table))
          this.refuse(`Cannot show "${p.column.name}" next to an aggregate without grouping by it`);
        const key = per ? keyColumn(p.table) : undefined;
        if (key && key !== p.column && !groups.some((g) => g.column === key)) groups.push({ table: p.table, column: key });
        groups.push(p);
        select.splice(groupSelect.length, 0, col(p));
        groupSelect.push(p);
      }
      if (countCue) {
        const target = countTarget?.chosen;
        let expression = 'count(*)';
        let what = main.name;
        if (target?.kind === 'column') {
          expression = `count(DISTINCT ${col({ table: target.table, column: target.column })})`;
          what = `distinct ${target.column.name} values`;
        } else if (tallyColumn(main)) {
          // A table of tallies (a `count` column per row, as check-ins per day): how many is their sum.
          expression = `sum(${col({ table: main, column: tallyColumn(main)! })})`;
          what = `${main.name} (sum of ${tallyColumn(main)!.name})`;
        } else if (from.joined && keyColumn(main)) expression = `count(DISTINCT ${col({ table: main, column: keyColumn(main)! })})`;
        // "the top 2 airlines with the most flights", "..., and how many courses": the count is shown beside the ranked groups.
        // ...but not "the year with the most number of concerts", where the count only ranks.
        const askedApart = aggregates.some((a) => a.fn === 'count' && a.at !== superlative?.end);
        const countShown = !rankByCount || top !== undefined || askedApart;
        if (rankByCount && groupSelect.length > 0) order.push(`${expression} ${superlative!.descending ? 'DESC' : 'ASC'}`);
        if (countShown || groupSelect.length === 0) select.push(`${expression} AS ${quoteDouble('count')}`);
        meaning = `number of ${what}${filterText}`;
      }
      for (const m of measures) {
        const aggregate = `${m.fn}(${col(m.ref)})`;
        select.push(`${m.wrap ? m.wrap(aggregate) : aggregate} AS ${quoteDouble(m.name)}`);
        meaning ??= `${m.meaning ?? `${aggregateNames[m.fn]} ${m.ref.column.name} of ${m.ref.table.name}`}${filterText}`;
      }
      if (groups.length > 0) {
        const first = countCue ? 'count' : measures[0].name;
        // A series over dates ("monthly totals") reads in date order, then by the other groups; other groups rank by their aggregate.
        if (order.length === 0 && buckets.length > 0 && !superlative) order.push(...groupSelect.map((g) => `${col(g)} ASC`));
        if (order.length === 0) order.push(`${quoteDouble(first)} ${superlative && !superlative.descending ? 'ASC' : 'DESC'}`);
        if (superlative && limit === undefined && !this.listsAll) limit = 1;
        meaning = undefined;
      } else if (superlative) this.refuse('A "most" or "least" needs something to compare: say what to group by');
    } else {
      if (buckets.length > 0) this.refuse(`Say what to count, sum or average per ${buckets[0].bucket}`);
      if (projection.length > 0) for (const p of projection) select.push(col(p));
      else select.push(`${alias(main)}.*`);
      // Nothing aggregated: "for every singer" just means all of them, and "customers by region" lists them in that order.
      if (!this.having) groups.splice(0);
      if (!orderLink) for (const g of groupLinks) if (g.chosen.kind === 'column') order.push(col({ table: g.chosen.table, column: g.chosen.column }));
      if (rankBy) {
        if (!this.toOne(main, rankBy.table)) this.refuse(`Ranking ${main.name} by ${rankBy.column.name} of ${rankBy.table.name} needs an aggregate: say "total" or "average"`);
        order.push(`${col(rankBy)} ${superlative?.descending === false ? 'ASC' : 'DESC'} NULLS LAST`);
        if (!this.listsAll) limit ??= 1;
      }
    }
    const orderedMeasure = orderLink?.chosen.kind === 'column' ? measures.find((m) => m.ref.column === (orderLink.chosen as { column: SchemaColumn }).column) : undefined;
    const byCount = orderLink?.chosen.kind === 'table' && countCue !== undefined && groups.length > 0 && select.some((s) => s.endsWith(` AS ${quoteDouble('count')}`));
    if (byCount) {
      // "ordered by the number of restaurants": the count already shown.
      const descending = this.cue('direction')[0]?.descending ?? true;
      order.splice(0, order.length, `${quoteDouble('count')} ${descending ? 'DESC' : 'ASC'}`);
    } else if (orderLink && orderedMeasure) {
      // "ordered by the highest average rating": the aggregate already shown.
      const descending = this.cue('direction')[0]?.descending ?? this.cue('superlative')[0]?.descending ?? false;
      order.splice(0, order.length, `${quoteDouble(orderedMeasure.name)} ${descending ? 'DESC' : 'ASC'}`);
    } else if (orderLink) {
      const descending = this.cue('direction')[0]?.descending ?? this.cue('superlative')[0]?.descending ?? false;
      const ref =
        orderLink.chosen.kind === 'table'
          ? {
              table: orderLink.chosen.table,
              column: labelColumn(orderLink.chosen.table),
            }
          : {
              table: orderLink.chosen.table,
              column: (orderLink.chosen as { column: SchemaColumn }).column,
            };
      if (!from.aliases.has(ref.table)) this.refuse(`Cannot order by ${ref.column.name}: its table is not part of the question`);
      order.unshift(`${col(ref)} ${descending ? 'DESC' : 'ASC'}`);
    } else if (top && order.length === 0) {
      const measure = defaultMeasure(main);
      if (!measure) this.refuse(`Could not tell what "top ${top.n}" ranks by`);
      order.push(`${col({ table: main, column: measure })} DESC NULLS LAST`);
    }
    // Rows of a listing reached through a join repeat once per related row: "which organizations have authors ..." lists each once.
    const distinct = (this.cue('distinct').length > 0 || (from.joined && groups.length === 0)) && !countCue && measures.length === 0 ? 'DISTINCT ' : '';
    // Groups tied on a ranked aggregate come in the order of their values, so a LIMIT keeps the same ones every time.
    if (limit !== undefined && groups.length > 0 && order.length > 0) for (const g of groupSelect) if (!order.some((o) => o.startsWith(col(g)))) order.push(`${col(g)} ASC`);
    const sql =
      `SELECT ${distinct}${select.join(', ')} FROM ${from.sql}${where}` +
      (groups.length ? ` GROUP BY ${groups.map(col).join(', ')}${having}` : '') +
      (order.length ? ` ORDER BY ${order.join(', ')}` : '') +
      (limit !== undefined ? ` LIMIT ${limit}` : '');
    const aggregated = countCue !== undefined || measures.length > 0;
    const counted = countCue ? (countTarget?.chosen.kind === 'column' ? 'column' : 'rows') : undefined;
    const keyRefs = aggregated ? groupSelect : groupLinks.filter((g) => from.aliases.has(g.chosen.table)).map((g) => groupedColumn(g.chosen));
    return {
      sql,
      meaning,
      grouped: groups.length > 0,
      parts: {
        select,
        from: from.sql,
        where: [...this.conditions],
        groupBy: groups.map(col),
        keys: keyRefs.map(col),
        keyIds: keyRefs.map((r) => `${r.table.key}.${r.column.name}${r.bucket ? `@${r.bucket}` : ''}`),
        aggregated,
        counted,
        limited: limit !== undefined || distinct !== '' || this.having !== undefined,
      },
    };
  }

  /**
   * The columns the date groupings of the question group by, one per unit: a column named for the unit
   * in the question's tables (`year`, a `month` of names) as it is, else the date column truncated.
   */
  private bucketGroups(): ColumnRef[] {
    const refs: ColumnRef[] = [];
    for (const { bucket, at } of this.buckets) {
      if (refs.some((r) => (r.bucket ?? r.column.name.toLowerCase()) === bucket)) continue;
      const table = this.tables.find((t) => t.columns.some((c) => c.name.toLowerCase() === bucket && c.kind !== 'date'));
      const named = table?.columns.find((c) => c.name.toLowerCase() === bucket);
      refs.push(table && named ? { table, column: named } : { ...this.dateColumn(at), bucket });
    }
    return refs;
  }

  /** "as a date" needs a date grouping to describe, "in days" / "as an integer" a count of days: refused where there is none. */
  private checkFormats(buckets: readonly ColumnRef[]): void {
    for (const cue of this.cue('format')) {
      if (cue.as === 'date' && !buckets.some((b) => b.bucket && b.bucket !== 'weekday')) this.refuse('"as a date" needs a grouping by a calendar unit ("per month") to describe');
      if (cue.as === 'days' && this.cue('elapsed').length === 0 && !this.dateSpan)
        this.refuse('"in days" or "as an integer" is only read for the days since the latest date or between two dates');
    }
  }

  /**
   * The column of `main` that references `table`'s label directly, when nothing else of the question
   * needs `table` (no other link, filter or measure names it); undefined otherwise.
   */
  private ownReference(main: SchemaTable, table: SchemaTable): SchemaColumn | undefined {
    if (main === table || this.links.filter((l) => l.chosen.table === table).length > 1 || this.pendingRefs.some((r) => r.table === table)) return undefined;
    const label = labelColumn(table);
    const step = this.schema.relationships.find(
      (r) =>
        (r.from.table === main.key && r.to.table === table.key && r.to.column === label.name) || (r.to.table === main.key && r.from.table === table.key && r.from.column === label.name),
    );
    const name = step ? (step.from.table === main.key ? step.from.column : step.to.column) : undefined;
    return main.columns.find((c) => c.name === name);
  }

  /** A query of one value over a subquery: composed with another plan only as a whole (a scalar subquery). */
  private single(sql: string, meaning: string): PlannedQuery {
    return { sql, meaning, grouped: false, parts: { select: [`count(*) AS ${quoteDouble('count')}`], from: `(${sql}) AS one`, where: [], groupBy: [], keys: [], keyIds: [], aggregated: true, counted: 'rows', limited: false } };
  }

  private isFilter(link: Resolved): boolean {
    return this.used.has(link) && link.chosen.kind === 'value';
  }

  /**
   * What an aggregate word takes: the first number column after it, else the amount of the table right
   * after it ("total sales": the sale price).
   */
  private measured(a: Extract<Cue, { kind: 'aggregate' }>): ColumnRef | undefined {
    const link = this.links.find((l) => l.start >= a.end && l.chosen.kind === 'column' && l.chosen.column.kind === 'number' && !this.isFilter(l));
    if (link?.chosen.kind === 'column') {
      this.used.add(link);
      return { table: link.chosen.table, column: link.chosen.column };
    }
    const next = this.linkAfter(a.end);
    const amount = next?.chosen.kind === 'table' ? amountMeasure(next.chosen.table) : undefined;
    if (!next || !amount) return undefined;
    this.used.add(next);
    return { table: next.chosen.table, column: amount };
  }

  /** Whether a superlative orders every row or group instead of picking the first ("from highest to lowest"). */
  private listsAll = false;

  /** "ordered from highest to lowest": a superlative then orders every row instead of picking one. */
  private rangeOrder(): Extract<Cue, { kind: 'direction' }> | undefined {
    return this.cue('direction').find((d) => d.range);
  }

  /** The column a superlative ranks by: the number column after it, or the one it implies (oldest: age). */
  private superlativeColumn(cue: Extract<Cue, { kind: 'superlative' }>): ColumnRef | undefined {
    const after = this.linkAfter(cue.end);
    if (after?.chosen.kind === 'column' && after.chosen.column.kind === 'number' && !this.used.has(after)) {
      this.used.add(after);
      return { table: after.chosen.table, column: after.chosen.column };
    }
    // "the highest mountains, ordered from highest to lowest altitude": the column after the range.
    const range = this.rangeOrder();
    const ranged = range ? this.linkAfter(range.end) : undefined;
    if (ranged?.chosen.kind === 'column' && ranged.chosen.column.kind === 'number' && !this.used.has(ranged)) {
      this.used.add(ranged);
      return { table: ranged.chosen.table, column: ranged.chosen.column };
    }
    // "the shop whose number of products is the largest": a superlative ending the question ranks the number before it.
    const before = cue.end === this.tokens.length ? this.numberColumnBefore(cue.at) : undefined;
    if (before?.chosen.kind === 'column' && !this.used.has(before)) {
      this.used.add(before);
      return { table: before.chosen.table, column: before.chosen.column };
    }
    const column = cue.implied ? this.impliedColumn(cue.implied) : undefined;
    if (column) return column;
    if (this.cue('aggregate').length > 0) return undefined;
    this.refuse('Could not tell what "highest", "lowest", "most" or "least" compares');
  }

  /** The column an adjective implies ("oldest", "older": age), in the question's tables or one related to them. */
  private impliedColumn(kind: Implied): ColumnRef | undefined {
    const tests: Partial<Record<Implied, (c: SchemaColumn) => boolean>> = {
      age: (c) => /^age$/i.test(c.name),
      height: (c) => c.kind === 'number' && /height/i.test(c.name),
      length: (c) => c.kind === 'number' && /length|duration|height/i.test(c.name),
      weight: (c) => c.kind === 'number' && /weight/i.test(c.name),
      price: (c) => c.kind === 'number' && /price|cost/i.test(c.name),
      date: (c) => c.kind === 'date',
    };
    const test = tests[kind];
    if (!test) return undefined;
    const tables = [...this.tables, ...this.schema.tables.filter((t) => !this.tables.includes(t) && this.path(this.tables[0], t) !== undefined)];
    for (const table of tables) {
      const column = table.columns.find(test);
      if (!column) continue;
      this.addTable(table);
      return { table, column };
    }
    return undefined;
  }

  /** Turns value links, comparisons and date phrases into WHERE conditions. */
  private readFilters(): void {
    // An "or" between values that were resolved to different columns would need OR across columns: refused.
    for (const [k, t] of this.tokens.entries()) {
      if (t.text !== 'or' || this.cues.some((c) => c.at <= k && k < c.end)) continue;
      const before = this.links.find((l) => l.end === k);
      const after = this.links.find((l) => l.start === k + 1);
      if (!before || !after || this.alternatives(before).indexOf(after) < 0) this.refuse('"or" between conditions on different columns is not supported');
    }
    for (const link of this.links) {
      if (link.chosen.kind !== 'value') continue;
      this.used.add(link);
      // "status is refunded": the column named before its value is part of the filter.
      const chosen = link.chosen;
      const named = this.links.find((l) => l.end <= link.start && l.chosen.kind === 'column' && l.chosen.column === chosen.column && this.linkAfter(l.end) === link);
      if (named) this.used.add(named);
      // ...and so is one named right after it ("Italian food": food_type = 'italian').
      const after = this.linkAfter(link.end);
      if (after?.chosen.kind === 'column' && after.chosen.column === chosen.column) this.used.add(after);
      const alternatives = this.alternatives(link);
      if (alternatives.length > 1) {
        for (const l of alternatives) this.used.add(l);
        if (link !== alternatives[0]) continue;
        const values = [...new Set(alternatives.map((l) => (l.chosen as { value: string }).value))];
        this.filter({ table: chosen.table, column: chosen.column }, `IN (${values.map(sqlLiteral).join(', ')})`, `${chosen.column.name} is ${values.join(' or ')}`);
        continue;
      }
      // "from LAX to ORD" matched twice on one column: the two values are different roles, not one filter.
      const other = this.links.find((l) => l !== link && l.chosen.kind === 'value' && l.chosen.column === chosen.column && l.chosen.value !== chosen.value);
      if (other)
        this.refuse(`Two values of ${chosen.column.name} ("${chosen.value}", "${(other.chosen as { value: string }).value}") cannot both hold; say which column each belongs to`);
      this.filter({ table: link.chosen.table, column: link.chosen.column }, `= ${sqlLiteral(link.chosen.value)}`, `${link.chosen.column.name} is ${link.chosen.value}`);
    }
    this.flagFilters();
    for (const match of this.textMatches) this.textMatchFilter(match);
    for (const { link, value } of this.equalities) {
      const resolved = this.links.find((l) => l.start === link.start);
      if (resolved?.chosen.kind !== 'column' || resolved.chosen.column.kind !== 'number') this.refuse(`Could not tell what the number ${value} is`);
      this.used.add(resolved);
      this.filter({ table: resolved.chosen.table, column: resolved.chosen.column }, `= ${value}`, `${resolved.chosen.column.name} is ${value}`);
    }
    // "in June 2021 and in December 2021" asks for two sets of rows, which one WHERE cannot say ("after X and before Y" is one range).
    const bounded = this.cues.filter((c) => c.kind === 'month' || (c.kind === 'period' && c.from !== openStart && c.to !== openEnd));
    if (bounded.length > 1) this.refuse('The question names two periods; ask about one period (or a range: "between June 2021 and December 2021")');
    for (const cue of this.cues) {
      if (cue.kind === 'compare') this.compare(cue);
      else if (cue.kind === 'recent') {
        const date = this.dateColumn(cue.at);
        this.condition(date, (c) => recentCondition(c, cue.amount, cue.unit), `${date.column.name} is in the last ${cue.amount} ${cue.unit}(s)`);
      } else if (cue.kind === 'calendar') {
        const date = this.dateColumn(cue.at);
        const which = cue.amount === 0 ? `the current ${cue.unit}` : `the ${cue.amount} ${cue.unit}(s) before the current one`;
        this.condition(date, (c) => calendarCondition(c, cue.amount, cue.unit), `${date.column.name} is in ${which}`);
      } else if (cue.kind === 'ago') this.agoFilter(cue);
      else if (cue.kind === 'weekday') this.weekdayFilter(cue.days, cue.at);
      else if (cue.kind === 'period') {
        const date = this.findDateColumn(cue.at);
        if (date)
          this.filter(date, `>= DATE ${sqlLiteral(cue.from)} AND ${this.ref(date)} < DATE ${sqlLiteral(cue.to)}`, `${date.column.name} is from ${cue.from} to before ${cue.to}`);
        else this.monthNameFilter(monthsOfPeriod(cue.from, cue.to));
      } else if (cue.kind === 'month') {
        const date = this.findDateColumn(cue.at);
        if (date) this.condition(date, (c) => `month(${c}) = ${cue.month}`, `${date.column.name} is in month ${cue.month}`);
        else this.monthNameFilter({ months: [cue.month] });
      }
    }
  }

  /** A condition on a column, written by `sql` around the column's reference (a function of it, or a range over it). */
  private condition(ref: ColumnRef, sql: (column: string) => string, description: string): void {
    this.addTable(ref.table);
    this.conditions.push(sql(this.ref(ref)));
    this.described.push(description);
  }

  /** "registered 2 years ago": a column holding years equals that year; a date falls in that calendar unit. */
  private agoFilter(cue: Extract<Cue, { kind: 'ago' }>): void {
    const yearColumn = cue.unit === 'year' ? this.yearColumn(cue.at) : undefined;
    if (yearColumn?.kind === 'number') {
      this.condition(yearColumn.ref, (c) => yearsAgoCondition(c, cue.amount), `${yearColumn.ref.column.name} is ${cue.amount} year(s) ago`);
      return;
    }
    const date = yearColumn?.ref ?? this.dateColumn(cue.at);
    this.condition(date, (c) => agoCondition(c, cue.amount, cue.unit), `${date.column.name} is ${cue.amount} ${cue.unit}(s) ago`);
  }

  /**
   * "on weekends", "on Mondays": a column of day names in the question's tables ("Monday", as a
   * check-in's day) holds them as text; otherwise the day of the week of a date column.
   */
  private weekdayFilter(days: readonly number[], at: number): void {
    const named = this.namesColumn(dayNames);
    if (named) {
      const { values, rhs } = namesCondition(named.column, days.map((d) => dayNames[d]));
      this.filter(named, rhs, `${named.column.name} is ${values.join(' or ')}`);
      return;
    }
    const date = this.dateColumn(at);
    this.condition(date, (c) => weekdayCondition(c, days), `${date.column.name} falls on ${days.map((d) => dayNames[d]).join(' or ')}`);
  }

  /**
   * A month or a period of whole months over a table that stores months by name ("April") beside a year
   * column: the names, and the year when the period has one.
   */
  private monthNameFilter(period: { year?: number; months: number[] } | undefined): void {
    const named = this.namesColumn(monthNames);
    if (!named) this.refuse('The question names a date or month, but none of its tables has a date column or a column of month names');
    if (!period) this.refuse(`A period that is not whole months of one year cannot be compared with ${named.column.name}, which holds month names`);
    const { values, rhs } = namesCondition(named.column, period.months.map((m) => monthNames[m - 1]));
    this.filter(named, rhs, `${named.column.name} is ${values.join(' or ')}`);
    if (period.year === undefined) return;
    const year = yearColumnOf(named.table);
    if (!year) this.refuse(`${named.table.name} stores months by name but has no year column to compare ${period.year} with`);
    this.filter({ table: named.table, column: year }, `= ${period.year}`, `${year.name} is ${period.year}`, year.kind === 'text');
  }

  /** A column of the question's tables holding `names` (see date-names.ts); the words naming it ("in the month of") are part of the filter. */
  private namesColumn(names: readonly string[]): ColumnRef | undefined {
    const named = namesColumn(this.tables, names);
    for (const l of this.links) if (named && l.chosen.kind === 'column' && l.chosen.column === named.column) this.used.add(l);
    return named;
  }

  /**
   * "journals whose names start with \"J\"", "diagnoses containing 'psoriasis'", "with \"IEEE\" in its
   * name": the text column named before the phrase (or after it, "in its name"), or the label of the
   * table named before it, matched ignoring case.
   */
  private textMatchFilter(match: TextMatch): void {
    const link = match.columnAt !== undefined ? this.linkAfter(match.columnAt) : [...this.links].reverse().find((l) => l.end <= match.at);
    const between = link && match.columnAt === undefined ? this.tokens.slice(link.end, match.at) : [];
    const chosen = link && between.every((t) => t.kind === 'word' && fillerWords.has(t.text)) ? link.chosen : undefined;
    const ref: ColumnRef | undefined =
      chosen?.kind === 'column' && chosen.column.kind === 'text'
        ? { table: chosen.table, column: chosen.column }
        : chosen?.kind === 'table' && labelColumn(chosen.table).kind === 'text'
          ? { table: chosen.table, column: labelColumn(chosen.table) }
          : undefined;
    if (!link || !ref) this.refuse(`Could not tell which text should ${match.mode === 'contains' ? 'contain' : match.mode === 'prefix' ? 'start with' : 'end with'} "${match.text}"`);
    if (chosen?.kind === 'column') this.used.add(link);
    const how = { prefix: 'starts with', suffix: 'ends with', contains: 'contains' }[match.mode];
    this.condition(ref, (c) => textMatchSql(match.mode, c, match.text), `${ref.column.name} ${how} ${match.text}`);
  }

  /** Where "without" stands before a link that may be a flag ("without a final exam"), or undefined. */
  private withoutBefore(link: Link): number | undefined {
    if (!link.candidates.some((c) => c.kind === 'column' && isFlagColumn(c.column))) return undefined;
    let at = link.start - 1;
    while (at >= 0 && ['a', 'an', 'any'].includes(this.tokens[at].text)) at--;
    return this.tokens[at]?.text === 'without' ? at : undefined;
  }

  /**
   * "courses that have a final exam", "placebo treatments", "courses without exams": a flag column the
   * question names and uses for nothing else holds (or, after "without", does not).
   */
  private flagFilters(): void {
    for (const link of this.links) {
      if (this.used.has(link) || link.chosen.kind !== 'column' || !isFlagColumn(link.chosen.column)) continue;
      this.used.add(link);
      const holds = this.withoutBefore(link) === undefined;
      this.filter({ table: link.chosen.table, column: link.chosen.column }, `= ${holds}`, `${link.chosen.column.name} is ${holds}`);
    }
  }

  /** The value links of `link`'s column chained to it by "or" ("A or C"), in question order; just `link` when there is no "or". */
  private alternatives(link: Resolved): Resolved[] {
    const column = (link.chosen as { column: SchemaColumn }).column;
    const chain = [link];
    const ofColumn = (l: Resolved): boolean => l.chosen.kind === 'value' && l.chosen.column === column;
    const joined = (a: Resolved, b: Resolved): boolean => b.start === a.end + 1 && this.tokens[a.end].text === 'or' && ofColumn(a) && ofColumn(b);
    for (let at = this.links.indexOf(link); at > 0 && joined(this.links[at - 1], this.links[at]); at--) chain.unshift(this.links[at - 1]);
    for (let at = this.links.indexOf(link); at < this.links.length - 1 && joined(this.links[at], this.links[at + 1]); at++) chain.push(this.links[at + 1]);
    return chain;
  }

  private compare(cue: Extract<Cue, { kind: 'compare' }>): void {
    if (cue.average) return this.compareWithAverage(cue);
    let values = cue.values;
    let target: ColumnRef | undefined = cue.implied ? this.impliedColumn(cue.implied) : undefined;
    if (cue.implied && !target) this.refuse(`Could not tell which column "${this.tokens[cue.at].text}" compares`);
    if (target) {
      this.filter(target, comparisonSql(cue.op, values), `${target.column.name} ${describeComparison(comparisonSql(cue.op, values))}`);
      return;
    }
    if (values.length === 0) {
      // "above age 20": a column, then the number.
      const link = this.linkAfter(cue.end);
      const number = link ? this.tokens[link.end] : undefined;
      if (!link || link.chosen.kind !== 'column' || number?.kind !== 'number') this.refuse(`Could not read the comparison at "${this.tokens[cue.at].text}"`);
      this.used.add(link);
      target = { table: link.chosen.table, column: link.chosen.column };
      values = [Number(number.text)];
    } else if (cue.year) {
      const yearColumn = this.yearColumn(cue.at);
      if (yearColumn.kind === 'date') {
        const rhs = comparisonSql(cue.op, values);
        this.addTable(yearColumn.ref.table);
        this.conditions.push(`year(${this.ref(yearColumn.ref)}) ${rhs}`);
        this.described.push(`the year of ${yearColumn.ref.column.name} ${describeComparison(rhs)}`);
        return;
      }
      target = yearColumn.ref;
    } else {
      const before = this.numberColumnBefore(cue.at);
      const after = this.linkAfter(cue.end);
      // "more than one employee": a condition on how many rows each group has.
      if (after?.chosen.kind === 'table' && after.chosen.table !== before?.chosen.table && values.length === 1 && cue.op !== 'between' && !this.having) {
        this.used.add(after);
        this.having = { op: cue.op, value: values[0], table: after.chosen.table };
        this.addTable(after.chosen.table);
        return;
      }
      if (after?.chosen.kind === 'table' && after.chosen.table !== before?.chosen.table)
        this.refuse(
          `Cannot compare a count of ${after.chosen.table.name} ("${this.tokens
            .slice(cue.at, after.end)
            .map((t) => t.text)
            .join(' ')}")`,
        );
      if (before && before.chosen.kind === 'column') {
        this.used.add(before);
        target = { table: before.chosen.table, column: before.chosen.column };
      } else {
        const main = this.tables[0];
        const measure = main ? defaultMeasure(main) : undefined;
        if (!main || !measure)
          this.refuse(
            `Could not tell which number "${this.tokens
              .slice(cue.at, cue.end)
              .map((t) => t.text)
              .join(' ')}" compares`,
          );
        target = { table: main, column: measure };
      }
    }
    if (values.length > 1 && cue.op !== '=' && cue.op !== 'between') this.refuse(`Cannot compare with several numbers at "${this.tokens[cue.at].text}"`);
    // A year kept as text (Spider's "Year" columns) is compared as a number.
    const textYear = target.column.kind === 'text' && /year/i.test(target.column.name);
    if (target.column.kind !== 'number' && !textYear) this.refuse(`Cannot compare ${target.column.name} (${target.column.type}) with a number`);
    const rhs = comparisonSql(cue.op, values);
    this.filter(target, rhs, `${target.column.name} ${describeComparison(rhs)}`, textYear);
  }

  private yearColumn(near: number): { kind: 'date' | 'number'; ref: ColumnRef } {
    const linked = this.links.find((l) => l.chosen.kind === 'column' && /year/i.test(l.chosen.column.name) && l.chosen.column.kind !== 'date');
    if (linked && linked.chosen.kind === 'column') {
      this.used.add(linked);
      return {
        kind: 'number',
        ref: { table: linked.chosen.table, column: linked.chosen.column },
      };
    }
    for (const table of this.tables) {
      const year = yearColumnOf(table);
      if (year) return { kind: 'number', ref: { table, column: year } };
    }
    return { kind: 'date', ref: this.dateColumn(near) };
  }

  /**
   * The date column a date phrase at token `near` is about: a linked one, else the first of the table
   * named nearest before the phrase ("customers who made sell transactions on 2023-04-01": the
   * transaction's), else of the question's other tables.
   */
  private dateColumn(near: number): ColumnRef {
    return this.findDateColumn(near) ?? this.refuse('The question names a date or year, but none of its tables has a date column');
  }

  /** The date column of a date phrase at token `near` (see {@link dateColumn}), or undefined when the question's tables have none. */
  private findDateColumn(near: number): ColumnRef | undefined {
    const linked = this.links.find((l) => l.chosen.kind === 'column' && l.chosen.column.kind === 'date');
    if (linked && linked.chosen.kind === 'column') {
      // "predicted to graduate": every word naming the column is part of the date phrase.
      for (const l of this.links) if (l.chosen.kind === 'column' && l.chosen.column === linked.chosen.column) this.used.add(l);
      return { table: linked.chosen.table, column: linked.chosen.column };
    }
    const before = this.links.filter((l) => l.end <= near).reverse().map((l) => l.chosen.table);
    for (const table of [...before.filter((t) => this.tables.includes(t)), ...this.tables]) {
      const date = table.columns.find((c) => c.kind === 'date');
      if (date) return { table, column: date };
    }
    return undefined;
  }

  private readonly pendingRefs: ColumnRef[] = [];
  /** Column links followed by a number they equal, found before the links are resolved. */
  private readonly equalities: { link: Link; value: number }[] = [];
  private having?: { op: string; value: number; table: SchemaTable };
  private readonly bounds = new Map<SchemaColumn, { op: string; value: number }[]>();

  /** A column reference whose alias is filled in once the joins are known. */
  private ref(ref: ColumnRef): string {
    this.pendingRefs.push(ref);
    return `\u0000${this.pendingRefs.length - 1}\u0000`;
  }

  private filter(ref: ColumnRef, rhs: string, description: string, asInteger = false): void {
    // "a singer above 40 and a singer below 30" asks for two sets of rows, which one WHERE cannot say.
    const bound = /^(>=|<=|>|<) (-?[\d.]+)$/.exec(rhs);
    if (bound) {
      const earlier = this.bounds.get(ref.column) ?? [];
      const lower = Math.max(...[...earlier, { op: bound[1], value: Number(bound[2]) }].filter((b) => b.op.startsWith('>')).map((b) => b.value));
      const upper = Math.min(...[...earlier, { op: bound[1], value: Number(bound[2]) }].filter((b) => b.op.startsWith('<')).map((b) => b.value));
      if (lower >= upper) this.refuse(`The question compares ${ref.column.name} in two ways no row meets at once (two sets of rows are not supported)`);
      this.bounds.set(ref.column, [...earlier, { op: bound[1], value: Number(bound[2]) }]);
    }
    this.addTable(ref.table);
    this.conditions.push(`${asInteger ? `TRY_CAST(${this.ref(ref)} AS INTEGER)` : this.ref(ref)} ${rhs}`);
    this.described.push(description);
  }

  /** "singers above the average age": the column against its average over the whole table. */
  private compareWithAverage(cue: Extract<Cue, { kind: 'compare' }>): void {
    const implied = cue.implied ? this.impliedColumn(cue.implied) : undefined;
    const after = this.linkAfter(cue.end);
    const link = implied ? undefined : after?.chosen.kind === 'column' && after.chosen.column.kind === 'number' && !this.used.has(after) ? after : this.numberColumnBefore(cue.at);
    if (!implied && (!link || link.chosen.kind !== 'column')) this.refuse(`Could not tell which number "${this.tokens[cue.at].text} the average" compares`);
    if (link) this.used.add(link);
    const { table, column } = implied ?? (link!.chosen as { table: SchemaTable; column: SchemaColumn });
    // "amount more than the average amount": the column named before is the same comparison.
    const before = this.numberColumnBefore(cue.at);
    if (before?.chosen.kind === 'column' && before.chosen.column === column) this.used.add(before);
    const average = `(SELECT avg(${columnSql(column)}) FROM ${quoteDouble(table.source)}.${quoteDouble(table.name)})`;
    this.addTable(table);
    this.conditions.push(`${this.ref({ table, column })} ${cue.op} ${average}`);
    this.described.push(`${column.name} ${cue.op} its average`);
  }

  /** Whether every row of `a` has at most one row of `b`. */
  private toOne(a: SchemaTable, b: SchemaTable): boolean {
    return isToOne(this.schema, a, b);
  }

  private path(a: SchemaTable, b: SchemaTable): JoinStep[] | undefined {
    return relationshipPath(this.schema, a, b);
  }

  /** The FROM clause: `main` joined with every other table of the question, with the conditions' column references filled in. */
  private joins(main: SchemaTable): { sql: string; aliases: Map<SchemaTable, string>; joined: boolean } {
    const { sql, aliases, joined } = joinTables(this.schema, main, this.tables, (reason) => this.refuse(reason));
    const resolveRefs = (text: string): string =>
      text.replace(/\u0000(\d+)\u0000/g, (_, i: string) => {
        const ref = this.pendingRefs[Number(i)];
        return columnSql(ref.column, aliases.get(ref.table));
      });
    for (let k = 0; k < this.conditions.length; k++) this.conditions[k] = resolveRefs(this.conditions[k]);
    return { sql, aliases, joined };
  }
}

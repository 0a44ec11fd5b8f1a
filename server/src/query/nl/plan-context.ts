import type { ColumnRef } from './column-roles.js';
import type { Cue, Implied } from './cues.js';
import type { BucketMention } from './date-buckets.js';
import { isToOne, relationshipPath, type JoinStep } from './join-paths.js';
import { fillerWords, type Token } from './question-words.js';
import type { SchemaColumn, SchemaContext, SchemaTable } from './schema-context.js';
import type { Candidate, Link } from './schema-linker.js';
import type { TextMatch } from './text-match.js';
import { notUnderstood } from './translator.js';
import { WhereClause } from './where-clause.js';

/** A link with the one meaning chosen for it. */
export type Resolved = Link & { chosen: Candidate };

/** The cues of one kind. */
export type CueOf<K extends Cue['kind']> = Extract<Cue, { kind: K }>;

/** "membership level is 1": a column link followed by a number it equals, found before links are resolved. */
export interface Equality {
  link: Link;
  value: number;
}

/** "more than 2 papers": how many rows of `table` each counted row (or group) has. */
export interface CountCondition {
  op: string;
  value: number;
  table: SchemaTable;
}

/** A value negated after its column's name: "nationality is not Russia". */
export interface NegatedValue {
  column: Link;
  value: Link;
}

/** What question-reading.ts read besides the links. */
export interface QuestionReading {
  tokens: Token[];
  cues: Cue[];
  /** Date groupings the question asks for ("monthly", "per quarter"), read from words nothing else claimed. */
  buckets: BucketMention[];
  /** Quoted literals a text starts with, ends with or contains. */
  textMatches: TextMatch[];
  /** Whether the question asks for the days between two dates (a derived column, see date-spans.ts). */
  dateSpan: boolean;
  equalities: Equality[];
  /** Column links after "no" / "without" ("customers with no segment"): the rows where the column is NULL. */
  missing: Link[];
  /** "nationality is not Russia": the rows whose column holds another value (the column's link, the value's). */
  negated: NegatedValue[];
}

/** A word that fitted several columns equally well, resolved to the value the asker preferred. */
export interface PickedValue {
  /** The question's words, as written. */
  words: string;
  table: SchemaTable;
  column: SchemaColumn;
  value: string;
}

/**
 * The state one question's planning steps share: what was read, the resolved links, the tables touched
 * (in join order), the links already given a role, and the WHERE clause; with the lookups they all use.
 */
export class PlanContext implements QuestionReading {
  readonly tokens: Token[];
  readonly cues: Cue[];
  readonly buckets: BucketMention[];
  readonly textMatches: TextMatch[];
  readonly dateSpan: boolean;
  readonly equalities: Equality[];
  readonly missing: Link[];
  readonly negated: NegatedValue[];
  /** The links in question order, each with its chosen meaning (see link-resolution.ts). */
  readonly links: Resolved[] = [];
  /** The tables of the question; the first named is the default main table, the others are joined in this order. */
  readonly tables: SchemaTable[] = [];
  /** Links already given a role (filter, group, measure, ...); column links left over are shown. */
  readonly used = new Set<Resolved>();
  readonly where: WhereClause;
  private readonly paths = new Map<string, JoinStep[] | undefined>();
  /** A condition on a count ("more than 2 papers"), read with the comparisons and written as HAVING. */
  having?: CountCondition;
  /** Ties between equally near values settled by `prefer` (link-resolution.ts), for a synonym suggestion. */
  readonly picks: PickedValue[] = [];

  /** `prefer`: `table.column` names (lower case) that win a tie between equally near values. */
  constructor(
    readonly schema: SchemaContext,
    reading: QuestionReading,
    readonly prefer: readonly string[] = [],
  ) {
    this.tokens = reading.tokens;
    this.cues = reading.cues;
    this.buckets = reading.buckets;
    this.textMatches = reading.textMatches;
    this.dateSpan = reading.dateSpan;
    this.equalities = reading.equalities;
    this.missing = reading.missing;
    this.negated = reading.negated;
    this.where = new WhereClause(
      (table) => this.addTable(table),
      (reason) => this.refuse(reason),
    );
  }

  /** Refuses the question (a 422) with `reason`. */
  refuse(reason: string): never {
    throw notUnderstood(reason, this.schema);
  }

  /** Adds `table` to the tables joined (once). */
  addTable(table: SchemaTable): void {
    if (!this.tables.includes(table)) this.tables.push(table);
  }

  /** The question's cues of one kind, in question order. */
  cue<K extends Cue['kind']>(kind: K): CueOf<K>[] {
    return this.cues.filter((c): c is CueOf<K> => c.kind === kind);
  }

  /** The first link starting at or after token `at`, skipping only filler words and date groupings ("total quarterly
   * sales"). */
  linkAfter(at: number): Resolved | undefined {
    for (let k = at; k < this.tokens.length; k++) {
      const link = this.links.find((l) => l.start === k);
      if (link) return link;
      const grouping = this.buckets.some((b) => b.at <= k && k < b.end);
      if (!grouping && !(this.tokens[k].kind === 'word' && fillerWords.has(this.tokens[k].text))) return undefined;
    }
    return undefined;
  }

  /** The nearest column link ending at or before token `at`, of a number column. */
  numberColumnBefore(at: number): Resolved | undefined {
    return [...this.links]
      .reverse()
      .find((l) => l.end <= at && l.chosen.kind === 'column' && l.chosen.column.kind === 'number');
  }

  /** The words of tokens `[at, end)`, for refusals that quote the question. */
  words(at: number, end: number): string {
    return this.tokens
      .slice(at, end)
      .map((t) => t.text)
      .join(' ');
  }

  /** The shortest path of relationships from `a` to `b`, or undefined when none connects them. */
  path(a: SchemaTable, b: SchemaTable): JoinStep[] | undefined {
    // Linking asks the distance of every candidate from every table of the question: each pair is searched once.
    const key = `${a.key}\u0000${b.key}`;
    if (!this.paths.has(key)) this.paths.set(key, relationshipPath(this.schema, a, b));
    return this.paths.get(key);
  }

  /** Whether every row of `a` has at most one row of `b`. */
  toOne(a: SchemaTable, b: SchemaTable): boolean {
    return isToOne(this.schema, a, b);
  }

  /** The column an adjective implies ("oldest", "older": age), in the question's tables or one related to them. */
  impliedColumn(kind: Implied): ColumnRef | undefined {
    const test = impliedTests[kind];
    if (!test) return undefined;
    const tables = [
      ...this.tables,
      ...this.schema.tables.filter((t) => !this.tables.includes(t) && this.path(this.tables[0], t) !== undefined),
    ];
    for (const table of tables) {
      const column = table.columns.find(test);
      if (!column) continue;
      this.addTable(table);
      return { table, column };
    }
    return undefined;
  }
}

const impliedTests: Partial<Record<Implied, (c: SchemaColumn) => boolean>> = {
  age: (c) => /^age$/i.test(c.name),
  height: (c) => c.kind === 'number' && /height/i.test(c.name),
  length: (c) => c.kind === 'number' && /length|duration|height/i.test(c.name),
  weight: (c) => c.kind === 'number' && /weight/i.test(c.name),
  price: (c) => c.kind === 'number' && /price|cost/i.test(c.name),
  date: (c) => c.kind === 'date',
};

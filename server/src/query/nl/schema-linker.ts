import { flagOpposite, isFlagColumn } from './column-roles.js';
import { auxiliaryBeforePronoun, fillerWords, lemmaOf, nameWords, tokenize, type Token } from './question-words.js';
import { countryAdjectives, countryNames } from './country-codes.js';
import { stateNames } from './state-codes.js';
import { synonymsOf } from './word-synonyms.js';
import type { SchemaColumn, SchemaContext, SchemaTable } from './schema-context.js';
import { tableKey } from './schema-context.js';

/** What a span of the question refers to. */
export type Candidate =
  | { kind: 'table'; table: SchemaTable }
  | { kind: 'column'; table: SchemaTable; column: SchemaColumn }
  | { kind: 'value'; table: SchemaTable; column: SchemaColumn; value: string };

/** A span of tokens `[start, end)` and the schema elements it may mean (best first). */
export interface Link {
  start: number;
  end: number;
  candidates: Candidate[];
}

/** Parts of names too general to stand for the name on their own. */
const genericNameWords = new Set([
  'id',
  'num',
  'number',
  'of',
  'the',
  'name',
  'type',
  'code',
  'is',
  'count',
  'total',
  'date',
  'time',
  'and',
  'per',
  'value',
  'info',
]);

/** Abbreviations in schema names and the words they stand for (base forms). */
const abbreviations: Readonly<Record<string, string>> = Object.freeze({
  num: 'number',
  qty: 'quantity',
  amt: 'amount',
  cnt: 'count',
  pct: 'percent',
  dept: 'department',
  addr: 'address',
  desc: 'description',
  yr: 'year',
  mgr: 'manager',
  emp: 'employee',
  reg: 'registration',
  ins: 'insurance',
  appr: 'approval',
  dt: 'date',
  tel: 'telephone',
});

/** Longest phrase (in words) a table, column, value or synonym is matched with. */
const maxPhrase = 4;

interface Entry {
  phrase: string;
  candidate: Candidate;
  /** Higher wins among entries of the same phrase length: synonyms, then names, then values. */
  rank: number;
}

/** Phrases of schema names, sample values and synonyms, indexed by their words (base forms for names). */
export class SchemaIndex {
  private readonly entries = new Map<string, Entry[]>();
  /** Single significant words of longer names ("staff" in Num_of_Staff), tried only when nothing else matches. */
  private readonly partial = new Map<string, Candidate[]>();

  constructor(readonly schema: SchemaContext) {
    for (const table of schema.tables) {
      this.addName(nameWords(table.name), { kind: 'table', table });
      for (const column of table.columns) {
        const parts = nameWords(column.name);
        this.addName(parts, { kind: 'column', table, column });
        // "has_final_exam", "is_placebo": a flag is also named by what it flags ("a final exam", "placebo").
        if (isFlagColumn(column) && ['has', 'is'].includes(parts[0]) && parts.length > 1)
          this.addName(parts.slice(1), { kind: 'column', table, column });
        // "closed" for `is_open`: the opposite word names the flag too; the filter reads it as not holding.
        const opposite = flagOpposite(column);
        if (opposite) this.addName([opposite], { kind: 'column', table, column });
        for (const value of column.values) {
          const words = tokenize(value).map((t) => t.text);
          if (words.length > 0 && words.length <= maxPhrase)
            this.add(words.join(' '), { kind: 'value', table, column, value }, 1);
        }
        // "California" where the column holds "CA", "Denmark" where it holds "DK", "French" where it holds "France".
        for (const [name, code] of [...stateNames(column), ...countryNames(column), ...countryAdjectives(column)])
          this.add(
            tokenize(name)
              .map((t) => t.text)
              .join(' '),
            { kind: 'value', table, column, value: code },
            1,
          );
      }
    }
    for (const synonym of schema.synonyms) {
      const table = schema.tables.find((t) => t.key === tableKey(synonym.source, synonym.table));
      const column =
        synonym.column === undefined
          ? undefined
          : table?.columns.find((c) => c.name.toLowerCase() === synonym.column!.toLowerCase());
      if (!table || (synonym.column !== undefined && !column)) continue;
      const candidate: Candidate =
        column && synonym.value !== undefined
          ? { kind: 'value', table, column, value: synonym.value }
          : column
            ? { kind: 'column', table, column }
            : { kind: 'table', table };
      for (const words of synonym.words) this.add(words.split(/\s+/).map(lemmaOf).join(' '), candidate, 3);
    }
  }

  /** A table or column name: its words, the words written together ("pay_load" is also "payload"), around "of" the
   * other way, and its parts. */
  private addName(words: string[], candidate: Candidate): void {
    // `Num_of_Staff` is also "number of staff", `ins_type` "insurance type": a name's abbreviations written out.
    const expanded = words.map((w) => abbreviations[w] ?? w);
    if (expanded.some((w, k) => w !== words[k])) this.addName(expanded, candidate);
    this.add(words.join(' '), candidate, 2);
    if (words.length > 1) this.add(lemmaOf(words.join('')), candidate, 2);
    // `Level_of_membership` is also "membership level".
    const of = words.indexOf('of');
    if (of > 0 && of < words.length - 1)
      this.add([...words.slice(of + 1), ...words.slice(0, of)].join(' '), candidate, 2);
    this.addPartial(words, candidate);
  }

  private addPartial(words: string[], candidate: Candidate): void {
    if (words.length < 2) return;
    for (const word of words) {
      if (genericNameWords.has(word) || word.length < 3) continue;
      this.partial.set(word, [...(this.partial.get(word) ?? []), candidate]);
    }
  }

  private add(phrase: string, candidate: Candidate, rank: number): void {
    if (phrase === '') return;
    const list = this.entries.get(phrase) ?? [];
    list.push({ phrase, candidate, rank });
    this.entries.set(phrase, list);
  }

  /**
   * Candidates for a phrase, best rank first; values are matched on written words, names on base forms. A value a
   * synonym declares for the words is their meaning: the same words sampled in other columns are left out, so a
   * synonym settles a value found in two tables.
   */
  private lookup(lemmas: string, texts: string): Candidate[] {
    const byLemma = (this.entries.get(lemmas) ?? []).filter((e) => e.candidate.kind !== 'value' || e.rank === 3);
    const declared = byLemma.some((e) => e.candidate.kind === 'value');
    const byText = (this.entries.get(texts) ?? []).filter(
      (e) => e.candidate.kind === 'value' && e.rank === 1 && !declared,
    );
    return [...byLemma, ...byText].sort((a, b) => b.rank - a.rank).map((e) => e.candidate);
  }

  /** "name" or "id" where columns are called authorname, paperid: any column ending so. */
  private suffixed(token: Token): Candidate[] {
    if (token.lemma !== 'name' && token.lemma !== 'id') return [];
    return this.schema.tables.flatMap((table) =>
      table.columns
        .filter((c) => c.name.toLowerCase().endsWith(token.lemma) && c.name.length > token.lemma.length)
        .map((column) => ({ kind: 'column' as const, table, column })),
    );
  }

  /** A lone word's weaker matches: its verb stem ("opened" -> open), then a part of a longer name, then a synonym. */
  private single(token: Token): Candidate[] {
    if (fillerWords.has(token.text)) return [];
    const suffixed = this.suffixed(token);
    if (suffixed.length > 0) return suffixed;
    // "opened" -> open, "rated" -> rating, "enrollment" -> enrolled, "successful" -> success,
    // "admitted" and "admission" -> admit, "graduate" -> graduation.
    const stem = token.text.replace(/(ed|ing|ment|ful)$/, '');
    const root = stem !== token.text ? stem.replace(/([b-df-hj-np-tv-z])\1$/, '$1') : token.text.replace(/ssion$/, 't');
    const noun = /ate$/.test(token.text) ? `${token.text.slice(0, -1)}ion` : root;
    const forms = [
      ...new Set([token.lemma, stem, stem.length > 3 ? `${stem}e` : stem, `${stem}ing`, `${stem}ed`, root, noun]),
    ];
    for (const form of forms.slice(1)) {
      const found = this.lookup(form, form);
      if (found.length > 0) return found;
    }
    for (const form of forms) {
      const found = this.partial.get(form);
      if (found) return found;
    }
    // "stores" where the table is `shop`, "wage" where the column is `salary`: the names a synonym spells whole, else
    // those it is a part of; every synonym's, so that link resolution picks the one nearest the question's tables.
    const synonyms = synonymsOf(token.lemma);
    const named = synonyms.flatMap((synonym) => this.lookup(synonym, '').filter((c) => c.kind !== 'value'));
    return named.length > 0 ? named : synonyms.flatMap((synonym) => this.partial.get(synonym) ?? []);
  }

  /** Spans of two or more words that spell a column's whole name (`minimum_connect_time`), grammar words included. */
  wholeNames(tokens: readonly Token[]): { start: number; end: number }[] {
    const spans: { start: number; end: number }[] = [];
    for (let i = 0; i < tokens.length; i++) {
      for (let n = Math.min(maxPhrase, tokens.length - i); n >= 2; n--) {
        const span = tokens.slice(i, i + n);
        if (span.some((t) => t.kind !== 'word') || span.every((t) => fillerWords.has(t.text))) continue;
        const found = (this.entries.get(span.map((t) => t.lemma).join(' ')) ?? []).some(
          (e) => e.candidate.kind === 'column' && e.rank === 2,
        );
        if (found) {
          spans.push({ start: i, end: i + n });
          i += n - 1;
          break;
        }
      }
    }
    return spans;
  }

  /** The table named by the longest phrase starting at token `at` (no token of it in `taken`), and where the phrase
   * ends. */
  private tableNamedAt(
    tokens: readonly Token[],
    at: number,
    taken: ReadonlySet<number>,
  ): { table: SchemaTable; end: number } | undefined {
    for (let n = Math.min(maxPhrase, tokens.length - at); n >= 1; n--) {
      const span = tokens.slice(at, at + n);
      if (span.some((t, k) => taken.has(at + k) || t.kind !== 'word')) continue;
      const table = this.lookup(span.map((t) => t.lemma).join(' '), '').find((c) => c.kind === 'table');
      if (table) return { table: table.table, end: at + n };
    }
    return undefined;
  }

  /**
   * Links the question's word tokens, longest phrase first, skipping tokens in `taken` (already
   * read as grammar such as "how many" or "order by").
   */
  link(tokens: readonly Token[], taken: ReadonlySet<number>): Link[] {
    const links: Link[] = [];
    let i = 0;
    while (i < tokens.length) {
      let found: Link | undefined;
      for (let n = Math.min(maxPhrase, tokens.length - i); n >= 1 && !found; n--) {
        const span = tokens.slice(i, i + n);
        if (span.some((t, k) => taken.has(i + k) || t.kind !== 'word')) continue;
        if (n === 1 && auxiliaryBeforePronoun(tokens, i)) continue;
        let candidates = this.lookup(span.map((t) => t.lemma).join(' '), span.map((t) => t.text).join(' '));
        // "check-ins", "check ins": the words written together may name a table ("checkin").
        if (candidates.length === 0 && n > 1)
          candidates = this.lookup(lemmaOf(span.map((t) => t.text).join('')), '').filter((c) => c.kind !== 'value');
        // A value spelled like a filler word ("a" for grade 'A') is not a mention of it.
        if (span.every((t) => fillerWords.has(t.text))) candidates = candidates.filter((c) => c.kind !== 'value');
        // "type of food", "cost of round trip": a column named the other way round (food_type, round_trip_cost).
        const of = span.findIndex((t, k) => k > 0 && k < n - 1 && t.text === 'of');
        if (candidates.length === 0 && of > 0) {
          candidates = this.lookup(
            [...span.slice(of + 1), ...span.slice(0, of)].map((t) => t.lemma).join(' '),
            '',
          ).filter((c) => c.kind === 'column');
          // "amount of payments received": the words after "of" go on to name the table whose column it is.
          const owner = candidates.length > 1 ? this.tableNamedAt(tokens, i + of + 1, taken) : undefined;
          const owned = candidates.filter((c) => c.table === owner?.table);
          if (owner && owned.length > 0) {
            found = { start: i, end: owner.end, candidates: owned };
            continue;
          }
        }
        if (candidates.length === 0 && n === 1) candidates = this.single(span[0]);
        // "city" names demo.business.city exactly, but in a question about restaurants it is restaurant.city_name:
        // parts of longer names stay candidates after the exact ones.
        // So do columns ending in "name" or "id" after a column called just that ("its name": journal.journalname).
        else if (n === 1 && candidates.every((c) => c.kind !== 'value'))
          candidates = [
            ...candidates,
            ...[...(this.partial.get(span[0].lemma) ?? []), ...this.suffixed(span[0])].filter(
              (c) => !candidates.includes(c),
            ),
          ];
        if (candidates.length > 0) found = { start: i, end: i + n, candidates };
      }
      if (found) {
        links.push(found);
        i = found.end;
      } else i++;
    }
    return links;
  }
}

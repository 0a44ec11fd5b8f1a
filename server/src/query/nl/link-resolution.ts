import type { PlanContext } from './plan-context.js';
import { nameWords, type Token } from './question-words.js';
import { AmbiguousQuestion } from '../../core/domain-errors.js';
import type { SchemaTable } from './schema-context.js';
import type { Candidate, Link } from './schema-linker.js';

/**
 * Picks one meaning per link into `plan.links`, preferring tables the question names and tables
 * related to them; the tables of the chosen meanings become the plan's tables.
 */
export function resolveLinks(plan: PlanContext, input: readonly Link[]): void {
  const links = mergeTableColumns(plan, input);
  refuseSelfJoin(plan, links);
  for (const link of links) {
    const table = link.candidates.find((c) => c.kind === 'table');
    if (table && link.candidates[0].kind !== 'value') plan.addTable(table.table);
  }
  const named = [...plan.tables];
  for (const [k, original] of links.entries()) {
    const link = { ...original, candidates: byRole(plan.tokens, original) };
    const chosen = choose(plan, named, link, links[k - 1], links[k + 1]);
    plan.addTable(chosen.table);
    plan.links.push({ ...link, chosen });
  }
}

/**
 * "order amount", "product category": a table name followed by one of its columns is that column...
 * except right after "how many" or "the most": "how many customers signed up" counts customers.
 */
function mergeTableColumns(plan: PlanContext, input: readonly Link[]): Link[] {
  const links: Link[] = [];
  const counted = new Set([
    ...plan
      .cue('aggregate')
      .filter((a) => a.fn === 'count')
      .map((a) => a.end),
    ...plan
      .cue('superlative')
      .filter((s) => ['most', 'least', 'fewest'].includes(plan.tokens[s.at].text))
      .map((s) => s.end),
  ]);
  for (const link of input) {
    const previous = links[links.length - 1];
    const tables =
      previous?.end === link.start && !counted.has(previous.start)
        ? previous.candidates.filter((c) => c.kind === 'table').map((c) => c.table)
        : [];
    const column = link.candidates.find((c) => c.kind === 'column' && tables.includes(c.table));
    if (column) links[links.length - 1] = { start: previous.start, end: link.end, candidates: [column] };
    else links.push(link);
  }
  return links;
}

/** "states that border the state where ...": one table in two roles needs a self-join, which is not supported. */
function refuseSelfJoin(plan: PlanContext, links: readonly Link[]): void {
  const named = links.filter((l) => l.candidates[0].kind === 'table');
  for (const [k, first] of named.entries()) {
    const again = named.slice(k + 1).find((l) => l.candidates[0].table === first.candidates[0].table);
    const clause =
      again &&
      plan.tokens
        .slice(first.end)
        .some(
          (t, k) =>
            ['where', 'that', 'which', 'whose', 'who'].includes(t.text) && !backReference(plan, links, first.end + k),
        );
    if (again && clause)
      plan.refuse(
        `"${first.candidates[0].table.name}" is named twice in two roles; one query over one copy of the table ` +
          `cannot tell them apart`,
      );
  }
}

/**
 * "... in 2021, and how many did they have that year": "that" before a word the question used already, and that names
 * no table, points back to the value named before; it opens no clause. "That state" may be another row of the table
 * than the one named first, so it stays a clause.
 */
function backReference(plan: PlanContext, links: readonly Link[], at: number): boolean {
  const next = plan.tokens[at + 1];
  const table = links.find((l) => l.start === at + 1)?.candidates.some((c) => c.kind === 'table');
  return (
    plan.tokens[at].text === 'that' &&
    next?.kind === 'word' &&
    !table &&
    plan.tokens.slice(0, at).some((t) => t.lemma === next.lemma)
  );
}

/** The meaning of `link` given its neighbours and the links resolved before it. */
function choose(
  plan: PlanContext,
  named: readonly SchemaTable[],
  link: Link,
  previous: Link | undefined,
  next: Link | undefined,
): Candidate {
  // "the name of the shop": a column followed by "of <table>" belongs to that table; so does a value
  // right before a table's name ("the Computer Science program").
  const between = next ? plan.tokens.slice(link.end, next.start).map((t) => t.text) : [];
  const ofTable =
    between.length > 0
      ? between.every((w) => w === 'of' || w === 'the' || w === 'a' || w === 'each' || w === 'every')
      : link.candidates[0].kind === 'value';
  const owner = next && ofTable ? next.candidates.find((c) => c.kind === 'table') : undefined;
  // "the state of New York": a value right after the name of a column it is a value of belongs to that column.
  const gap = previous ? plan.tokens.slice(previous.end, link.start).map((t) => t.text) : [];
  // The column the previous link was resolved to comes first ("warehouses in country SE": warehouses.country).
  const resolvedBefore = plan.links[plan.links.length - 1];
  const namedColumns = gap.every((w) => w === 'of' || w === 'is')
    ? [
        ...(resolvedBefore?.start === previous?.start && resolvedBefore?.chosen.kind === 'column'
          ? [resolvedBefore.chosen.column]
          : []),
        ...(previous?.candidates ?? []).filter((c) => c.kind === 'column').map((c) => c.column),
      ]
    : undefined;
  // "states with an area greater than 1000", "journals whose name ...": a column right after a table it has is that
  // table's.
  const having =
    gap.length > 0 && ['with', 'whose'].includes(gap[0]) && gap.slice(1).every((w) => ['a', 'an', 'the'].includes(w));
  const holder = having ? previous?.candidates.find((c) => c.kind === 'table') : undefined;
  const table = link.candidates.find((c) => c.kind === 'table');
  if (table && link.candidates[0].kind !== 'value') return table;
  const namedValue = namedColumns
    ?.map((column) => link.candidates.find((c) => c.kind === 'value' && c.column === column))
    .find((c) => c !== undefined);
  // "students in the program mathematics": a value right after the name of a table it is a value of.
  const tableBefore = gap.every((w) => w === 'the') ? previous?.candidates.find((c) => c.kind === 'table') : undefined;
  return (
    namedValue ??
    link.candidates.find((c) => c.kind === 'value' && c.table === tableBefore?.table) ??
    qualifiedColumn(plan, link) ??
    // "the easiness scores ... show courses and scores": a word naming a column named before is that column again.
    link.candidates.find(
      (c) => c.kind === 'column' && plan.links.some((l) => l.chosen.kind === 'column' && l.chosen.column === c.column),
    ) ??
    link.candidates.find((c) => owner !== undefined && c.table === owner.table) ??
    link.candidates.find((c) => c.kind === 'column' && holder !== undefined && c.table === holder.table) ??
    nearest(plan, named, link, roleFits(plan.tokens, link).length > 0 ? roleFits(plan.tokens, link) : link.candidates)
  );
}

/** Words that end the list of columns an "of <word>" (or "for <word>") after it may qualify. */
const clauseWords = new Set(['who', 'which', 'that', 'whose', 'where', 'by', 'with', 'in', 'for', 'from', 'to']);

/**
 * "the name and the release year of the song" ("for all the songs"): a column word in a list followed by "of <word>"
 * (or "for <word>"), where a column of the candidates is named by that word and the column word (Song_Name), is that
 * column rather than the bare one (Name).
 */
function qualifiedColumn(plan: PlanContext, link: Link): Candidate | undefined {
  const { tokens } = plan;
  const of = tokens.findIndex((t, k) => k >= link.end && k <= link.end + 6 && (t.text === 'of' || t.text === 'for'));
  if (of < 0 || tokens.slice(link.end, of).some((t) => clauseWords.has(t.text))) return undefined;
  let at = of + 1;
  while (['the', 'a', 'an', 'each', 'every', 'all'].includes(tokens[at]?.text)) at++;
  const words = [tokens[at]?.lemma, ...tokens.slice(link.start, link.end).map((t) => t.lemma)].join(' ');
  return link.candidates.find((c) => c.kind === 'column' && nameWords(c.column.name).join(' ') === words);
}

/**
 * How far `table` is from what the question names: 0 for a table its words name, 1 for one a word was resolved to
 * before, else one more than the joins from the nearest of those (Infinity: none reaches it).
 */
function distance(plan: PlanContext, named: readonly SchemaTable[], table: SchemaTable): number {
  if (named.includes(table)) return 0;
  if (plan.tables.includes(table)) return 1;
  return 1 + Math.min(Infinity, ...plan.tables.map((t) => plan.path(t, table)?.length ?? Infinity));
}

/**
 * The candidate of a table the question names (or has resolved a word to), else of the table nearest them on the
 * join path; ties keep the linker's order (synonyms, names, values). Two values in columns of different tables
 * equally near are ambiguous: the question is answered with both as candidates rather than with a guess ("Did you
 * mean warehouses.city or shipments.dest_city?"), unless the asker preferred one of them (`plan.prefer`).
 */
function nearest(
  plan: PlanContext,
  named: readonly SchemaTable[],
  link: Link,
  candidates: readonly Candidate[],
): Candidate {
  if (candidates.length === 1) return candidates[0];
  const ranked = candidates
    .map((candidate, order) => ({ candidate, order, away: distance(plan, named, candidate.table) }))
    .sort((a, b) => a.away - b.away || a.order - b.order);
  const best = ranked.filter((r) => r.away === ranked[0].away);
  const values = best.flatMap((r) => (r.candidate.kind === 'value' ? [r.candidate] : []));
  if (values.length === best.length && new Set(values.map((v) => v.table)).size > 1) {
    const picked = values.find((v) => plan.prefer.includes(`${v.table.name}.${v.column.name}`.toLowerCase()));
    if (picked) {
      plan.picks.push({ ...picked, words: plan.words(link.start, link.end) });
      return picked;
    }
    const names = [...new Set(values.map((v) => `${v.table.name}.${v.column.name}`))];
    throw new AmbiguousQuestion(
      `"${values[0].value}" is a value of ${names.join(' and of ')}, equally near the tables the question names. ` +
        `Did you mean ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}?`,
      names,
    );
  }
  return ranked[0].candidate;
}

/**
 * "flights from LAX to ORD": a value after "from" (or "to") is first a value of a column named for that
 * role (from_airport, origin; to_airport, destination), so the two values are two filters.
 */
function byRole(tokens: readonly Token[], link: Link): Candidate[] {
  const fits = roleFits(tokens, link);
  return [...fits, ...link.candidates.filter((c) => !fits.includes(c))];
}

/** The value candidates of a column named for the role "from" / "to" gives the value ({@link byRole}); none without. */
function roleFits(tokens: readonly Token[], link: Link): Candidate[] {
  const role = tokens
    .slice(Math.max(0, link.start - 4), link.start)
    .reverse()
    .find((t) => t.text === 'from' || t.text === 'to')?.text;
  if (!role || link.candidates[0].kind !== 'value') return [];
  const pattern = role === 'from' ? /(^|_)from(_|$)|origin|depart|source/i : /(^|_)to(_|$)|dest|arriv|target/i;
  return link.candidates.filter((c) => c.kind === 'value' && pattern.test(c.column.name));
}

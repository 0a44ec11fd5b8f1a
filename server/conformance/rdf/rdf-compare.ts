import { createHash } from 'node:crypto';
import { numericDatatypes, type Term } from '../../src/query/sparql/rdf.js';

/** A solution or triple as names -> terms; blank nodes are matched up to renaming. */
export type Row = Record<string, Term>;

const hash = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 16);

/** Text of a term for comparison: numbers by value within their datatype family, the rest exactly. */
export function termKey(term: Term, bnodes: Map<string, string>): string {
  if (term.type === 'bnode') return `_:${bnodes.get(term.value) ?? 'b'}`;
  if (term.type === 'iri') return `<${term.value}>`;
  if (term.datatype && numericDatatypes.includes(term.datatype) && Number.isFinite(Number(term.value)))
    return `num:${Number(term.value)}`;
  return `${JSON.stringify(term.value)}@${term.language?.toLowerCase() ?? ''}^^${term.datatype ?? ''}`;
}

/**
 * Colours blank nodes by their surroundings (a few rounds of refinement), so two row sets that are
 * equal up to blank node renaming get the same keys. Exact for the small graphs of the suites.
 */
function colourBlankNodes(rows: Row[]): Map<string, string> {
  let colours = new Map<string, string>();
  for (const row of rows) for (const t of Object.values(row)) if (t.type === 'bnode') colours.set(t.value, 'b');
  for (let round = 0; round < 4; round++) {
    const signatures = new Map<string, string[]>();
    for (const row of rows) {
      const rowText = Object.keys(row)
        .sort()
        .map((k) => `${k}=${termKey(row[k], colours)}`)
        .join(' ');
      for (const [k, t] of Object.entries(row))
        if (t.type === 'bnode') signatures.set(t.value, [...(signatures.get(t.value) ?? []), `${k}|${rowText}`]);
    }
    const next = new Map<string, string>();
    for (const [label, sig] of signatures) next.set(label, hash(sig.sort().join('\n')));
    colours = next;
  }
  return colours;
}

/** Keys of the rows, blank nodes replaced by their colours. */
export function rowKeys(rows: Row[]): string[] {
  const colours = colourBlankNodes(rows);
  return rows.map((row) =>
    Object.keys(row)
      .sort()
      .map((k) => `${k}=${termKey(row[k], colours)}`)
      .join(' '),
  );
}

/** Whether two row lists are equal as multisets (or as sequences when `ordered`), up to blank node renaming. */
export function sameRows(actual: Row[], expected: Row[], ordered: boolean): boolean {
  const a = rowKeys(actual);
  const e = rowKeys(expected);
  if (a.length !== e.length) return false;
  if (ordered) {
    // Rows with blank nodes carry colours that do not depend on position, so a sequence compare is fair.
    return a.every((key, i) => key === e[i]);
  }
  const sortedA = [...a].sort();
  const sortedE = [...e].sort();
  return sortedA.every((key, i) => key === sortedE[i]);
}

/**
 * Common English synonyms of the nouns schemas are named with: "store" for a `shop` table, "wage" for a `salary`
 * column. The schema linker tries them only for a word that names nothing itself (schema-linker.ts), so a schema's own
 * names always win; a synonym that names nothing either leaves the word unlinked and the question refused.
 * Each group lists words that mean the same thing in a question about data, whichever of them a schema uses; words
 * that are as often verbs ("pay", "order" as "order by") are left out, so they never stand for a name.
 */
const groups: readonly (readonly string[])[] = [
  ['shop', 'store', 'outlet'],
  ['customer', 'client', 'user'],
  ['employee', 'staff', 'worker'],
  ['person', 'people', 'individual'],
  ['country', 'nation', 'nationality'],
  ['salary', 'wage'],
  ['price', 'cost'],
  ['city', 'town'],
  ['film', 'movie'],
  ['car', 'vehicle', 'automobile'],
  ['aircraft', 'airplane', 'plane'],
  ['doctor', 'physician'],
  ['teacher', 'instructor', 'lecturer'],
  ['student', 'pupil'],
  ['song', 'track'],
  ['job', 'occupation', 'profession'],
  ['phone', 'telephone'],
  ['address', 'residence'],
  // "fewer than a hundred thousand people": how many people live somewhere, beside "people" as persons above.
  ['population', 'people', 'inhabitant', 'resident'],
];

const byWord = new Map<string, string[]>();
// A word in two groups ("people") has the words of both, all kept as candidates.
for (const group of groups)
  for (const word of group) byWord.set(word, [...(byWord.get(word) ?? []), ...group.filter((other) => other !== word)]);

/** The other words of `lemma`'s synonym group (singular base forms), or none. */
export const synonymsOf = (lemma: string): readonly string[] => byWord.get(lemma) ?? [];

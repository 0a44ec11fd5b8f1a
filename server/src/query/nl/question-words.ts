import { wordTable } from '../../core/json.js';
/** Words of a question: tokens, their base forms, and the words that carry no meaning of their own. */

export interface Token {
  /** The word as written, lower-cased. */
  text: string;
  /** Its base form (singular), for matching table and column names. */
  lemma: string;
  kind: 'word' | 'number' | 'date';
}

/** English plural to singular, good enough for table and column names. */
export function lemmaOf(word: string): string {
  if (word === 'ids') return 'id';
  if (word.length <= 3) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('ses') && word.length > 5) return word.slice(0, -1);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is'))
    return word.slice(0, -1);
  return word;
}

/** Small numbers written as words ("more than one") read as numbers. */
const numberWords = wordTable<string>({
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
});

/**
 * Comparison symbols ("rating > 4.5") are words of the grammar; "!=" and "<>" read as "not", which negates a value
 * right after its column ("food type != 'Thai'") and is refused elsewhere.
 */
const symbolWords = wordTable<string>({
  '>=': '>=',
  '<=': '<=',
  '>': '>',
  '<': '<',
  '=': '=',
  '==': '=',
  '!=': 'not',
  '<>': 'not',
});

const tokenPattern = /\d{4}-\d{2}-\d{2}|\d+(?:\.\d+)?|[\p{L}][\p{L}\p{N}]*(?:'[a-z]+)?|<>|[<>!=]=|[<>=]/gu;

/** Whether the tokens from `at` on read `words` (their texts, in order). */
export function wordsAt(tokens: readonly Token[], at: number, words: readonly string[]): boolean {
  return words.every((w, k) => tokens[at + k]?.text === w);
}

/** Words that multiply the number before them ("2 million", "a hundred thousand"). */
const multiplierWords = wordTable<number>({
  hundred: 100,
  thousand: 1_000,
  million: 1_000_000,
  billion: 1_000_000_000,
});

/**
 * "a hundred thousand" -> 100000, "2.5 million" -> 2500000: a multiplier after a number (or after "a", which it
 * replaces) scales it; the token is rewritten in place. A multiplier after anything else stays a word, so "thousands
 * of rows" links or is refused as written.
 */
function multiplied(tokens: Token[], factor: number): boolean {
  const previous = tokens[tokens.length - 1];
  if (previous?.kind === 'number') previous.text = previous.lemma = String(Number(previous.text) * factor);
  else if (previous?.text === 'a')
    tokens[tokens.length - 1] = { text: String(factor), lemma: String(factor), kind: 'number' };
  else return false;
  return true;
}

/**
 * Splits a question into words, numbers and ISO dates; possessive `'s` is dropped, number words and multipliers
 * ("a hundred thousand") become numbers.
 */
export function tokenize(question: string): Token[] {
  const tokens: Token[] = [];
  for (const match of question.toLowerCase().matchAll(tokenPattern)) {
    const word = match[0].replace(/'s$/, '');
    const factor = multiplierWords[word];
    if (factor !== undefined && multiplied(tokens, factor)) continue;
    const raw = symbolWords[word] ?? numberWords[word] ?? word;
    const kind = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? 'date' : /^\d/.test(raw) ? 'number' : 'word';
    tokens.push({
      text: raw,
      lemma: kind === 'word' ? lemmaOf(raw.replace(/'/g, '')) : raw,
      kind,
    });
  }
  return tokens;
}

/** Splits a schema name (`signup_date`, `CustomerID`) into lower-case base-form words. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(lemmaOf);
}

/** Verbs that ask, and the pronouns after them: "how many did he/she have", "what does it cost". */
const auxiliaries = new Set(['do', 'does', 'did', 'is', 'are', 'was', 'were', 'has', 'have', 'had']);
const pronouns = new Set(['i', 'you', 'he', 'she', 'it', 'we', 'they']);

/**
 * Whether the token at `at` is a verb that asks, right before a pronoun ("did they"): a filler word there even where a
 * schema has a column spelled the same (`did`, a domain's id).
 */
export const auxiliaryBeforePronoun = (tokens: readonly Token[], at: number): boolean =>
  auxiliaries.has(tokens[at].text) && pronouns.has(tokens[at + 1]?.text ?? '');

/**
 * Words that only shape a question. Negations and set words (not, without, except, both, only) are
 * deliberately absent: the embedded translator cannot express them, so they stay unlinked and the
 * question is refused instead of answered wrongly.
 */
export const fillerWords = new Set(
  (
    'what which who whom whose how is are was were be been being the a an of in on at for to from with do does ' +
    'did have has had ' +
    ('we i you me my our us there their it its that this these those show list give find return display get tell ' +
      'please can could would should ') +
    ('will let see know want need about as any some here all every whole overall currently ever exist available ' +
      'recorded stored listed ') +
    ('registered existing and by per each across record row entry total number count sum average avg mean ' +
      'maximum max minimum min ') +
    ('highest lowest largest smallest biggest greatest most least fewest many much top first order ordered sort ' +
      'sorted rank ranked ') +
    ('descending ascending desc asc alphabetical alphabetically than over above under below more less greater ' +
      'fewer higher lower larger ') +
    ('smaller bigger exceeding exceed between after before since last past previous this year day week month so ' +
      "far what's ") +
    ('different distinct unique value along together corresponding respective respectively also whose where when ' +
      'made happen ') +
    ('come live located based belong placed named called information info detail details occurred occur happened ' +
      'held took ') +
    ('taken posted play played sort published written wrote received associated presented offered offer offers ' +
      'serve serves ') +
    ('serving served taught working work works include includes including contain contains within they them ' +
      'database results he she him her his hers ') +
    ('whether among given got well as there shared share provide terms respectively found amount split grouped ' +
      'represent represented go goes went gone going sent send sends')
  ).split(/\s+/),
);

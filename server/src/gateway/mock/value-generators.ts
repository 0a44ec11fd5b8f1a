import RandExp from 'randexp';

/** A source of numbers in [0, 1): `Math.random`, or {@link seededRandom} when a seed must repeat the value. */
export type Random = () => number;
/** One value of a compiled schema, drawn with `random`. */
export type Generate = (random: Random) => unknown;

/** Longest string and largest array or object a generator makes (schemas asking for more are refused earlier). */
export const valueBounds = { maxLength: 256, defaultItems: 3, maxItems: 20 };

/** A seeded PRNG (mulberry32): the same seed gives the same sequence, a few instructions a number. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
  };
}

/** An integer in [min, max]. */
export const integerIn = (random: Random, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1));

/** One element of `list`. */
export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const hex = '0123456789abcdef';
const words = ['alpha', 'bravo', 'delta', 'echo', 'lima', 'nova', 'orbit', 'pixel', 'quartz', 'sierra'];

/** `length` characters of `chars`, built by indexing (no spread of the alphabet per character). */
function charsOf(random: Random, chars: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += chars[Math.floor(random() * chars.length)];
  return out;
}

const pad = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const date = (r: Random): string => {
  const month = integerIn(r, 1, 12);
  return `${integerIn(r, 2000, 2030)}-${pad(month)}-${pad(integerIn(r, 1, 28))}`;
};
const time = (r: Random): string =>
  `${pad(integerIn(r, 0, 23))}:${pad(integerIn(r, 0, 59))}:${pad(integerIn(r, 0, 59))}Z`;
const hostname = (r: Random): string => `${pick(r, words)}.${pick(r, ['com', 'org', 'net', 'io'])}`;

/** Generators of the string formats covered; another format gets a plain string (Ajv ignores formats it lacks). */
const stringFormats: Record<string, Generate> = {
  'date-time': (r) => `${date(r)}T${time(r)}`,
  date,
  time,
  email: (r) => `${pick(r, words)}${integerIn(r, 1, 999)}@example.com`,
  uuid: (r) =>
    `${charsOf(r, hex, 8)}-${charsOf(r, hex, 4)}-4${charsOf(r, hex, 3)}-${pick(r, ['8', '9', 'a', 'b'])}` +
    `${charsOf(r, hex, 3)}-${charsOf(r, hex, 12)}`,
  uri: (r) => `https://${hostname(r)}/${pick(r, words)}/${integerIn(r, 1, 9999)}`,
  hostname,
  ipv4: (r) => `${integerIn(r, 1, 254)}.${integerIn(r, 0, 255)}.${integerIn(r, 0, 255)}.${integerIn(r, 1, 254)}`,
  ipv6: (r) => Array.from({ length: 8 }, () => integerIn(r, 0, 0xffff).toString(16)).join(':'),
  byte: (r) => Buffer.from(charsOf(r, alphabet, integerIn(r, 3, 24))).toString('base64'),
  binary: (r) => charsOf(r, alphabet, integerIn(r, 1, 16)),
};
stringFormats['uri-reference'] = stringFormats.uri;
stringFormats.url = stringFormats.uri;
stringFormats['idn-email'] = stringFormats.email;
stringFormats['idn-hostname'] = stringFormats.hostname;

/**
 * A string generator for `format`, `pattern` (randexp, driven by the given PRNG), `minLength` and `maxLength`;
 * `plausible`, when given, makes the value of a free string (a property named like an e-mail or a name).
 */
export function stringGenerator(schema: Record<string, unknown>, plausible?: (random: Random) => string): Generate {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = Math.min(
    typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(min + 10, 10),
    valueBounds.maxLength,
  );
  const fits = (value: string) => value.length >= min && value.length <= max;
  if (typeof schema.pattern === 'string') {
    const pattern = new RandExp(schema.pattern);
    // An open repetition (`+`, `*`) repeats up to the length bound, or 8 times when the schema gives none.
    pattern.max = typeof schema.maxLength === 'number' ? max : 8;
    return (random) => {
      pattern.randInt = (from, to) => integerIn(random, from, to);
      let value = pattern.gen();
      for (let attempt = 0; attempt < 20 && !fits(value); attempt++) value = pattern.gen();
      return value;
    };
  }
  const format = typeof schema.format === 'string' ? stringFormats[schema.format] : undefined;
  if (format) return format;
  if (plausible) {
    // Only the schema's own bounds limit a plausible value, not the 10 characters a free string defaults to.
    const declaredMax = typeof schema.maxLength === 'number' ? max : valueBounds.maxLength;
    return (random) => {
      const value = plausible(random);
      return value.length >= min && value.length <= declaredMax
        ? value
        : charsOf(random, alphabet, integerIn(random, min, max));
    };
  }
  return (random) => charsOf(random, alphabet, integerIn(random, min, max));
}

const int32 = 0x7fffffff;

/** Lower and upper bounds of a number schema, 3.0's boolean `exclusiveMinimum` and 3.1's numeric one alike. */
function numberBounds(schema: Record<string, unknown>, integer: boolean) {
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  let low = num('minimum');
  let high = num('maximum');
  const step = integer ? 1 : 0.01;
  const exclusiveLow = num('exclusiveMinimum') ?? (schema.exclusiveMinimum === true ? low : undefined);
  const exclusiveHigh = num('exclusiveMaximum') ?? (schema.exclusiveMaximum === true ? high : undefined);
  if (exclusiveLow !== undefined) low = Math.max(low ?? -Infinity, exclusiveLow + step);
  if (exclusiveHigh !== undefined) high = Math.min(high ?? Infinity, exclusiveHigh - step);
  if (schema.format === 'int32')
    [low, high] = [Math.max(low ?? -int32 - 1, -int32 - 1), Math.min(high ?? int32, int32)];
  // A free number stays small and positive, as a count or price in an example would.
  if (low === undefined || low === -Infinity) low = high !== undefined && high < 1 ? high - 1000 : 1;
  if (high === undefined || high === Infinity) high = low + 1000;
  return { low, high };
}

/** A number or integer generator honouring minimum, maximum, their exclusive forms and `multipleOf`. */
export function numberGenerator(schema: Record<string, unknown>, integer: boolean): Generate {
  const { low, high } = numberBounds(schema, integer);
  const multipleOf = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (multipleOf !== undefined) {
    const first = Math.ceil(low / multipleOf);
    const last = Math.floor(high / multipleOf);
    // Multiplying a whole count keeps the value exact for integral steps; a decimal step is rounded to its digits.
    const digits = (String(multipleOf).split('.')[1] ?? '').length;
    return (random) => Number((integerIn(random, first, Math.max(first, last)) * multipleOf).toFixed(digits));
  }
  if (integer) return (random) => integerIn(random, Math.ceil(low), Math.max(Math.ceil(low), Math.floor(high)));
  return (random) => {
    const value = Math.round((low + random() * (high - low)) * 100) / 100;
    return value < low || value > high ? low : value;
  };
}

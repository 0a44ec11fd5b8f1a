/**
 * English names of the ISO 3166 country codes a column stores ("DK"), for questions that say "Denmark"; and the
 * adjectives of the countries a column stores by name ("French" for "France").
 */
import type { SchemaColumn } from './schema-context.js';

const regionNames = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
/** The short names where they differ ("UK", "Hong Kong", "Myanmar" beside "Myanmar (Burma)"). */
const shortRegionNames = new Intl.DisplayNames('en', { type: 'region', style: 'short', fallback: 'none' });

/** English names still in common use that the platform's region names have replaced. */
const formerNames: Record<string, string[]> = {
  TR: ['Turkey'],
  CZ: ['Czech Republic'],
  CI: ['Ivory Coast'],
  SZ: ['Swaziland'],
  US: ['USA', 'United States of America'],
  GB: ['Great Britain', 'Britain'],
};

/** The codes ISO 3166 leaves to users (`ZZ` "Unknown Region", `XA` "Pseudo-Accents"), but Kosovo's `XK`. */
const userAssigned = /^(AA|Q[M-Z]|X[A-JL-Z]|ZZ)$/;

/** The current code `code` stands for: itself, a withdrawn one's successor (`DD` -> `DE`), or none (not a region). */
function currentRegion(code: string): string | undefined {
  if (!/^[A-Za-z]{2}$/.test(code)) return undefined;
  try {
    return new Intl.Locale(`und-${code}`).region;
  } catch {
    return undefined;
  }
}

/**
 * `[name, code]` for each current ISO 3166 code among a column's sampled values, when the column is named for
 * countries and every sampled value is a two-letter region code. Only codes present in the data are named: a
 * withdrawn code (`DD`, which ICU also calls "Germany") is never one a name leads to, so "Germany" finds `DE`
 * when the data has it and nothing otherwise. Empty for any other column.
 */
export function countryNames(column: SchemaColumn): [string, string][] {
  if (!/countr|nation/i.test(column.name) || column.values.length === 0) return [];
  const regions = column.values.map((value) => ({ value, current: currentRegion(value) }));
  if (regions.some((r) => r.current === undefined)) return [];
  const named: [string, string][] = [];
  for (const { value, current } of regions) {
    const code = value.toUpperCase();
    const name = code === current && !userAssigned.test(code) ? regionNames.of(code) : undefined;
    if (!name) continue;
    // A short name that is the code itself ("US") is matched as the value already.
    const short = shortRegionNames.of(code);
    const names = [name, ...(short && short !== name && short !== code ? [short] : []), ...(formerNames[code] ?? [])];
    for (const n of names) named.push([n, value]);
  }
  return named;
}

/** Nationality adjectives by ISO 3166 code, for the countries most often named so. */
const adjectives: Record<string, string[]> = {
  AR: ['Argentine', 'Argentinian'],
  AT: ['Austrian'],
  AU: ['Australian'],
  BE: ['Belgian'],
  BR: ['Brazilian'],
  CA: ['Canadian'],
  CH: ['Swiss'],
  CL: ['Chilean'],
  CN: ['Chinese'],
  CO: ['Colombian'],
  CZ: ['Czech'],
  DE: ['German'],
  DK: ['Danish'],
  EG: ['Egyptian'],
  ES: ['Spanish'],
  FI: ['Finnish'],
  FR: ['French'],
  GB: ['British'],
  GR: ['Greek'],
  HU: ['Hungarian'],
  ID: ['Indonesian'],
  IE: ['Irish'],
  IL: ['Israeli'],
  IN: ['Indian'],
  IR: ['Iranian'],
  IT: ['Italian'],
  JP: ['Japanese'],
  KR: ['Korean'],
  MX: ['Mexican'],
  NG: ['Nigerian'],
  NL: ['Dutch'],
  NO: ['Norwegian'],
  PE: ['Peruvian'],
  PH: ['Filipino'],
  PL: ['Polish'],
  PT: ['Portuguese'],
  RO: ['Romanian'],
  RU: ['Russian'],
  SE: ['Swedish'],
  TR: ['Turkish'],
  UA: ['Ukrainian'],
  US: ['American'],
  VN: ['Vietnamese'],
  ZA: ['South African'],
};

/**
 * `[adjective, value]` for each sampled value of a column named for countries or nations that is a country's English
 * name (its platform name, short name or a former name still in use: "France", "United States", "USA"): "French
 * singers" finds `country = 'France'`. A country the sample lacks gets no adjective, so the word links to nothing.
 */
export function countryAdjectives(column: SchemaColumn): [string, string][] {
  if (!/countr|nation/i.test(column.name)) return [];
  const byName = new Map<string, string>();
  for (const code of Object.keys(adjectives))
    for (const name of [regionNames.of(code), shortRegionNames.of(code), ...(formerNames[code] ?? [])])
      if (name) byName.set(name.toLowerCase(), code);
  return column.values.flatMap((value) => {
    const code = byName.get(value.toLowerCase());
    return code ? adjectives[code].map((adjective): [string, string] => [adjective, value]) : [];
  });
}

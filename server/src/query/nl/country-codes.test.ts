import { describe, expect, it } from 'vitest';
import { countryNames } from './country-codes.js';
import type { SchemaColumn } from './schema-context.js';

const column = (name: string, values: string[]): SchemaColumn => ({ name, type: 'VARCHAR', kind: 'text', values });

describe('country names over stored ISO 3166 codes', () => {
  it('names only the current codes present in the sample', () => {
    expect(countryNames(column('country', ['DK', 'DE', 'SE']))).toEqual([
      ['Denmark', 'DK'],
      ['Germany', 'DE'],
      ['Sweden', 'SE'],
    ]);
    // A code the sample lacks is never offered: "France" finds nothing here.
    expect(countryNames(column('country', ['DK'])).map(([name]) => name)).toEqual(['Denmark']);
  });

  it('never leads a name to a withdrawn code (DD, which ICU also calls Germany) or a user-assigned one', () => {
    expect(countryNames(column('country', ['DD']))).toEqual([]);
    expect(countryNames(column('country_code', ['DD', 'DE', 'UK', 'GB']))).toEqual([
      ['Germany', 'DE'],
      ['United Kingdom', 'GB'],
      ['UK', 'GB'],
      ['Great Britain', 'GB'],
      ['Britain', 'GB'],
    ]);
    expect(countryNames(column('country', ['ZZ', 'XA', 'XK']))).toEqual([['Kosovo', 'XK']]);
  });

  it('also names a country by its short name and a former English name still in use', () => {
    expect(countryNames(column('country', ['TR', 'HK', 'US']))).toEqual([
      ['Türkiye', 'TR'],
      ['Turkey', 'TR'],
      ['Hong Kong SAR China', 'HK'],
      ['Hong Kong', 'HK'],
      ['United States', 'US'],
      ['USA', 'US'],
      ['United States of America', 'US'],
    ]);
  });

  it('reads only columns named for countries whose every value is a region code', () => {
    expect(countryNames(column('state', ['CA', 'DE']))).toEqual([]);
    expect(countryNames(column('country', ['DK', 'Denmark']))).toEqual([]);
    expect(countryNames(column('nationality', ['no', 'se']))).toEqual([
      ['Norway', 'no'],
      ['Sweden', 'se'],
    ]);
  });
});

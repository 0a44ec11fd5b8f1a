/** Names of the US states (and DC) by their postal codes, for columns that store the codes ("CA") where questions say
 * "California". */
import type { SchemaColumn } from './schema-context.js';

const states: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

/**
 * The state names a column's values stand for, when the column is named for states and every sampled
 * value is a US postal code ("CA", "NY"): `[name, code]` for every state, so a state the sample missed
 * is still found. Empty for any other column (country codes such as "CA" or "DE" are not states).
 */
export function stateNames(column: SchemaColumn): [string, string][] {
  if (
    !/state/i.test(column.name) ||
    column.values.length === 0 ||
    !column.values.every((v) => Object.hasOwn(states, v))
  )
    return [];
  return Object.entries(states).map(([code, name]) => [name, code]);
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// A census the translator was never tuned on: provinces with their population and area, and their towns.
// The populations straddle the round numbers the questions write out in words (a hundred thousand, 2 million).
const ddl = `
CREATE TABLE province (province_id INTEGER, name VARCHAR, population INTEGER, area_km2 DOUBLE);
INSERT INTO province VALUES (1, 'Aland', 30000, 1580.0), (2, 'Brabant', 2600000, 5082.0),
  (3, 'Caria', 99999, 700.0), (4, 'Drenthe', 100000, 2680.0), (5, 'Epirus', 1999999, 9203.0);
CREATE TABLE town (town_id INTEGER, name VARCHAR, province_id INTEGER, population INTEGER);
INSERT INTO town VALUES (1, 'Mariehamn', 1, 11000), (2, 'Breda', 2, 184000), (3, 'Tilburg', 2, 224000),
  (4, 'Assen', 4, 68000);
`;

// The provinces' names, whichever column they are shown in beside the key.
const names = (rows: unknown[][]): unknown[] => rows.map((r) => r.find((v) => typeof v === 'string')).sort();

describe('numbers in words, numbers before their column and ranges, over an unseen census schema', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('census', ddl, [['town.province_id', 'province.province_id']]);
  });
  afterAll(() => db.close());

  it('reads "a hundred thousand" and "2 million" as numbers', async () => {
    const below = await db.ask('Which provinces have a population under a hundred thousand?');
    expect(names(below.rows)).toEqual(['Aland', 'Caria']);
    const above = await db.ask('Which provinces have a population of more than 2 million?');
    expect(names(above.rows)).toEqual(['Brabant']);
    const count = await db.ask('How many provinces have a population above one million?');
    expect(count.rows).toEqual([[2]]);
  });

  it('compares a number with the number column named right after it', async () => {
    const fewer = await db.ask('Which provinces have fewer than a hundred thousand people?');
    expect(fewer.sql).toContain('"population" < 100000');
    expect(names(fewer.rows)).toEqual(['Aland', 'Caria']);
    const area = await db.ask('Which provinces have more than 5000 area?');
    expect(names(area.rows)).toEqual(['Brabant', 'Epirus']);
  });

  it('keeps "more than N <table>" a count of related rows', async () => {
    const towns = await db.ask('Which provinces have more than 1 town?');
    expect(names(towns.rows)).toEqual(['Brabant']);
  });

  it('lists every row when a range names its column ("from the highest population to the lowest")', async () => {
    const down = await db.ask('List the provinces from the highest population to the lowest');
    expect(down.rows.map((r) => r.find((v) => typeof v === 'string'))).toEqual([
      'Brabant',
      'Epirus',
      'Drenthe',
      'Caria',
      'Aland',
    ]);
    const up = await db.ask('List the provinces from the smallest area to the largest');
    expect(up.rows.map((r) => r.find((v) => typeof v === 'string'))).toEqual([
      'Caria',
      'Aland',
      'Drenthe',
      'Brabant',
      'Epirus',
    ]);
    const one = await db.ask('Which province has the highest population?');
    expect(names(one.rows)).toEqual(['Brabant']);
  });

  it('refuses a number before a column that holds no numbers, and a multiplier with no number', async () => {
    await expect(db.ask('Which provinces have fewer than 100 names?')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
    await expect(db.ask('Which provinces have a population under thousand?')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });
});

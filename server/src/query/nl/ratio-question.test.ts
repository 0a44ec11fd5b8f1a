import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotUnderstood } from '../../core/domain-errors.js';
import { readRatio } from './ratio-question.js';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

const ddl = `
CREATE TABLE restaurant (id INTEGER, name VARCHAR, city_name VARCHAR, food_type VARCHAR, rating DOUBLE);
INSERT INTO restaurant VALUES
  (1, 'Roma', 'Boston', 'Italian', 4.6), (2, 'Napoli', 'Boston', 'Italian', 3.9), (3, 'Wok', 'Boston', 'Chinese', 4.2),
  (4, 'Luigi', 'Denver', 'Italian', 4.8), (5, 'Taco', 'Denver', 'Mexican', 3.1);
CREATE TABLE aircraft (aircraft_code VARCHAR, capacity INTEGER, range_miles INTEGER, pay_load INTEGER);
INSERT INTO aircraft VALUES ('A320', 180, 3300, 20000), ('B737', 160, 3000, 0);
CREATE TABLE author (aid INTEGER, name VARCHAR, oid INTEGER);
INSERT INTO author VALUES (1, 'Ann', 10), (2, 'Bob', 10), (3, 'Cid', 20);
CREATE TABLE organization (oid INTEGER, name VARCHAR, continent VARCHAR);
INSERT INTO organization VALUES (10, 'MIT', 'America'), (20, 'ETH', 'Europe'), (30, 'EPFL', 'Europe');
`;

describe('ratio questions', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('food', ddl, [['author.oid', 'organization.oid']]);
  });
  afterAll(() => db.close());

  it('splits "the ratio of A to B" and "the proportion of A out of all B", and only ratio questions', () => {
    const [reading] = readRatio('What is the ratio of restaurants in Boston to restaurants in Denver?')!;
    expect(reading.numerator.map((t) => t.text)).toEqual(['restaurants', 'in', 'boston']);
    expect(reading.denominator.map((t) => t.text)).toEqual(['restaurants']);
    expect(reading.qualifier.map((t) => t.text)).toEqual(['in', 'denver']);
    expect(
      readRatio('proportion of Italian restaurants out of all restaurants')![0].denominator.map((t) => t.text),
    ).toEqual(['restaurants']);
    // "per" divides only where nothing else does; after "to" it groups.
    const [per] = readRatio('the ratio of capacity per range miles for each aircraft code')!;
    expect([per.numerator, per.denominator].map((side) => side.map((t) => t.text))).toEqual([
      ['capacity'],
      ['range', 'miles'],
    ]);
    const [to] = readRatio('the ratio of capacity to range miles per aircraft code')!;
    expect(to.denominator.map((t) => t.text)).toEqual(['range', 'miles']);
    expect(to.grouping.map((t) => t.text)).toEqual(['per', 'aircraft', 'code']);
    expect(readRatio('How many restaurants are there?')).toBeUndefined();
    // "ratio" that is not asked for ("restaurants with the best price ratio of ...") is left to the other rules.
    expect(readRatio('list restaurants with a ratio of 2')).toBeUndefined();
  });

  it('divides two counts with their own conditions', async () => {
    const { sql, rows } = await db.ask(
      'What is the ratio of restaurants with a rating above 4.0 to restaurants with a rating below 4.0?',
    );
    expect(sql).toMatch(/\/ NULLIF/);
    expect(rows).toEqual([[3 / 2]]);
    expect((await db.ask('ratio of restaurants with rating > 4.5 to the total number of restaurants')).rows).toEqual([
      [2 / 5],
    ]);
  });

  it('shares a trailing qualifier with both sides, unless the numerator constrains the same column', async () => {
    // "in Boston" qualifies both: 2 of the 3 restaurants in Boston are Italian.
    expect((await db.ask('What is the ratio of Italian restaurants out of all restaurants in Boston?')).rows).toEqual([
      [2 / 3],
    ]);
    // "in Denver" only qualifies the denominator: the numerator already names a city.
    expect((await db.ask('What is the ratio of restaurants in Boston to restaurants in Denver?')).rows).toEqual([
      [3 / 2],
    ]);
  });

  it('divides two columns row by row, per key, with a zero divisor as NULL', async () => {
    const { rows } = await db.ask('What is the ratio of capacity to range in miles for each aircraft code?');
    expect(rows).toEqual(
      expect.arrayContaining([
        ['A320', 180 / 3300],
        ['B737', 160 / 3000],
      ]),
    );
    // "payload" names pay_load (a name's words written together).
    expect((await db.ask('ratio of capacity to payload for each aircraft code')).rows).toEqual(
      expect.arrayContaining([['B737', null]]),
    );
  });

  it('divides counts of two tables per group of a column they share ("differ by continent")', async () => {
    const { rows } = await db.ask('How does the ratio of authors to organizations differ by continent?');
    expect(rows).toEqual(
      expect.arrayContaining([
        ['America', 2],
        ['Europe', 0.5],
      ]),
    );
  });

  it('divides values named by their rows ("the capacity of the A320 to the capacity of the B737")', async () => {
    expect((await db.ask('ratio of the capacity of A320 to the capacity of B737')).rows).toEqual([[180 / 160]]);
  });

  it('gives percentages and orders by the ratio when asked', async () => {
    expect((await db.ask('percentage of Italian restaurants out of all restaurants')).rows).toEqual([[60]]);
    const ascending = await db.ask(
      'ratio of Italian restaurants to restaurants for each city, ordered by ascending ratio',
    );
    expect(ascending.rows).toEqual([
      ['Denver', 1 / 2],
      ['Boston', 2 / 3],
    ]);
    const descending = await db.ask(
      'ratio of Italian restaurants to restaurants for each city, ordered by descending ratio',
    );
    expect(descending.rows.map((r) => r[0])).toEqual(['Boston', 'Denver']);
  });

  it('refuses a ratio whose sides cannot be read, or read as one number', async () => {
    await expect(db.ask('ratio of restaurants to unicorns')).rejects.toBeInstanceOf(NotUnderstood);
    await expect(db.ask('ratio of restaurants to restaurants that are not Italian')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
    await expect(db.ask('How does the ratio of authors to organizations vary')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });
});

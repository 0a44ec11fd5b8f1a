import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// An observatory network the translator was never tuned on: sites, telescopes at them, observers and their
// observations. One observer's nationality is unknown (NULL), so a negated value shows how unknowns are treated.
const ddl = `
CREATE TABLE site (site_id INTEGER, name VARCHAR, country VARCHAR, altitude INTEGER, area INTEGER);
INSERT INTO site VALUES (1, 'Paranal', 'Chile', 2600, 4), (2, 'Mauna Kea', 'USA', 4200, 0), (3, 'La Palma', 'Spain',
  2400, 3);
CREATE TABLE telescope (telescope_id INTEGER, name VARCHAR, aperture DOUBLE, open_year INTEGER, site_id INTEGER);
INSERT INTO telescope VALUES (1, 'Kepler', 8.2, 1998, 1), (2, 'Hale', 5.1, 1948, 2), (3, 'Herschel', 4.2, 1987, 3),
  (4, 'Subaru', 8.2, 1999, 2), (5, 'Newton', 2.5, 1967, 3), (6, 'Tiny', 0.4, 2012, 1);
CREATE TABLE observer (observer_id INTEGER, name VARCHAR, nationality VARCHAR, age INTEGER);
INSERT INTO observer VALUES (1, 'Vera', 'USA', 60), (2, 'Jocelyn', 'UK', 45), (3, 'Carlos', 'Chile', 38),
  (4, 'Ines', 'Spain', 29), (5, 'Ana', 'Chile', 51), (6, 'Lu', NULL, 33);
CREATE TABLE observation (observation_id INTEGER, observer_id INTEGER, telescope_id INTEGER, year INTEGER,
  hours INTEGER);
INSERT INTO observation VALUES (1, 1, 2, 2017, 6), (2, 1, 4, 2018, 4), (3, 2, 3, 2019, 8), (4, 3, 1, 2020, 5),
  (5, 3, 6, 2021, 2), (6, 4, 5, 2022, 7), (7, 5, 1, 2023, 3);
CREATE TABLE employee (employee_id INTEGER, name VARCHAR, salary INTEGER, site_id INTEGER, dept VARCHAR);
INSERT INTO employee VALUES (1, 'Rosa', 3000, 1, 'optics'), (2, 'Tom', 4000, 1, 'optics'), (3, 'Ike', 3500, 2, 'it');
`;

describe('question shapes over an unseen observatory schema', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('observatory', ddl, [
      ['telescope.site_id', 'site.site_id'],
      ['observation.observer_id', 'observer.observer_id'],
      ['observation.telescope_id', 'telescope.telescope_id'],
      ['employee.site_id', 'site.site_id'],
    ]);
  });
  afterAll(() => db.close());

  it('reads two bounds joined by "or" as either of them holding ("after 2021 or before 2018")', async () => {
    const years = await db.ask('How many observations were made after 2021 or before 2018?');
    expect(years.sql).toContain(' OR ');
    expect(years.rows).toEqual([[3]]);
    const sizes = await db.ask('Which telescopes have an aperture above 8 or below 1? Give their names.');
    expect(sizes.rows.map((r) => r[0]).sort()).toEqual(['Kepler', 'Subaru', 'Tiny']);
    const opened = await db.ask('How many telescopes were opened before 1950 or after 1998?');
    expect(opened.rows).toEqual([[3]]);
  });

  it('refuses two bounds joined by "or" that every row meets, which cannot be what was asked', async () => {
    await expect(db.ask('How many observations were made after 2018 or before 2021?')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });

  it('reads "<column> is not <value>" as the rows whose column holds another value', async () => {
    const plain = await db.ask('Show the names of observers whose nationality is not Chile.');
    expect(plain.sql).toContain(`<> 'Chile'`);
    // Lu's nationality is unknown: not known to be other than Chile, so not listed.
    expect(plain.rows.map((r) => r[0]).sort()).toEqual(['Ines', 'Jocelyn', 'Vera']);
    const quoted = await db.ask('How many sites have a country that is not "USA"?');
    expect(quoted.rows).toEqual([[2]]);
  });

  it('links a common synonym of a table or column name when the word itself names nothing', async () => {
    const wage = await db.ask('What is the average wage of the workers at the site Paranal?');
    expect(wage.sql).toContain('"salary"');
    expect(wage.rows).toEqual([[3500]]);
    const nation = await db.ask('How many observers come from each nation?');
    expect(nation.sql).toContain('"nationality"');
    expect(nation.rows).toContainEqual(['Chile', 2]);
  });

  it('reads a synonym only where it names something: "staff" is employee, "vehicles" (cars) is nothing', async () => {
    expect((await db.ask('How many staff are there?')).rows).toEqual([[3]]);
    await expect(db.ask('How many vehicles are there?')).rejects.toMatchObject({ name: 'NotUnderstood' });
    // "pay" is as often a verb: no synonym of salary.
    await expect(db.ask('What is the average pay of the workers?')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('shows other columns of the rows a superlative ranks by their name, grouped by their key', async () => {
    const site = await db.ask('Show the site name and country with the most observations.');
    expect(site.rows).toEqual([['Paranal', 'Chile']]);
    expect(site.sql).toMatch(/GROUP BY .*"site_id"/);
    await expect(db.ask('Show the site name and observer age with the most observations.')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });

  it('reads "the ratio of A per B" as A divided by B, with a zero divisor as no value', async () => {
    const { rows } = await db.ask('Get the ratio of altitude per area for each site');
    // Per site, by its key (Paranal 1, Mauna Kea 2, La Palma 3).
    expect(rows).toEqual([
      [1, 650],
      [2, null],
      [3, 800],
    ]);
  });

  it('reads a name with an abbreviation by its words written out ("dept": department)', async () => {
    const { sql, rows } = await db.ask('How many employees are there in each department?');
    expect(sql).toContain('"dept"');
    expect(rows).toEqual([
      ['optics', 2],
      ['it', 1],
    ]);
  });

  it('refuses "is not" between a column and a value of another column', async () => {
    await expect(db.ask('Show the observers whose name is not Chile.')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });
});

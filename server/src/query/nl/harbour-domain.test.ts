import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// A harbour the translator was never tuned on: captains (each with the one ship they built, as columns), vessels,
// ports, and port calls linking vessels and ports.
const ddl = `
CREATE TABLE captain (captain_id INTEGER, name VARCHAR, age INTEGER, ship_name VARCHAR, ship_year INTEGER);
INSERT INTO captain VALUES (1, 'Ahab', 58, 'Pequod', 1840), (2, 'Nemo', 41, 'Nautilus', 1866),
  (3, 'Haddock', 35, 'Unicorn', 1678), (4, 'Flint', 50, 'Walrus', 1750);
CREATE TABLE port (port_id INTEGER, name VARCHAR, country VARCHAR);
INSERT INTO port VALUES (1, 'Bergen', 'Norway'), (2, 'Gdansk', 'Poland'), (3, 'Tallinn', 'Estonia'),
  (4, 'Visby', 'Sweden');
CREATE TABLE vessel (vessel_id INTEGER, name VARCHAR, tonnage INTEGER, captain_id INTEGER);
INSERT INTO vessel VALUES (1, 'Sleipner', 900, 1), (2, 'Gull', 300, 2), (3, 'Tern', 450, 2), (4, 'Skua', 120, 3),
  (5, 'Petrel', 200, NULL);
CREATE TABLE port_call (call_id INTEGER, vessel_id INTEGER, port_id INTEGER, year INTEGER);
INSERT INTO port_call VALUES (1, 1, 1, 2021), (2, 1, 2, 2022), (3, 2, 1, 2021), (4, 3, 3, 2022), (5, 1, 1, 2022);
CREATE TABLE captain_licence (captain_id INTEGER, port_id INTEGER);
INSERT INTO captain_licence VALUES (1, 4), (2, 3), (2, 4), (3, 1);
`;

describe('question shapes over an unseen harbour schema', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('harbour', ddl, [
      ['vessel.captain_id', 'captain.captain_id'],
      ['port_call.vessel_id', 'vessel.vessel_id'],
      ['port_call.port_id', 'port.port_id'],
      ['captain_licence.captain_id', 'captain.captain_id'],
      ['captain_licence.port_id', 'port.port_id'],
    ]);
  });
  afterAll(() => db.close());

  it('reads "the names and years for all the ships of X" as the ship columns (ship_name, ship_year)', async () => {
    const { rows } = await db.ask('What are the names and years for all the ships of the youngest captain?');
    expect(rows).toEqual([['Unicorn', 1678]]);
  });

  it('refuses joining two named tables the long way round when a relationship ties them directly', async () => {
    // Ports reach captains through licences (two steps) and through calls and vessels (three): joining the captain
    // by licence would answer "ports some vessel called at and Nemo is licensed for", not the ports of his vessels.
    await expect(db.ask('Which ports were called at by vessels of the captain Nemo?')).rejects.toMatchObject({
      name: 'NotUnderstood',
      message: expect.stringContaining('vessel'),
    });
  });

  it('answers "X without any Y" and "X that have no Y" with the X no Y row relates to', async () => {
    expect((await db.ask('Show the names of ports without any port calls.')).rows).toEqual([['Visby']]);
    expect((await db.ask('Which captains have no vessels? Give their names.')).rows).toEqual([['Flint']]);
    expect((await db.ask('How many vessels have no captain?')).rows).toEqual([[1]]);
  });

  it('answers "X that did not <verb> a Y <condition>" with the condition inside the negation', async () => {
    const { sql, rows } = await db.ask('What are the names of the vessels that did not call at a port in 2022?');
    expect(sql).toContain('NOT IN');
    expect(rows.map((r) => r[0]).sort()).toEqual(['Gull', 'Petrel', 'Skua']);
    const never = await db.ask('List the names of the ports that never had a port call in 2021.');
    expect(never.rows.map((r) => r[0]).sort()).toEqual(['Gdansk', 'Tallinn', 'Visby']);
  });

  it('refuses a negation of a ranked or counted part, which one list of excluded rows cannot say', async () => {
    await expect(db.ask('Which ports have no calls by the largest vessel?')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });

  it('answers "X that <relate to> both A and B" with the X related to each of them', async () => {
    const ports = await db.ask('Which ports had port calls in both 2021 and 2022?');
    expect(ports.rows).toHaveLength(1);
    expect(ports.rows[0]).toContain('Bergen');
    const vessels = await db.ask('What are the names of the vessels that called at both Bergen and Gdansk?');
    expect(vessels.rows).toEqual([['Sleipner']]);
  });

  it('reads "<year> or after" and "<year> or before" as bounds that include the year', async () => {
    expect((await db.ask('How many port calls were there in 2022 or after?')).rows).toEqual([[3]]);
    expect((await db.ask('How many port calls were there in 2021 or before?')).rows).toEqual([[2]]);
  });
});

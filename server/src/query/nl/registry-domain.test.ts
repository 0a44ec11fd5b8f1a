import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// A registry of clubs the translator was never tuned on, kept where there are no booleans: `is_active` and
// `has_pool` hold 0 or 1. Three of five clubs are active (two of them in Leeds), two have a pool.
const ddl = `
CREATE TABLE club (club_id INTEGER, name VARCHAR, town VARCHAR, is_active BIGINT, has_pool INTEGER, members INTEGER);
INSERT INTO club VALUES (1, 'Albion', 'Leeds', 1, 0, 40), (2, 'Borough', 'Leeds', 1, 1, 25),
  (3, 'Castle', 'York', 0, 1, 10), (4, 'Dale', 'York', 1, 0, 30), (5, 'Eden', 'Leeds', 0, 0, 5);
`;

describe('yes/no columns stored as 0 or 1, over an unseen registry schema', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('registry', ddl);
  });
  afterAll(() => db.close());

  it('reads an is_/has_ integer column named as an adjective as a condition, not something to count', async () => {
    const active = await db.ask('How many active clubs are there?');
    expect(active.rows).toEqual([[3]]);
    const pool = await db.ask('How many clubs have a pool in York?');
    expect(pool.rows).toEqual([[1]]);
    const without = await db.ask('How many clubs without a pool are there?');
    expect(without.rows).toEqual([[3]]);
  });

  it('reads the opposite word of the flag ("inactive") as the flag not holding', async () => {
    const inactive = await db.ask('How many inactive clubs are there?');
    expect(inactive.rows).toEqual([[2]]);
    const ratio = await db.ask('What is the ratio of active clubs to inactive clubs in Leeds?');
    expect(ratio.rows).toEqual([[2]]);
  });

  it('leaves a number column that is not named as a flag a number', async () => {
    const members = await db.ask('What is the total members of clubs in York?');
    expect(members.rows).toEqual([[40]]);
  });
});

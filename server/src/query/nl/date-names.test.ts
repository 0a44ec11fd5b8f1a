import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// Review and check-in logs that store a month or a day by name, as the Yelp data set does (with a stray header row).
const ddl =
  `
CREATE TABLE review (rid INTEGER, rating INTEGER, year INTEGER, month VARCHAR);
INSERT INTO review VALUES (1, 5, 2021, 'April'), (2, 3, 2021, 'April'), (3, 4, 2021, 'June'), (4, 2, 2021, ` +
  `'December'), (5, 1, 2020, 'April'),
  (6, 1, 2021, 'Month'), (7, 2, 2022, 'March'), (8, 4, 2022, 'July');
CREATE TABLE checkin (cid INTEGER, count INTEGER, day VARCHAR);
INSERT INTO checkin VALUES (1, 10, 'Monday'), (2, 5, 'Saturday'), (3, 7, 'Sunday'), (4, 2, 'Friday');
`;

describe('columns of day and month names', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('logs', ddl);
  });
  afterAll(() => db.close());

  it('compares a month and year, or a range of whole months, with the names and the year column', async () => {
    const april = await db.ask('How many reviews were posted in the month of April 2021?');
    expect(april.sql).toContain(`t1."month" = 'April' AND t1."year" = 2021`);
    expect(april.rows).toEqual([[2]]);
    const months = await db.ask('How many months between June 2021 and December 2021 had reviews?');
    expect(months.rows).toEqual([[2]]);
    expect((await db.ask('What is the average rating in April?')).rows).toEqual([[3]]);
    expect((await db.ask('How many reviews in the 1st quarter of 2022?')).rows).toEqual([[1]]);
  });

  it('reads "on weekends" and "on Mondays" as day names', async () => {
    const weekend = await db.ask('How many check-ins on weekends?');
    expect(weekend.sql).toContain(`t1."day" IN ('Sunday', 'Saturday')`);
    expect(weekend.rows).toEqual([[12]]);
    expect((await db.ask('How many check-ins on Mondays?')).rows).toEqual([[10]]);
  });

  it('refuses a period that is not whole months, which names cannot hold', async () => {
    await expect(db.ask('How many reviews after 2021-04-15?')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });
});

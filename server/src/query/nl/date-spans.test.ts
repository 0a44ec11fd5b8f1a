import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkDateSpan } from './date-spans.js';
import { tokenize } from './question-words.js';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

const ddl =
  `
CREATE TABLE salesperson (id INTEGER, name VARCHAR, hire_date DATE, termination_date DATE, region VARCHAR);
INSERT INTO salesperson VALUES (1, 'Ann', DATE '2020-01-01', DATE '2020-03-01', 'North'), (2, 'Bob', DATE ` +
  `'2021-05-01', DATE '2021-05-11', 'South'),
  (3, 'Cy', DATE '2022-01-01', NULL, 'North');
`;

describe('days between two date columns', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('dealer', ddl);
  });
  afterAll(() => db.close());

  it('averages, ranks and shows "the time from A to B" as the days between them', async () => {
    const average = await db.ask('What is the average time from hire to termination of salespersons?');
    expect(average.sql).toContain(`avg(date_diff('day', t1."hire_date", t1."termination_date"))`);
    expect(average.rows).toEqual([[(60 + 10) / 2]]);
    const shortest = await db.ask('Which salesperson had the shortest time between hire date and termination date?');
    expect(shortest.rows.map((r) => r[1])).toEqual(['Bob']);
    // "to B since A": the word before each date says which end it is.
    const grouped = await db.ask('average time to termination since hire in no. of days per region');
    expect(grouped.rows).toEqual([
      ['North', 60],
      ['South', 10],
    ]);
  });

  it('refuses a span with one date, or with no word saying which date comes first', async () => {
    await expect(db.ask('What is the average time since hire?')).rejects.toMatchObject({ name: 'NotUnderstood' });
    await expect(db.ask('average time of hire date termination date')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('finds no span in a question that links no date at all (nothing configured)', () => {
    const tokens = tokenize('average session duration in seconds');
    expect(linkDateSpan(tokens, [], () => true)).toBeUndefined();
  });
});

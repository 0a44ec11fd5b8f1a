import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// An archive the translator was never tuned on. Its document key is `did`, spelled like the verb in "how many did
// they have". Cy wrote the most documents overall (3, all 2019), Ada the most in 2020 (2; Bo 1).
const ddl = `
CREATE TABLE writer (wid INTEGER, name VARCHAR);
INSERT INTO writer VALUES (1, 'Ada'), (2, 'Bo'), (3, 'Cy');
CREATE TABLE document (did INTEGER, title VARCHAR, year INTEGER);
INSERT INTO document VALUES (1, 'Ledger', 2020), (2, 'Charter', 2020), (3, 'Deed', 2019), (4, 'Map', 2020),
  (5, 'Will', 2019), (6, 'Lease', 2019), (7, 'Bond', 2019);
CREATE TABLE authored (wid INTEGER, did INTEGER);
INSERT INTO authored VALUES (1, 1), (1, 2), (1, 3), (2, 4), (3, 5), (3, 6), (3, 7);
`;

describe('pronouns and back references over an unseen archive schema', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('archive', ddl, [
      ['authored.wid', 'writer.wid'],
      ['authored.did', 'document.did'],
    ]);
  });
  afterAll(() => db.close());

  it('reads "did he/she" and "did they" as the question asking, not the column did', async () => {
    for (const who of ['he/she', 'they']) {
      const answer = await db.ask(
        `Which writer had the most documents in the year 2020 and how many documents did ${who} have?`,
      );
      expect(answer.rows).toEqual([['Ada', 2]]);
    }
  });

  it('reads "that year" as the year named before, not a clause about a second copy of the table', async () => {
    const answer = await db.ask(
      'Which writer had the most documents in the year 2020 and how many documents did she have that year?',
    );
    expect(answer.rows).toEqual([['Ada', 2]]);
  });

  it('still refuses "that <table>", which may be another row of the table than the one named first', async () => {
    await expect(
      db.ask('Which writer had the most documents in 2020, and how many documents did that writer have?'),
    ).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('still refuses a table named again in a clause that says something new of it', async () => {
    await expect(
      db.ask('Which documents have the same year as the documents that were written by Ada?'),
    ).rejects.toMatchObject({ name: 'NotUnderstood' });
  });
});

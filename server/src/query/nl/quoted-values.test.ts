import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotedSpans } from './quoted-values.js';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// More distinct titles than the sampling cap keeps, so a quoted title may be one the sample lacks.
const titles = Array.from({ length: 250 }, (_, k) => `('Paper number ${k} about many things', ${k % 3})`).join(', ');
const ddl =
  `
CREATE TABLE journal (journal_id INTEGER, journal_name VARCHAR);
INSERT INTO journal VALUES (0, 'IEEE Transactions on Pattern Analysis and Machine Intelligence'), (1, ` +
  `'Nature'), (2, 'Cell');
CREATE TABLE paper (title VARCHAR, journal_id INTEGER);
INSERT INTO paper VALUES ${titles};
CREATE TABLE business (business_id VARCHAR, name VARCHAR, state VARCHAR);
INSERT INTO business VALUES ('b1', 'Joe', 'CA'), ('b2', 'Ann', 'NY');
`;

describe('quoted values', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('lib', ddl, [['paper.journal_id', 'journal.journal_id']]);
  });
  afterAll(() => db.close());

  it('finds double, curly and whole-phrase single quotes on the tokens, and leaves apostrophes alone', () => {
    expect(quotedSpans('the journal named "Cell" and “Nature”')).toEqual([
      { start: 3, end: 4, text: 'Cell' },
      { start: 5, end: 6, text: 'Nature' },
    ]);
    expect(quotedSpans("Mark's bistro with the name 'Joe' isn't here")).toEqual([{ start: 5, end: 6, text: 'Joe' }]);
  });

  it('reads a quoted literal as a value of the column, or of the label of the table, named before it', async () => {
    const named = await db.ask(
      'How many papers were published in the journal named "IEEE Transactions on Pattern Analysis and Machine ' +
        'Intelligence"?',
    );
    expect(named.sql).toContain(`"journal_name" = 'IEEE Transactions on Pattern Analysis and Machine Intelligence'`);
    expect(named.rows).toEqual([[84]]);
    // A title longer than the sample keeps: still a value of the title column.
    const titled = await db.ask('Which journal has the paper with the title "Paper number 248 about many things"?');
    expect(titled.rows.map((r) => r[1])).toEqual(['Cell']);
  });

  it('refuses a literal the fully sampled column does not hold', async () => {
    await expect(db.ask('How many businesses are in the state of "Atlantis"?')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });

  it(
    'reads a state name where the column holds postal codes, and a literal asked as a part ("in its name", see ' +
      'text-match.ts)',
    async () => {
      expect((await db.ask('How many businesses are in the state of "California"?')).rows).toEqual([[1]]);
      expect((await db.ask('How many papers are in the journal with "IEEE" in its name?')).rows).toEqual([[84]]);
    },
  );
});

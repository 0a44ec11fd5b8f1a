import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';
import { quotedSpans } from './quoted-values.js';
import { readTextMatches } from './text-match.js';
import { tokenize } from './question-words.js';

const ddl =
  `
CREATE TABLE journal (jid INTEGER, name VARCHAR);
INSERT INTO journal VALUES (1, 'Journal of Data'), (2, 'Nature'), (3, 'IEEE Transactions on Databases'), (4, ` +
  `'O''Brien Review');
CREATE TABLE publication (pid INTEGER, title VARCHAR, jid INTEGER);
INSERT INTO publication VALUES (1, 'Hey Jude', 1), (2, 'Data lakes', 1), (3, 'Cells', 2), (4, 'Indexes', 3);
`;

describe('parts of texts', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('lib', ddl, [['publication.jid', 'journal.jid']]);
  });
  afterAll(() => db.close());

  it('reads the phrase around a quoted literal', () => {
    const question = 'How many journals have names that start with the letter "J"?';
    expect(readTextMatches(tokenize(question), quotedSpans(question))).toEqual([
      { mode: 'prefix', text: 'J', at: 6, end: 11 },
    ]);
  });

  it('matches a start, an end, or a part of the column (or label) named with it, ignoring case', async () => {
    const start = await db.ask(
      'How many publications were published in journals whose names start with the letter "j"?',
    );
    expect(start.sql).toContain(`starts_with(lower(t2."name"), 'j')`);
    expect(start.rows).toEqual([[2]]);
    expect((await db.ask('Which journals end with "review"?')).rows).toEqual([[4, "O'Brien Review"]]);
    expect((await db.ask('How many publications with the word "hey" in their title?')).rows).toEqual([[1]]);
    expect((await db.ask('publications in the journal with "IEEE" in its name')).rows).toEqual([[4, 'Indexes', 3]]);
    expect((await db.ask('journals containing "o\'brien"')).sql).toContain(`contains(lower(t1."name"), 'o''brien')`);
  });

  it('refuses a literal with no text column to match', async () => {
    await expect(db.ask('How many start with "J"?')).rejects.toMatchObject({ name: 'NotUnderstood' });
    await expect(db.ask('How many publications have a jid that starts with "1"?')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });
});

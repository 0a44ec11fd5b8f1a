import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// A lending library the translator was never tuned on: branches, the books they hold, and the tags on books.
// Book 4 has no tag, books 1 and 3 one each, book 2 three: exact counts and "more than" counts differ.
const ddl = `
CREATE TABLE branch (branch_id INTEGER, name VARCHAR, city VARCHAR);
INSERT INTO branch VALUES (1, 'Central', 'Leeds'), (2, 'Riverside', 'York');
CREATE TABLE book (book_id INTEGER, title VARCHAR, genre VARCHAR, pages INTEGER, branch_id INTEGER);
INSERT INTO book VALUES (1, 'Dune', 'fiction', 600, 1), (2, 'Cosmos', 'science', 400, 1),
  (3, 'Emma', 'fiction', 500, 2), (4, 'Atlas', 'reference', 90, 2), (5, 'Beowulf', 'poetry', 100, 1);
CREATE TABLE member (member_id INTEGER, name VARCHAR, branch_id INTEGER, registered_card VARCHAR,
  overdue_notice BOOLEAN, birth_date DATE);
INSERT INTO member VALUES (1, 'Ann', 1, 'C-1', false, DATE '1950-03-01'), (2, 'Bo', 1, NULL, true, DATE '2015-07-20'),
  (3, 'Cy', 2, 'C-7', true, DATE '2012-01-31'), (4, 'Di', 2, NULL, false, DATE '1988-12-31'),
  (5, 'Ed', 2, 'C-9', false, DATE '1979-06-15');
CREATE TABLE loan (loan_id INTEGER, book_id INTEGER, member_id INTEGER, renewal_allowed VARCHAR);
INSERT INTO loan VALUES (1, 1, 1, 'Yes'), (2, 2, 1, 'No'), (3, 3, 3, 'No');
CREATE TABLE author (author_id INTEGER, name VARCHAR, date_of_birth DATE, country VARCHAR);
INSERT INTO author VALUES (1, 'Frank Herbert', DATE '1920-10-08', 'United States'),
  (2, 'Jules Verne', DATE '1828-02-08', 'France'), (3, 'Victor Hugo', DATE '1802-02-26', 'France');
CREATE TABLE tag (tag_id INTEGER, label VARCHAR);
INSERT INTO tag VALUES (1, 'classic'), (2, 'award'), (3, 'illustrated');
CREATE TABLE book_tag (book_id INTEGER, tag_id INTEGER);
INSERT INTO book_tag VALUES (1, 1), (2, 1), (2, 2), (2, 3), (3, 2), (5, 1), (5, 3);
`;

describe('question shapes over an unseen library schema', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('library', ddl, [
      ['book.branch_id', 'branch.branch_id'],
      ['book_tag.book_id', 'book.book_id'],
      ['book_tag.tag_id', 'tag.tag_id'],
      ['member.branch_id', 'branch.branch_id'],
      ['loan.book_id', 'book.book_id'],
      ['loan.member_id', 'member.member_id'],
    ]);
  });
  afterAll(() => db.close());

  it('reads "that have N <table>" as an exact count of related rows', async () => {
    const one = await db.ask('How many books have 1 tag?');
    expect(one.rows).toEqual([[2]]);
    const exactly = await db.ask('How many books have exactly 2 tags?');
    expect(exactly.rows).toEqual([[1]]);
    const ratio = await db.ask('What is the ratio of books that have more than 1 tags to books that have 1 tag?');
    // Books 2 and 5 have more than one tag; books 1 and 3 exactly one.
    expect(ratio.rows).toEqual([[1]]);
  });

  it('refuses a bare number before a column rather than reading it as a count', async () => {
    await expect(db.ask('How many books have 600 pages?')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('accepts "Match strings exactly", which is how values are matched, and no other instruction', async () => {
    const exact = await db.ask('How many books are in the genre fiction? Match strings exactly');
    expect(exact.rows).toEqual([[2]]);
    await expect(
      db.ask('How many books are in the genre fiction? Match genre case insensitively'),
    ).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('reads "the <text column> name" as that column, not another table\'s name', async () => {
    const { sql, rows } = await db.ask(
      'What is the average number of pages of books in each genre? Order the results by the genre name.',
    );
    expect(sql).not.toContain('"name"');
    expect(rows.map((r) => r[0])).toEqual(['fiction', 'poetry', 'reference', 'science']);
  });

  it('reads "have a <column>" as the rows where that column has a value', async () => {
    const card = await db.ask('Which members have a registered card? Give their names.');
    expect(card.sql).toContain('IS NOT NULL');
    expect(card.rows.map((r) => r[0]).sort()).toEqual(['Ann', 'Cy', 'Ed']);
    const perBranch = await db.ask('How many members have registered a card in each branch?');
    expect(perBranch.rows.sort()).toEqual([
      ['Central', 1],
      ['Riverside', 2],
    ]);
  });

  it('keeps a yes/no column after "have a" as the condition that it holds, not that it has a value', async () => {
    const { sql, rows } = await db.ask('How many members have an overdue notice?');
    expect(sql).not.toContain('IS NOT NULL');
    expect(rows).toEqual([[2]]);
  });

  it('does not read "have a <column>" over a text column of yes/no words, where every row has a value', async () => {
    await expect(db.ask('How many loans have a renewal allowed?')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('reads "age" without an age column as the whole years since the named table\'s birth date', async () => {
    const { rows } = await db.ask('What is the average age of the members in branch Riverside?');
    // Ages computed apart, in whole years as of today (AGE's year part).
    const [[expected]] = await db.rows(
      'SELECT avg(extract(year FROM age(current_date, birth_date))) FROM member WHERE branch_id = 2',
    );
    expect(rows).toEqual([[expected]]);
    const oldest = await db.ask('Which member has the highest age?');
    expect(oldest.rows).toHaveLength(1);
    expect(oldest.rows[0]).toContain('Ann');
  });

  it('refuses "age" when two tables have a birth date and the question names neither', async () => {
    await expect(db.ask('What is the average age?')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('reads "the length of <text column>" as the number of characters of its values', async () => {
    const { rows } = await db.ask(
      'List the titles of the books, ordered by the length of the title from shortest to longest.',
    );
    expect(rows.map((r) => String(r[0]).length)).toEqual([4, 4, 5, 6, 7]);
    await expect(db.ask('List the books ordered by the length of the pages.')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });

  it('reads a nationality adjective as the country a column of country names holds ("French": France)', async () => {
    const french = await db.ask('How many French authors are there?');
    expect(french.sql).toContain(`= 'France'`);
    expect(french.rows).toEqual([[2]]);
    expect((await db.ask('List the names of American authors.')).rows).toEqual([['Frank Herbert']]);
    // No Brazilian author: the adjective links to nothing rather than to a made-up value.
    await expect(db.ask('How many Brazilian authors are there?')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

const ddl =
  `
CREATE TABLE course (course_id INTEGER, name VARCHAR, has_final_exam BOOLEAN, has_projects BOOLEAN, ` +
  `num_enrolled INTEGER);
INSERT INTO course VALUES (1, 'Databases', true, true, 120), (2, 'Compilers', false, true, 80), (3, 'Logic', ` +
  `true, false, 40);
CREATE TABLE business (business_id VARCHAR, name VARCHAR, city VARCHAR, state VARCHAR);
INSERT INTO business VALUES ('b1', 'Joe', 'New York', 'NY'), ('b2', 'Ann', 'Austin', 'TX'), ('b3', 'Sue', ` +
  `'Fresno', 'CA');
CREATE TABLE visitor (id INTEGER, name VARCHAR, Level_of_membership INTEGER, age INTEGER);
INSERT INTO visitor VALUES (1, 'Ann', 5, 30), (2, 'Bob', 2, 40), (3, 'Cy', 4, 50);
CREATE TABLE student (student_id INTEGER, admit_term DATE);
INSERT INTO student VALUES (1, DATE '2018-01-10'), (2, DATE '2018-01-20'), (3, DATE '2019-05-01');
CREATE TABLE payments_made (id INTEGER, payment_amount DECIMAL(10, 2));
INSERT INTO payments_made VALUES (1, 10), (2, 20);
CREATE TABLE payments_received (id INTEGER, payment_amount DECIMAL(10, 2));
INSERT INTO payments_received VALUES (1, 100);
CREATE TABLE museum (id INTEGER, name VARCHAR, Num_of_Staff INTEGER, open_yr INTEGER);
INSERT INTO museum VALUES (1, 'Plaza', 62, 2000), (2, 'Capital', 25, 2012);
`;

describe('schema linking of flags, codes and name variants', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('demo', ddl);
  });
  afterAll(() => db.close());

  it('reads a named yes/no column as a condition, negated after "without"', async () => {
    const both = await db.ask('Which courses have a final exam and projects?');
    expect(both.sql).toContain(`t1."has_final_exam" = true AND t1."has_projects" = true`);
    expect(both.rows.map((r) => r[1])).toEqual(['Databases']);
    expect((await db.ask('How many courses without a final exam?')).rows).toEqual([[1]]);
  });

  it('links a synonym only for a word that names nothing: "pupils" are students, "clients" nothing here', async () => {
    expect((await db.ask('How many pupils are there?')).rows).toEqual([[3]]);
    // "clients" would be customers, which this schema lacks: unlinked, not some other table.
    await expect(db.ask('How many clients are there?')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('reads abbreviations in names written out: "staff number" is Num_of_Staff, "opening year" open_yr', async () => {
    const { rows } = await db.ask('What are the opening year and staff number of the museum named Plaza?');
    expect(rows).toEqual([[2000, 62]]);
  });

  it('refuses "without" before anything but a yes/no column', async () => {
    await expect(db.ask('How many courses without students?')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it(
    'finds a US state by name where the column stores postal codes, preferring the column named before a ' + 'value',
    async () => {
      expect((await db.ask('How many businesses are in California?')).sql).toContain(`t1."state" = 'CA'`);
      // "New York" is also a city: "the state of" says which column.
      expect((await db.ask('How many businesses in the state of New York?')).sql).toContain(`t1."state" = 'NY'`);
      expect((await db.ask('How many businesses in the city of New York?')).sql).toContain(`t1."city" = 'New York'`);
    },
  );

  it('reads no state names into country codes that happen to be state codes too (CA, DE)', async () => {
    const countries = await smallDatabase(
      'trade',
      `CREATE TABLE supplier (name VARCHAR, country VARCHAR); INSERT INTO supplier VALUES ('x', 'CA'), ('y', 'DE');`,
    );
    try {
      await expect(countries.ask('How many suppliers in California?')).rejects.toMatchObject({ name: 'NotUnderstood' });
    } finally {
      countries.close();
    }
  });

  it('links names around "of" either way, verb forms, and "<column> of <table phrase>"', async () => {
    expect((await db.ask('average age of visitors whose membership level is not higher than 4')).rows).toEqual([[45]]);
    expect((await db.ask('What month were most students admitted?')).rows).toEqual(
      await db.rows(`SELECT DATE '2018-01-01'`),
    );
    expect((await db.ask('total amount of payments received')).rows).toEqual([[100]]);
  });
});

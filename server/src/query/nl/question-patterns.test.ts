import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

const ddl =
  `
CREATE TABLE restaurant (id INTEGER, name VARCHAR, city_name VARCHAR, food_type VARCHAR, rating DOUBLE);
INSERT INTO restaurant VALUES (1, 'Roma', 'Boston', 'Italian', 4.6), (2, 'Napoli', 'Boston', 'Italian', 3.9), ` +
  `(3, 'Wok', 'Denver', 'Chinese', 4.2);
CREATE TABLE checkin (cid INTEGER, business_id VARCHAR, count INTEGER, day VARCHAR);
INSERT INTO checkin VALUES (1, 'b1', 10, 'Monday'), (2, 'b2', 5, 'Monday'), (3, 'b1', 7, 'Friday');
CREATE TABLE airline (airline_code VARCHAR, airline_name VARCHAR);
INSERT INTO airline VALUES ('AA', 'American'), ('UA', 'United'), ('WN', 'Southwest');
CREATE TABLE flight (flight_id INTEGER, airline_code VARCHAR, round_trip_cost INTEGER);
INSERT INTO flight VALUES (1, 'AA', 100), (2, 'AA', 200), (3, 'UA', 300), (4, 'AA', 50), (5, 'UA', 70), (6, 'WN', 90);
CREATE TABLE business (business_id VARCHAR, name VARCHAR, city VARCHAR);
INSERT INTO business VALUES ('b1', 'Joe', 'Austin'), ('b2', 'Ann', 'Austin'), ('b3', 'Joe', 'Dallas');
CREATE TABLE review (rid INTEGER, business_id VARCHAR, rating INTEGER);
INSERT INTO review VALUES (1, 'b1', 5), (2, 'b1', 3), (3, 'b2', 2), (4, 'b3', 1), (5, 'b3', 1);
CREATE TABLE airport (airport_code VARCHAR, airport_name VARCHAR, minimum_connect_time INTEGER);
INSERT INTO airport VALUES ('JFK', 'Kennedy', 45), ('ORD', 'O Hare', 30), ('LAX', 'Los Angeles', 60);
CREATE TABLE course (course_id INTEGER, title VARCHAR, num_enrolled INTEGER);
INSERT INTO course VALUES (1, 'Databases', 120), (2, 'Compilers', 80);
CREATE TABLE fare (fare_id INTEGER, from_airport VARCHAR, to_airport VARCHAR, cost INTEGER);
INSERT INTO fare VALUES (1, 'LAX', 'ORD', 300), (2, 'ORD', 'LAX', 280), (3, 'LAX', 'JFK', 400);
CREATE TABLE state (state_name VARCHAR, area INTEGER);
INSERT INTO state VALUES ('Ohio', 100), ('Utah', 200);
CREATE TABLE lake (lake_name VARCHAR, state_name VARCHAR);
INSERT INTO lake VALUES ('Erie', 'Ohio'), ('Grand', 'Ohio'), ('Salt', 'Utah'), ('Nowhere', 'Atlantis');
CREATE TABLE river (river_name VARCHAR, length INTEGER);
INSERT INTO river VALUES ('Nile', 6650), ('Rhine', 1230), ('Loire', 1006);
CREATE TABLE mountain (mountain_name VARCHAR, mountain_altitude INTEGER);
INSERT INTO mountain VALUES ('Everest', 8848), ('Mont Blanc', 4808), ('Rigi', 1798), ('Pilatus', 1798);
`;

describe('question patterns over a small schema', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('demo', ddl, [
      ['flight.airline_code', 'airline.airline_code'],
      ['review.business_id', 'business.business_id'],
      ['lake.state_name', 'state.state_name'],
    ]);
  });
  afterAll(() => db.close());

  it('links "<part> of <whole>" to a column named the other way round ("type of food": food_type)', async () => {
    const { sql, rows } = await db.ask('What is the average rating of restaurants serving each type of food?');
    expect(sql).toContain('"food_type"');
    expect(rows).toEqual(
      expect.arrayContaining([
        ['Italian', 4.25],
        ['Chinese', 4.2],
      ]),
    );
    const cost = await db.ask('What is the total cost of round-trip flights for each airline code?');
    expect(cost.sql).toContain('sum(t1."round_trip_cost")');
  });

  it('reads "total count of" as a count, not a sum', async () => {
    expect((await db.ask('What is the total count of restaurants in each city?')).rows).toEqual(
      expect.arrayContaining([
        ['Boston', 2],
        ['Denver', 1],
      ]),
    );
  });

  it('counts a table of tallies by summing its count column', async () => {
    const { rows } = await db.ask('How many check-ins occurred on each day?');
    expect(rows).toEqual(
      expect.arrayContaining([
        ['Monday', 15],
        ['Friday', 7],
      ]),
    );
    expect((await db.ask('total count of checkins for each business id')).rows).toEqual(
      expect.arrayContaining([
        ['b1', 17],
        ['b2', 5],
      ]),
    );
  });

  it('shows the count beside a top-N ranked by a count, but not beside a single superlative', async () => {
    const top = await db.ask('What are the top 2 airlines with the most flights?');
    expect(top.rows).toEqual([
      ['American', 3],
      ['United', 2],
    ]);
    const single = await db.ask('Which airline has the most flights?');
    expect(single.rows).toEqual([['American']]);
    const asked = await db.ask('Which airline has the most flights, and how many flights does it have?');
    expect(asked.rows).toEqual([['American', 3]]);
  });

  it('ranks every row "from highest to lowest", by the column a superlative names or the range names', async () => {
    const rivers = await db.ask('What are the longest rivers in meters, ordered from longest to shortest?');
    expect(rivers.sql).toContain('ORDER BY t1."length" DESC');
    expect(rivers.rows.map((r) => r[0])).toEqual(['Nile', 'Rhine', 'Loire']);
    // "highest" before a table ranks it by a number, it does not count it.
    const mountains = await db.ask(
      'What are the highest mountains in meters, ordered from highest to lowest altitude?',
    );
    expect(mountains.rows.map((r) => r[0])).toEqual(['Everest', 'Mont Blanc', 'Rigi', 'Pilatus']);
    // Without the range, a superlative still picks the top row.
    expect((await db.ask('What is the longest river?')).rows).toEqual([['Nile', 6650]]);
  });

  it('reads a unit after a number or after "in" as the stored unit', async () => {
    expect((await db.ask('rivers longer than 1100 miles')).rows.map((r) => r[0]).sort()).toEqual(['Nile', 'Rhine']);
    const { rows } = await db.ask('rivers with length over 1100 km');
    expect(rows.map((r) => r[0]).sort()).toEqual(['Nile', 'Rhine']);
    await expect(db.ask('rivers with length over 1100 days')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('reads "both" after "give"/"show" as announcing the list, not as a value', async () => {
    const both = await db.ask('Give both the lake names and the state names');
    const plain = await db.ask('Give the lake names and the state names');
    expect(both.sql).toBe(plain.sql);
    expect(both.rows).toHaveLength(4);
  });

  it('takes an aggregate per row of another table named with "their", grouped by that table\'s key', async () => {
    const { sql, rows } = await db.ask(
      'list business names in Austin and their average ratings ordered by the highest average rating first',
    );
    expect(sql).toContain('GROUP BY t2."business_id", t2."name"');
    expect(rows).toEqual([
      ['Joe', 4],
      ['Ann', 2],
    ]);
    // Two businesses called Joe stay apart.
    expect((await db.ask('business names and their average ratings')).rows).toHaveLength(3);
    await expect(db.ask('business names and average ratings')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('reads "ordered by the number of X" after a superlative as ranking every group by that count', async () => {
    const { rows } = await db.ask(
      'Which airlines have the most flights, ordered by the number of flights in descending order?',
    );
    expect(rows).toEqual([
      ['American', 3],
      ['United', 2],
      ['Southwest', 1],
    ]);
  });

  it(
    'prefers a partial name of a table the question is about over an exact name elsewhere ("city" of ' + 'restaurants)',
    async () => {
      const { sql } = await db.ask('How many restaurants are in each city?');
      expect(sql).toContain('t1."city_name"');
      expect(sql).not.toContain('business');
    },
  );

  it('refuses one table named in two roles ("restaurants in the city of the restaurant that ...")', async () => {
    await expect(db.ask('Which restaurants are in the city of the restaurant where Wok is?')).rejects.toThrow(
      /named twice/,
    );
    // Named twice in one role is fine.
    expect((await db.ask('restaurants in Boston: list restaurant names')).rows).toHaveLength(2);
  });

  it('links a whole column name spelled with grammar words ("minimum connect time") to the column', async () => {
    const { sql, rows } = await db.ask(
      'Which airports have the shortest minimum connect time, sorted in ascending order? Show the minimum ' +
        'connect time.',
    );
    expect(sql).not.toMatch(/min\(/);
    // A sorted list with its label ("Which airports"), not only the first row.
    expect(rows).toEqual([
      ['O Hare', 30],
      ['Kennedy', 45],
      ['Los Angeles', 60],
    ]);
    expect((await db.ask('Which airport has the shortest minimum connect time?')).rows).toEqual([
      ['ORD', 'O Hare', 30],
    ]);
  });

  it('links other forms of a word: "highest-rated" to rating, "enrollment" to num_enrolled', async () => {
    expect((await db.ask('Which city has the highest-rated restaurant?')).rows).toEqual([['Boston']]);
    const { sql } = await db.ask('Which course has the highest enrollment?');
    expect(sql).toContain('ORDER BY t1."num_enrolled" DESC');
  });

  it('gives a value after "from" or "to" to the column named for that role', async () => {
    const { sql, rows } = await db.ask('fares from LAX to ORD');
    expect(sql).toContain(`"from_airport" = 'LAX'`);
    expect(sql).toContain(`"to_airport" = 'ORD'`);
    expect(rows).toEqual([[1, 'LAX', 'ORD', 300]]);
  });

  it('reads "A or B" between values of one column as a list, and refuses "or" across columns', async () => {
    const { sql, rows } = await db.ask('restaurants serving Italian or Chinese food in Boston');
    expect(sql).toContain(`IN ('Italian', 'Chinese')`);
    expect(rows).toHaveLength(2);
    await expect(db.ask('restaurants serving Italian food or in Denver')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });

  it('breaks ties of a ranked count by the group values, so the same question gives the same row', async () => {
    // Every altitude but one appears once; the tie between the others is broken by value.
    const { sql } = await db.ask('Which mountain altitude is the most common?');
    expect(sql).toMatch(/ORDER BY count\(\*\) DESC, t1\."mountain_altitude" ASC LIMIT 1$/);
  });

  it(
    'counts the rows meeting a condition on a count of related rows ("airlines with more than 1 ' + 'flight")',
    async () => {
      const { sql, rows } = await db.ask('How many airlines have more than 1 flight?');
      expect(sql).toMatch(/HAVING count\(DISTINCT t\d\."flight_id"\) > 1\) AS matching$/);
      expect(rows).toEqual([[2]]);
      expect((await db.ask('ratio of airlines with more than 1 flight to airlines')).rows).toEqual([[2 / 3]]);
    },
  );

  it(
    "groups by the counted table's own reference when it holds the group's label (\"lakes in each " + 'state")',
    async () => {
      const { sql, rows } = await db.ask('How many lakes are there in each state?');
      expect(sql).not.toContain('JOIN');
      // A lake whose state is not in the state table is still counted.
      expect(rows).toEqual(
        expect.arrayContaining([
          ['Ohio', 2],
          ['Atlantis', 1],
        ]),
      );
      // With a condition on the state table, the join stays.
      expect((await db.ask('How many lakes are there in each state with area over 150?')).sql).toContain('JOIN');
    },
  );

  it('counts per row asked with "Which X ..., and how many Y"', async () => {
    const { rows } = await db.ask('Which businesses are in Austin and how many reviews do they have?');
    expect(rows).toEqual(
      expect.arrayContaining([
        ['Joe', 2],
        ['Ann', 1],
      ]),
    );
  });

  it('shows a second column of the rows grouped by their label, with their key grouped by too', async () => {
    const top = await db.ask('Show the business name and city with the fewest reviews');
    expect(top.sql).toContain('"business_id"');
    expect(top.rows).toEqual([['Ann', 'Austin']]);
  });

  it('reads "<column> is not <value>" as `<>` that value, and refuses a negated list of values', async () => {
    const other = await db.ask('names of restaurants whose food type is not Italian');
    expect(other.sql).toContain(`"food_type" <> 'Italian'`);
    expect(other.rows).toEqual([['Wok']]);
    // "!=" reads as "not".
    expect((await db.ask("names of restaurants whose food type != 'Chinese'")).rows).toHaveLength(2);
    await expect(db.ask('restaurants whose food type is not Italian or Chinese')).rejects.toMatchObject({
      name: 'NotUnderstood',
    });
  });
});

const moreDdl =
  `
CREATE TABLE program (program_id INTEGER, name VARCHAR);
INSERT INTO program VALUES (1, 'Computer Science'), (2, 'Physics');
CREATE TABLE course (course_id INTEGER, name VARCHAR, department VARCHAR, easiness_score INTEGER, clarity_score ` +
  `INTEGER, program_id INTEGER);
INSERT INTO course VALUES (1, 'Databases', 'Computer Science', 3, 5, 1), (2, 'Optics', 'Physics', 4, 2, 2), (3, ` +
  `'Compilers', 'Computer Science', 1, 4, 2);
CREATE TABLE state (state_name VARCHAR, area INTEGER);
INSERT INTO state VALUES ('Ohio', 100), ('Utah', 2000);
CREATE TABLE lake (lake_name VARCHAR, area INTEGER, state_name VARCHAR);
INSERT INTO lake VALUES ('Erie', 5000, 'Ohio'), ('Salt', 10, 'Utah');
CREATE TABLE customer (id INTEGER, name VARCHAR, state VARCHAR);
INSERT INTO customer VALUES (1, 'Ann', 'NY'), (2, 'Bob', 'TX'), (3, 'Cy', 'NY');
CREATE TABLE sale (id INTEGER, customer_id INTEGER, sale_price DECIMAL(10, 2), sale_date DATE);
INSERT INTO sale VALUES (1, 1, 100, DATE '2023-01-05'), (2, 2, 50, DATE '2023-02-01'), (3, 3, 25, DATE ` +
  `'2023-04-10'), (4, 1, 10, DATE '2022-12-31');
CREATE TABLE business (business_id VARCHAR, name VARCHAR, review_count INTEGER);
INSERT INTO business VALUES ('b1', 'Joe', 5), ('b2', 'Ann', 9), ('b3', 'Sue', 1);
`;

describe('question patterns that pick columns by their neighbours', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('more', moreDdl, [
      ['course.program_id', 'program.program_id'],
      ['lake.state_name', 'state.state_name'],
      ['sale.customer_id', 'customer.id'],
    ]);
  });
  afterAll(() => db.close());

  it('reads "not higher than" as the opposite bound, and "in terms of" as what a top-N ranks by', async () => {
    expect((await db.ask('courses whose easiness score is not higher than 3')).sql).toContain(
      `t1."easiness_score" <= 3`,
    );
    expect((await db.ask('What are the top 2 businesses in terms of review count?')).rows.map((r) => r[1])).toEqual([
      'Ann',
      'Joe',
    ]);
  });

  it('gives a value before a table name, and a column after "<table> with a", to that table', async () => {
    // "Computer Science" is also a department: "the Computer Science program" is the program's.
    expect((await db.ask('How many courses are in the Computer Science program?')).sql).toContain(
      `t2."name" = 'Computer Science'`,
    );
    expect((await db.ask('Which lakes are in states with an area greater than 1000?')).rows.map((r) => r[0])).toEqual([
      'Salt',
    ]);
  });

  it(
    'reads a word naming a column named before as that column, and "show both X and Y" as naming the ' + 'rows',
    async () => {
      const { sql, rows } = await db.ask(
        'What are the easiness scores for courses in the Physics department? Show both courses and scores.',
      );
      expect(sql).not.toContain('clarity_score');
      expect(rows).toEqual([['Optics', 4]]);
    },
  );

  it('totals the amount of a table named after "total", grouped by a date unit and "grouped by" a column', async () => {
    const { rows } = await db.ask("What were the total quarterly sales in 2023 grouped by customer's state?");
    expect(rows).toEqual(
      await db.rows(
        `SELECT CAST(date_trunc('quarter', sale_date) AS DATE), c.state, sum(sale_price) FROM sale JOIN ` +
          `customer c ON c.id = customer_id WHERE year(sale_date) = 2023 GROUP BY 1, 2 ORDER BY 1, 2`,
      ),
    );
  });

  it('refuses "total" over a table with no amount, and a negated equality', async () => {
    await expect(db.ask('total programs')).rejects.toMatchObject({ name: 'NotUnderstood' });
    await expect(db.ask('courses whose easiness score is not 3')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });
});

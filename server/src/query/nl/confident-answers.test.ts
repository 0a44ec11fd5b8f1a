import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmbiguousQuestion, NotUnderstood, toHttpError } from '../../core/domain-errors.js';
import type { SqlResult } from '../../contract/index.js';
import { EmbeddedTranslator } from './embedded-translator.js';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// Issue 21's patterns over a logistics schema: tables with columns of the same name (country, city), a value in two
// tables (Malmö), yes/no columns, a nullable segment.
const ddl = `
CREATE TABLE warehouses (id INTEGER, name VARCHAR, city VARCHAR, country VARCHAR, capacity INTEGER, bonded BOOLEAN);
INSERT INTO warehouses VALUES (1, 'Harbour', 'Malmö', 'SE', 40, true), (2, 'North', 'Göteborg', 'SE', 55, false),
  (3, 'Alna', 'Oslo', 'NO', 28, true);
CREATE TABLE customers (id INTEGER, name VARCHAR, country VARCHAR, segment VARCHAR, credit_limit INTEGER);
INSERT INTO customers VALUES (1, 'Alder', 'SE', 'retail', 500), (2, 'Birch', 'NO', NULL, 900),
  (3, 'Cedar', 'SE', NULL, 700), (4, 'Dune', 'DK', 'retail', 300);
CREATE TABLE shipments (id INTEGER, customer_id INTEGER, warehouse_id INTEGER, dest_city VARCHAR,
  declared_value DOUBLE, priority BOOLEAN, status VARCHAR);
INSERT INTO shipments VALUES (1, 1, 1, 'Malmö', 100, true, 'delivered'), (2, 1, 2, 'Riga', 50, false, 'lost'),
  (3, 2, 3, 'Riga', 400, true, 'delivered'), (4, 3, 1, 'Malmö', 10, false, 'returned'),
  (5, 4, 2, 'Vilnius', 30, true, 'delivered');
CREATE TABLE claims (id INTEGER, shipment_id INTEGER, amount DOUBLE, status VARCHAR);
INSERT INTO claims VALUES (1, 1, 20, 'approved'), (2, 2, 50, 'rejected'), (3, 3, 5, 'approved'),
  (4, 4, 8, 'pending');
`;
const relationships: [string, string][] = [
  ['shipments.customer_id', 'customers.id'],
  ['shipments.warehouse_id', 'warehouses.id'],
  ['claims.shipment_id', 'shipments.id'],
];

describe('answers that are never confidently wrong (issue 21)', () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('logistics', ddl, relationships);
  });
  afterAll(() => db.close());

  const refusal = async (question: string): Promise<NotUnderstood> => {
    const error: unknown = await db.ask(question).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, question).toBeInstanceOf(NotUnderstood);
    return error as NotUnderstood;
  };

  it("links a column or value to the named table's own before one further along the joins", async () => {
    const se = await db.ask('Which warehouses are in country SE?');
    expect(se.sql).not.toMatch(/JOIN/);
    expect(se.rows.map((r) => r[1]).sort()).toEqual(['Harbour', 'North']);
    expect((await db.ask('How many warehouses are in Malmö?')).rows).toEqual([[1]]);
    expect((await db.ask('How many shipments go to Malmö?')).rows).toEqual([[2]]);
    expect((await db.ask('How many customers are in country NO?')).rows).toEqual([[1]]);
  });

  it('answers 422 NL_AMBIGUOUS naming both candidates when two tables fit equally well', async () => {
    const error = await refusal('How many are in Malmö?');
    expect(error).toBeInstanceOf(AmbiguousQuestion);
    expect((error as AmbiguousQuestion).candidates.sort()).toEqual(['shipments.dest_city', 'warehouses.city']);
    const body = toHttpError(error)?.body();
    expect(body).toMatchObject({ code: 'NL_AMBIGUOUS', candidates: expect.arrayContaining(['warehouses.city']) });
    expect(String(body?.detail)).toMatch(/Did you mean shipments\.dest_city or warehouses\.city\?/);
    expect(toHttpError(error)?.status).toBe(422);
  });

  it('reads a yes/no column used as an adjective as a filter and counts the rows', async () => {
    expect((await db.ask('How many priority shipments are there?')).rows).toEqual([[3]]);
    expect((await db.ask('How many shipments are priority?')).rows).toEqual([[3]]);
    expect((await db.ask('How many bonded warehouses are there?')).rows).toEqual([[2]]);
    expect((await db.ask('How many priority shipments were delivered?')).rows).toEqual([[3]]);
  });

  it('groups "top N X by <aggregate> of Y" by X and ranks by the aggregate', async () => {
    const top = await db.ask('What are the top 2 customers by total declared value of shipments?');
    expect(top.rows).toEqual([
      ['Birch', 400],
      ['Alder', 150],
    ]);
    const claims = await db.ask('What are the top 1 warehouses by total claim amount?');
    expect(claims.rows).toEqual([['North', 50]]);
  });

  it('reads "which 2 X have the highest Y" as a top-N listing X', async () => {
    const { rows } = await db.ask('Which 2 customers have the highest credit limit?');
    expect(rows.map((r) => r[1])).toEqual(['Birch', 'Cedar']);
  });

  it('answers "what percentage of X are Y" as a share of rows, and refuses one with no condition', async () => {
    expect((await db.ask('What percentage of claims are approved?')).rows).toEqual([[50]]);
    expect((await db.ask('What percentage of shipments are priority?')).rows).toEqual([[60]]);
    expect((await refusal('What percentage of claims are there?')).reason).toMatch(/which condition/);
  });

  it('reads "no <column>" as IS NULL, and "no" as a value elsewhere', async () => {
    expect((await db.ask('How many customers have no segment?')).rows).toEqual([[2]]);
    expect((await db.ask('How many customers in country SE have no segment?')).rows).toEqual([[1]]);
    expect((await db.ask('How many customers are without a segment?')).rows).toEqual([[2]]);
    expect((await db.ask('How many customers are in country NO?')).rows).toEqual([[1]]);
  });

  it('refuses a plan that does not answer the form of the question', async () => {
    // A count of the different values of a column the question fixes to one value is 1 whatever the data.
    expect((await refusal('How many priority are there?')).reason).toMatch(/fixes to one value/);
    // "which X have <column>" is a condition on X that was not read, not a column to show.
    expect((await refusal('Which customers have the segment?')).reason).toMatch(/requires of customers/);
    // With "a", it is read: the customers whose segment has a value (plan-filters.ts).
    expect((await db.ask('Which customers have a segment?')).sql).toMatch(/WHERE t1\."segment" IS NOT NULL$/);
    // A number of another table with many rows per customer, which no word names, is not the customers' own.
    expect((await refusal('What is the average declared value of customers?')).reason).toMatch(/many rows for each/);
    expect((await db.ask('What is the average shipment declared value of customers?')).rows).toEqual([[118]]);
  });
});

describe('values the sample missed', () => {
  it('looks a phrase up in the source once, bounded, and links the value found', async () => {
    const db = await smallDatabase('logistics', ddl, relationships);
    try {
      const names = db.schema.tables.find((t) => t.name === 'customers')!.columns.find((c) => c.name === 'name')!;
      names.values = names.values.filter((v) => v !== 'Cedar');
      names.valuesCut = true;
      const lookups: string[] = [];
      const lookup = async (sql: string): Promise<SqlResult> => {
        lookups.push(sql);
        const rows = await db.rows(sql);
        return { columns: [], rows: [Object.fromEntries(rows[0].map((v, k) => [`v${k}`, v]))] } as unknown as SqlResult;
      };
      const translator = new EmbeddedTranslator();
      const check = async (): Promise<void> => undefined;
      const ask = (q: string) => translator.translate(q, db.schema, check, lookup);
      const { sql } = await ask('What is the credit limit of Cedar?');
      expect(await db.rows(sql)).toEqual([[700]]);
      expect(lookups).toHaveLength(1);
      expect(lookups[0]).toMatch(/lower\("name"\) = 'cedar' LIMIT 1/);
      await ask('What is the credit limit of Cedar?');
      // An unknown phrase is refused, and asked of the source only once.
      await expect(ask('What is the credit limit of Nowhere Ltd?')).rejects.toBeInstanceOf(NotUnderstood);
      await expect(ask('What is the credit limit of Nowhere Ltd?')).rejects.toBeInstanceOf(NotUnderstood);
      expect(lookups).toHaveLength(2);
      // Without a lookup (or with a source that fails) the question is refused, not an error.
      await expect(new EmbeddedTranslator().translate('credit limit of Zed', db.schema, check)).rejects.toBeInstanceOf(
        NotUnderstood,
      );
      const failing = async (): Promise<SqlResult> => Promise.reject(new Error('source down'));
      await expect(
        new EmbeddedTranslator().translate('credit limit of Zed', db.schema, check, failing),
      ).rejects.toBeInstanceOf(NotUnderstood);
    } finally {
      db.close();
    }
  });
});

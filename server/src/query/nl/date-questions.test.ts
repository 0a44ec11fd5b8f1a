import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryService } from '../query-service.js';
import { copyExampleWorkspace } from '../test-support/query-fixtures.js';
import type { NaturalLanguageService } from './natural-language-service.js';
import { naturalLanguageServices, rowValues } from './test-support/nl-services.js';

/** Date questions over the example workspace: orders (`ordered_at`, 2024) and customers (`signup_date`, 2023). */
describe('date questions over the example workspace', () => {
  let workspace: string;
  let service: QueryService;
  let nl: NaturalLanguageService;
  /** The translation of `question` and its rows, as values in column order. */
  const ask = async (question: string): Promise<{ sql: string; rows: unknown[][] }> => {
    const { generated_query, outcome } = await nl.ask(question);
    return { sql: generated_query, rows: rowValues(outcome) };
  };
  const rows = async (sql: string): Promise<unknown[][]> => rowValues(await service.sql(sql));
  const refused = async (question: string): Promise<string> => {
    const error = await nl.ask(question).then(
      () => undefined,
      (e: unknown) => e as { name: string; message: string },
    );
    expect(error?.name, question).toBe('NotUnderstood');
    return error!.message;
  };

  beforeAll(async () => {
    workspace = copyExampleWorkspace();
    const file = path.join(workspace, 'query', 'sources.yaml');
    ({ service, nl } = await naturalLanguageServices(file, fs.mkdtempSync(path.join(os.tmpdir(), 'aw-nl-dates-'))));
  }, 60_000);
  afterAll(async () => {
    await service.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('groups by calendar units: "per month", "quarterly", "which month ... the most"', async () => {
    const monthly = await ask('How many orders per month?');
    expect(monthly.sql).toContain(`CAST(date_trunc('month', t1."ordered_at") AS DATE) AS "month"`);
    expect(monthly.rows).toEqual(
      await rows(
        `SELECT CAST(date_trunc('month', ordered_at) AS DATE), count(*) FROM shop.orders GROUP BY 1 ORDER BY 1`,
      ),
    );
    const quarterly = await ask('What is the quarterly total revenue?');
    expect(quarterly.rows).toEqual(
      await rows(
        `SELECT CAST(date_trunc('quarter', ordered_at) AS DATE), sum(amount) FROM shop.orders GROUP BY 1 ORDER BY 1`,
      ),
    );
    const busiest = await ask('Which month had the most orders? Return the month as a date and the number of orders.');
    expect(busiest.rows).toEqual(
      await rows(
        `SELECT CAST(date_trunc('month', ordered_at) AS DATE) AS m, count(*) AS n FROM shop.orders GROUP BY 1 ` +
          `ORDER BY n DESC, m LIMIT 1`,
      ),
    );
    // The unit a question names is a column where the table has one (`month` of names, see date-names.test.ts), else a
    // truncation.
    expect((await ask('How many customers signed up each week?')).sql).toContain(
      `date_trunc('week', t1."signup_date")`,
    );
  });

  it('refuses a date grouping with nothing to count, and "as a date" with no grouping', async () => {
    expect(await refused('orders per month')).toMatch(/per month/);
    expect(await refused('How many customers? Give the answer as a date')).toMatch(/as a date/);
  });

  it('filters quarters, ranges of months and whole calendar units before the current one', async () => {
    const q1 = await ask('total revenue in the 1st quarter of 2024');
    expect(q1.rows).toEqual(
      await rows(
        `SELECT sum(amount) FROM shop.orders WHERE ordered_at >= DATE '2024-01-01' AND ordered_at < DATE '2024-04-01'`,
      ),
    );
    expect((await ask('How many orders in Q2 2024?')).rows).toEqual(
      await rows(
        `SELECT count(*) FROM shop.orders WHERE ordered_at >= DATE '2024-04-01' AND ordered_at < DATE '2024-07-01'`,
      ),
    );
    const range = await ask('How many customers signed up between March 2023 and May 2023?');
    expect(range.rows).toEqual(
      await rows(
        `SELECT count(*) FROM shop.customers WHERE signup_date >= DATE '2023-03-01' AND signup_date < DATE ` +
          `'2023-06-01'`,
      ),
    );
    const previous = await ask('How many orders in the previous week?');
    expect(previous.sql).toContain(
      `t1."ordered_at" >= date_trunc('week', current_date) - INTERVAL 1 WEEK AND t1."ordered_at" < ` +
        `date_trunc('week', current_date)`,
    );
    const excluded = await ask('How many orders in the last 3 months not including the current month?');
    expect(excluded.sql).toContain(
      `>= date_trunc('month', current_date) - INTERVAL 3 MONTH AND t1."ordered_at" < date_trunc('month', current_date)`,
    );
    expect((await ask('How many customers signed up this year?')).sql).toContain(
      `< date_trunc('year', current_date) + INTERVAL 1 YEAR`,
    );
    // A rolling window stays one, in calendar units.
    expect((await ask('How many orders in the last 6 months?')).sql).toContain(
      `t1."ordered_at" >= current_date - INTERVAL 6 MONTH`,
    );
  });

  it('refuses two separate periods, which one WHERE cannot hold', async () => {
    expect(await refused('How many orders in March 2024 and in June 2024?')).toMatch(/two periods/);
  });

  it('reads days of the week, "N years ago" and the days since the latest date', async () => {
    const weekends = await ask('How many orders were placed on weekends?');
    expect(weekends.sql).toContain(`dayofweek(t1."ordered_at") IN (0, 6)`);
    expect(weekends.rows).toEqual(await rows(`SELECT count(*) FROM shop.orders WHERE dayofweek(ordered_at) IN (0, 6)`));
    const mondays = await ask('total revenue on Mondays');
    expect(mondays.rows).toEqual(await rows(`SELECT sum(amount) FROM shop.orders WHERE dayofweek(ordered_at) = 1`));
    const ago = await ask('How many customers signed up 3 years ago?');
    expect(ago.rows).toEqual(
      await rows(`SELECT count(*) FROM shop.customers WHERE year(signup_date) = year(current_date) - 3`),
    );
    const since = await ask('How many days since the last order?');
    expect(since.sql).toContain(`date_diff('day', max(t1."ordered_at"), current_date)`);
    expect(since.rows).toEqual(await rows(`SELECT date_diff('day', max(ordered_at), current_date) FROM shop.orders`));
    expect((await ask('How long has it been since the latest signup? Give the answer as an integer.')).rows).toEqual(
      await rows(`SELECT date_diff('day', max(signup_date), current_date) FROM shop.customers`),
    );
  });

  it('refuses "in days" with no days to count, and keeps hostile text out of date phrases', async () => {
    expect(await refused('How many customers in days?')).toMatch(/in days/);
    expect(await refused(`How many orders on weekends'; DROP TABLE shop.orders; --`)).toMatch(/drop/);
    expect(await rows('SELECT count(*) FROM shop.orders')).toEqual([[1500]]);
  });
});

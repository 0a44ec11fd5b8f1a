import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../main/app.js';
import { loadConfig } from '../../core/config.js';
import { SqlParser } from '../engine/sql-parser.js';
import { copyExampleWorkspace } from '../test-support/query-fixtures.js';

const url = '/api/v1/query/natural-language';

interface NlBody {
  answer: string;
  generated_query: string;
  results: Record<string, unknown>[];
  columns: { name: string; type: string }[];
  detail?: string;
  code?: string;
}

async function start(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const workspace = copyExampleWorkspace();
  const config = loadConfig(
    {
      HOT_RELOAD: 'false',
      LOG_LEVEL: 'silent',
      DATA_DIR: `${workspace}/.adaptive`,
      ...env,
    },
    { workspace },
  );
  const app = await buildServer(config, { logger: pino({ level: 'silent' }) });
  await app.ready();
  return app;
}

async function ask(app: FastifyInstance, question: unknown): Promise<{ status: number; body: NlBody }> {
  const response = await app.inject({
    method: 'POST',
    url,
    payload: { question },
  });
  return { status: response.statusCode, body: response.json<NlBody>() };
}

/** The rows of a plain SQL query, to compare a translation's results with. */
async function sql(app: FastifyInstance, query: string): Promise<Record<string, unknown>[]> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/query/sql',
    payload: { query },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ rows: Record<string, unknown>[] }>().rows;
}

describe('embedded translator over the example workspace', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await start();
  }, 60_000);
  afterAll(async () => app.close());

  it('counts rows: "how many"', async () => {
    const { status, body } = await ask(app, 'How many customers are there?');
    expect(status).toBe(200);
    expect(body.generated_query).toMatch(/count\(\*\)/i);
    const [expected] = await sql(app, 'SELECT count(*) AS n FROM shop.customers');
    expect(body.results).toEqual([{ count: expected.n }]);
    // The question's words lead, then what the query counted.
    expect(body.answer).toBe(`"How many customers": the number of customers is ${expected.n}.`);
  });

  it('filters on a sampled value through a synonym: "in Europe" is region = \'EU\'', async () => {
    const { status, body } = await ask(app, 'How many customers are in Europe?');
    expect(status).toBe(200);
    expect(body.generated_query).toContain(`"region" = 'EU'`);
    const [expected] = await sql(app, "SELECT count(*) AS n FROM shop.customers WHERE region = 'EU'");
    expect(body.results[0].count).toBe(expected.n);
    expect(body.answer).toContain('region is EU');
  });

  it('filters on a value found in the sampled data (no synonym)', async () => {
    const { body } = await ask(app, 'count of orders where status is refunded');
    const [expected] = await sql(app, "SELECT count(*) AS n FROM shop.orders WHERE status = 'refunded'");
    expect(body.results).toEqual([{ count: expected.n }]);
  });

  it('averages per group across a join: "average order amount by region"', async () => {
    const { status, body } = await ask(app, 'What is the average order amount by region?');
    expect(status).toBe(200);
    expect(body.generated_query).toMatch(/JOIN "shop"."customers"/);
    const expected = await sql(
      app,
      'SELECT c.region, avg(o.amount) AS a FROM shop.orders o JOIN shop.customers c ON o.customer_id = c.id ' +
        'GROUP BY c.region ORDER BY a DESC',
    );
    expect(body.results.map((r) => [r.region, r.avg_amount])).toEqual(expected.map((r) => [r.region, r.a]));
    expect(body.answer).toMatch(
      /^"Average order amount by region": average amount by region \(4 groups\): [A-Z]+: [\d.,]+; /,
    );
  });

  it('sums per group across sources: "total revenue per product category"', async () => {
    const { body } = await ask(app, 'Total revenue per product category');
    expect(body.generated_query).toMatch(/sum\(t1."amount"\)/);
    expect(body.generated_query).toMatch(/JOIN "lake"."products"/);
    const expected = await sql(
      app,
      'SELECT p.category, sum(o.amount) AS s FROM shop.orders o JOIN lake.products p ON o.product_id = ' +
        'p.product_id GROUP BY p.category ORDER BY s DESC',
    );
    expect(body.results.map((r) => [r.category, r.sum_amount])).toEqual(expected.map((r) => [r.category, r.s]));
    // The sum of a DECIMAL column is a string in JSON (for its precision); its column type says DECIMAL.
    expect(typeof body.results[0].sum_amount).toBe('string');
    expect(body.columns).toEqual([
      { name: 'category', type: 'VARCHAR' },
      { name: 'sum_amount', type: 'DECIMAL(38,2)' },
    ]);
  });

  it('takes minimum and maximum', async () => {
    const max = await ask(app, 'What is the maximum price of books?');
    const [expected] = await sql(app, "SELECT max(price) AS m FROM lake.products WHERE category = 'books'");
    expect(max.body.results).toEqual([{ max_price: expected.m }]);
    const min = await ask(app, 'minimum quantity of orders');
    expect(min.body.generated_query).toMatch(/min\(t1."quantity"\)/);
  });

  it('groups "for each" and "per" with counts', async () => {
    const { body } = await ask(app, 'number of clicks for each action');
    const expected = await sql(app, 'SELECT action, count(*) AS n FROM events.clicks GROUP BY action ORDER BY n DESC');
    expect(body.results.map((r) => [r.action, r.count])).toEqual(expected.map((r) => [r.action, r.n]));
    const perCustomer = await ask(app, 'how many orders per customer');
    expect(perCustomer.body.generated_query).toMatch(/GROUP BY t2."id", t2."name"/);
  });

  it('compares numbers: "over 100", "at least", "between"', async () => {
    const over = await ask(app, 'How many orders over 100?');
    expect(over.body.generated_query).toContain('t1."amount" > 100');
    const [expected] = await sql(app, 'SELECT count(*) AS n FROM shop.orders WHERE amount > 100');
    expect(over.body.results[0].count).toBe(expected.n);
    expect((await ask(app, 'orders with quantity at least 4')).body.generated_query).toContain('t1."quantity" >= 4');
    expect((await ask(app, 'orders between 100 and 200')).body.generated_query).toContain('BETWEEN 100 AND 200');
  });

  it('compares with the average: "above the average"', async () => {
    const { body } = await ask(app, 'products with price above the average');
    expect(body.generated_query).toBe(
      'SELECT t1.* FROM "lake"."products" AS t1 WHERE t1."price" > (SELECT avg("price") FROM "lake"."products")',
    );
    const expected = await sql(
      app,
      'SELECT count(*) AS n FROM lake.products WHERE price > (SELECT avg(price) FROM lake.products)',
    );
    expect(body.results).toHaveLength(Number(expected[0].n));
  });

  it('reads comparatives that imply their column: "cheaper than 20"', async () => {
    const { body } = await ask(app, 'How many products are cheaper than 20?');
    expect(body.generated_query).toBe('SELECT count(*) AS "count" FROM "lake"."products" AS t1 WHERE t1."price" < 20');
  });

  it('reads date ranges: a year, a month, the last N days', async () => {
    const year = await ask(app, 'How many customers signed up in 2023?');
    expect(year.body.generated_query).toContain('year(t1."signup_date") = 2023');
    const month = await ask(app, 'shipped orders in March 2024');
    expect(month.body.generated_query).toContain(
      `t1."ordered_at" >= DATE '2024-03-01' AND t1."ordered_at" < DATE '2024-04-01'`,
    );
    const [expected] = await sql(
      app,
      "SELECT count(*) AS n FROM shop.orders WHERE status = 'shipped' AND ordered_at >= DATE '2024-03-01' AND " +
        "ordered_at < DATE '2024-04-01'",
    );
    expect(month.body.results).toHaveLength(Number(expected.n));
    const recent = await ask(app, 'How many orders in the last 30 days?');
    expect(recent.body.generated_query).toContain('current_date - INTERVAL 30 DAY');
  });

  it('ranks: top-N, superlatives, explicit ordering', async () => {
    const top = await ask(app, 'top 5 products by price');
    expect(top.body.generated_query).toMatch(/ORDER BY t1."price" DESC NULLS LAST LIMIT 5$/);
    expect(top.body.results).toHaveLength(5);
    const highest = await ask(app, 'Which product has the highest price?');
    const [expected] = await sql(app, 'SELECT max(price) AS m FROM lake.products');
    expect(highest.body.results[0].price).toBe(expected.m);
    expect(highest.body.answer).toMatch(/^"Which product has the highest price": one row matches: /);
    const revenue = await ask(app, 'top 3 customers by revenue');
    expect(revenue.body.generated_query).toMatch(/sum\(t\d."amount"\).*LIMIT 3$/);
    const ordered = await ask(app, 'list customers in Europe ordered by name');
    const names = ordered.body.results.map((r) => String(r.name));
    expect(names).toEqual([...names].sort());
  });

  it('puts count conditions in HAVING and ranks groups by their count', async () => {
    const having = await ask(app, 'Which regions have more than 25 customers?');
    expect(having.body.generated_query).toBe(
      'SELECT t1."region" FROM "shop"."customers" AS t1 GROUP BY t1."region" HAVING count(*) > 25',
    );
    const expected = await sql(app, 'SELECT region FROM shop.customers GROUP BY region HAVING count(*) > 25');
    expect(having.body.results.map((r) => r.region).sort()).toEqual(expected.map((r) => r.region).sort());
    const perEntity = await ask(app, 'Which customers have 3 or more orders?');
    expect(perEntity.body.generated_query).toMatch(
      /GROUP BY t1."name", t1."id" HAVING count\(DISTINCT t2."id"\) >= 3$/,
    );
    const common = await ask(app, 'What is the most common status of orders?');
    expect(common.body.generated_query).toBe(
      'SELECT t1."status" FROM "shop"."orders" AS t1 GROUP BY t1."status" ORDER BY count(*) DESC, t1."status" ' +
        'ASC LIMIT 1',
    );
    expect(common.body.answer).toMatch(/: the status is \w+\.$/);
  });

  it('orders without aggregating: "sort ... by", "in descending order of", "customers by region"', async () => {
    expect((await ask(app, 'Sort customer names by their signup date')).body.generated_query).toBe(
      'SELECT t1."name" FROM "shop"."customers" AS t1 ORDER BY t1."signup_date" ASC',
    );
    expect((await ask(app, 'list products in descending order of price')).body.generated_query).toMatch(
      /ORDER BY t1."price" DESC$/,
    );
    expect((await ask(app, 'customers by region')).body.generated_query).toMatch(/ORDER BY t1."region"$/);
  });

  it('refuses two values of one column and contradictory ranges', async () => {
    const values = await ask(app, 'orders from shipped to paid');
    expect(values.status).toBe(422);
    expect(values.body.detail).toMatch(/cannot both hold/);
    const ranges = await ask(app, 'orders with amount over 500 and amount under 100');
    expect(ranges.status).toBe(422);
  });

  it('reads ontology labels as words for columns ("region code" labels customers.region in ontology.ttl)', async () => {
    const { status, body } = await ask(app, 'How many customers per region code?');
    expect(status).toBe(200);
    expect(body.generated_query).toBe(
      'SELECT t1."region", count(*) AS "count" FROM "shop"."customers" AS t1 GROUP BY t1."region" ORDER BY ' +
        '"count" DESC',
    );
  });

  it('says so when nothing matches', async () => {
    const { status, body } = await ask(app, 'orders over 1000000');
    expect(status).toBe(200);
    expect(body.results).toEqual([]);
    expect(body.answer).toBe('No rows match the question.');
  });

  it('refuses a question it cannot link with 422 naming the words and the known tables', async () => {
    const { status, body } = await ask(app, 'how many unicorns are there');
    expect(status).toBe(422);
    expect(body.code).toBe('NL_NOT_UNDERSTOOD');
    expect(body.detail).toContain('"unicorns"');
    expect(body.detail).toContain('shop.customers');
    expect(body.detail).toContain('events.clicks');
  });

  it('refuses negations rather than answering them wrongly', async () => {
    const { status, body } = await ask(app, 'Which customers have not ordered?');
    expect(status).toBe(422);
    expect(body.detail).toContain('"not"');
  });

  it('refuses an aggregate it cannot place', async () => {
    const { status, body } = await ask(app, 'average of customers');
    expect(status).toBe(422);
    expect(body.detail).toMatch(/which number/);
  });
});

describe('hostile input', () => {
  let app: FastifyInstance;
  let parser: SqlParser;
  beforeAll(async () => {
    app = await start();
    parser = await SqlParser.create();
  }, 60_000);
  afterAll(async () => {
    parser.close();
    await app.close();
  });

  it('answers 400 to a missing, empty or non-string question', async () => {
    for (const payload of [
      {},
      { question: '' },
      { question: 42 },
      { question: ['how many customers'] },
      { question: null },
    ]) {
      const response = await app.inject({ method: 'POST', url, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toHaveProperty('detail');
    }
    const notJson = await app.inject({
      method: 'POST',
      url,
      payload: 'how many customers',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.statusCode).toBeGreaterThanOrEqual(400);
    expect(notJson.statusCode).toBeLessThan(500);
  });

  it('answers 413 to a huge question without translating it', async () => {
    const { status, body } = await ask(app, 'how many customers '.repeat(20_000));
    expect(status).toBe(413);
    expect(body).toMatchObject({ detail: expect.stringMatching(/limit/), code: 'NL_QUESTION_TOO_LONG' });
  });

  it('never turns SQL in a question into anything but one SELECT with escaped literals', async () => {
    const attacks = [
      "how many customers'; DROP TABLE shop.customers; --",
      'customers in Europe; DELETE FROM shop.orders',
      "orders where status is 'paid' OR 1=1 --",
      "customers in EU' UNION SELECT * FROM shop.orders --",
      "COPY shop.customers TO '/tmp/x.csv'",
      'ATTACH DATABASE ":memory:" AS x',
      'how many orders over 100; INSTALL httpfs',
      'how many customers in Europe\u0000 drop',
    ];
    for (const question of attacks) {
      const { status, body } = await ask(app, question);
      expect([200, 422]).toContain(status);
      if (status === 200) {
        await expect(parser.parse(body.generated_query)).resolves.toBeDefined();
        expect(body.generated_query).toMatch(/^SELECT /);
        expect(body.generated_query).not.toMatch(/DROP|DELETE|UNION|COPY|ATTACH|INSTALL|1=1/i);
      } else expect(body.detail).toMatch(/Could not link/);
    }
  });

  it('escapes a sampled value that holds a quote', async () => {
    const { EmbeddedTranslator } = await import('./embedded-translator.js');
    const table = {
      source: 'shop',
      name: 'people',
      key: 'shop.people',
      columns: [
        {
          name: 'name',
          type: 'VARCHAR',
          kind: 'text' as const,
          values: ["O'Brien"],
        },
      ],
    };
    const translation = await new EmbeddedTranslator().translate(
      "how many people named O'Brien",
      { tables: [table], relationships: [], synonyms: [] },
      async (s) => void (await parser.parse(s)),
    );
    expect(translation.sql).toContain(`"name" = 'O''Brien'`);
  });
});

/** A chat-completions server that answers with `replies` in turn and records every request body. */
async function fakeLlm(replies: string[]): Promise<{
  url: string;
  requests: { messages: { role: string; content: string }[]; model: string }[];
  close(): Promise<void>;
}> {
  const requests: {
    messages: { role: string; content: string }[];
    model: string;
  }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.headers.authorization !== 'Bearer test-key') {
        res.writeHead(404).end();
        return;
      }
      requests.push(JSON.parse(text) as (typeof requests)[number]);
      const content = replies[Math.min(requests.length - 1, replies.length - 1)];
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: 'assistant', content } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('LLM translator (OpenAI-compatible chat completions)', () => {
  it('prompts with the schema and sample values, and retries once with the error of an invalid statement', async () => {
    const llm = await fakeLlm([
      'Sure: ```sql\nDELETE FROM shop.orders\n```',
      "```sql\nSELECT count(*) AS n FROM shop.customers WHERE region = 'EU'\n```",
    ]);
    const app = await start({
      NL_LLM_BASE_URL: llm.url,
      NL_LLM_MODEL: 'test-model',
      NL_LLM_API_KEY: 'test-key',
    });
    try {
      const { status, body } = await ask(app, 'How many European customers?');
      expect(status).toBe(200);
      expect(body.generated_query).toBe("SELECT count(*) AS n FROM shop.customers WHERE region = 'EU'");
      expect(body.results).toHaveLength(1);
      expect(body.answer).toMatch(/^The n is \d+\.$/);
      expect(llm.requests).toHaveLength(2);
      expect(llm.requests[0].model).toBe('test-model');
      const prompt = llm.requests[0].messages.map((m) => m.content).join('\n');
      expect(prompt).toContain('shop.customers(');
      expect(prompt).toContain('"EU"');
      expect(prompt).toContain('How many European customers?');
      const retry = llm.requests[1].messages.at(-1)!.content;
      expect(retry).toMatch(/Only SELECT/);
    } finally {
      await app.close();
      await llm.close();
    }
  }, 60_000);

  it('retries a statement that fails to run, then gives 422 when the retry fails too', async () => {
    const llm = await fakeLlm(['SELECT nope FROM shop.customers', 'no idea']);
    const app = await start({
      NL_LLM_BASE_URL: llm.url,
      NL_LLM_API_KEY: 'test-key',
    });
    try {
      const { status, body } = await ask(app, 'How many customers?');
      expect(status).toBe(422);
      expect(body).toMatchObject({
        detail: expect.stringMatching(/did not produce a usable query/),
        code: 'NL_NOT_UNDERSTOOD',
      });
      expect(llm.requests).toHaveLength(2);
      expect(llm.requests[1].messages.at(-1)!.content).toMatch(/nope/);
    } finally {
      await app.close();
      await llm.close();
    }
  }, 60_000);

  it('answers 502 when the model cannot be reached', async () => {
    const llm = await fakeLlm(['SELECT 1']);
    await llm.close();
    const app = await start({ NL_LLM_BASE_URL: llm.url });
    try {
      const { status, body } = await ask(app, 'How many customers?');
      expect(status).toBe(502);
      expect(body).toMatchObject({ detail: expect.stringMatching(/could not be reached/), code: 'NL_LLM_UNAVAILABLE' });
    } finally {
      await app.close();
    }
  }, 60_000);
});

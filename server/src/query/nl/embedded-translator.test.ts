import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotUnderstood } from '../../core/domain-errors.js';
import { SqlParser } from '../engine/sql-parser.js';
import { EmbeddedTranslator } from './embedded-translator.js';
import { shopSchema as schema } from './test-support/shop-schema.js';

/** A small deterministic generator, so a failing question can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const vocabulary = (
  'how many number of average total sum maximum minimum highest lowest most least top first by per each for ' +
  'every over above under below ' +
  ('more than less at least most between and or in 2024 last 30 days march 100 5 0 -1 1e9 customers orders name ' +
    'region signup date amount status ') +
  ("paid shipped eu na o'brien ada not without both which what show list the a of with ordered sort descending " +
    'ascending ; \' " -- drop select ') +
  'union delete ) ( * % _ \\ \u0000 ü 𝔘 constructor __proto__ toString'
).split(' ');

describe('embedded translator on generated questions', () => {
  let parser: SqlParser;
  beforeAll(async () => {
    parser = await SqlParser.create();
  });
  afterAll(() => parser.close());

  it('answers every question with one parseable SELECT or NotUnderstood (a 422), never another error', async () => {
    const next = random(42);
    const translator = new EmbeddedTranslator();
    const outcomes = { sql: 0, refused: 0 };
    for (let i = 0; i < 600; i++) {
      const words = Array.from(
        { length: 1 + Math.floor(next() * 9) },
        () => vocabulary[Math.floor(next() * vocabulary.length)],
      );
      const question = words.join(' ');
      try {
        const { sql } = await translator.translate(question, schema, async (s) => void (await parser.parse(s)));
        expect(sql, question).toMatch(/^SELECT /);
        expect(sql, question).not.toContain('\u0000');
        outcomes.sql++;
      } catch (error) {
        expect(error, `${question}: ${(error as Error).message}`).toBeInstanceOf(NotUnderstood);
        outcomes.refused++;
      }
    }
    expect(outcomes.sql).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });

  it('keeps a sampled value with quotes and semicolons inside one escaped literal', async () => {
    const { sql } = await new EmbeddedTranslator().translate(
      "how many orders with status it's; drop table x",
      schema,
      async (s) => void (await parser.parse(s)),
    );
    expect(sql).toBe(`SELECT count(*) AS "count" FROM "shop"."orders" AS t1 WHERE t1."status" = 'it''s; DROP TABLE x'`);
  });
});

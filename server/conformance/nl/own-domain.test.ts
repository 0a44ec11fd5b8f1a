import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotUnderstood } from '../../src/core/domain-errors.js';
import { runNlSuite, serveSuiteDatabase, type ServedDatabase } from './nl-runner.js';
import { readSuite } from './nl-suite.js';

const ownSet = path.join(path.dirname(fileURLToPath(import.meta.url)), 'own-domain');

describe('the own-domain question set', () => {
  it('is read by the runner: 60+ questions with gold SQL over one dump, with its synonyms', () => {
    const { databases, questions } = readSuite(ownSet);
    expect(databases).toHaveLength(1);
    expect(databases[0]).toMatchObject({ set: 'own', name: 'logistics' });
    expect(databases[0].synonyms).toBeDefined();
    expect(questions.length).toBeGreaterThanOrEqual(60);
    expect(questions.every((q) => q.goldQueries[0].startsWith('SELECT'))).toBe(true);
  });

  it('is answered correctly for at least 80% and wrongly for at most 2% of its questions', async () => {
    const outcomes = await runNlSuite(ownSet);
    const share = (verdict: string): number => outcomes.filter((o) => o.verdict === verdict).length / outcomes.length;
    expect(share('gold-failed')).toBe(0);
    expect(share('correct')).toBeGreaterThanOrEqual(0.8);
    expect(share('wrong') + share('error')).toBeLessThanOrEqual(0.02);
  }, 120_000);
});

describe('answers over the served logistics database', () => {
  let workDir: string;
  let served: ServedDatabase;
  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-nl-own-'));
    served = await serveSuiteDatabase(readSuite(ownSet).databases[0], workDir);
  }, 60_000);
  afterAll(async () => {
    await served.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('refuses a first place that several rows share, naming two of them, and answers the untied one', async () => {
    // 2,000 shipments over 12 warehouses: eight have 167 each.
    const tied = await served.nl.ask('Which warehouse has the most shipments?').catch((e: unknown) => e);
    expect(tied).toBeInstanceOf(NotUnderstood);
    expect((tied as NotUnderstood).reason).toMatch(/tie .* at the top; ask for more rows/);
    const { results } = await served.nl.ask('Which warehouse has the largest capacity?');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ name: 'Rotterdam Maasvlakte' });
  });

  it("states what was counted in the question's words and the query's", async () => {
    const { answer } = await served.nl.ask('How many priority shipments are there?');
    expect(answer).toMatch(/priority shipments/);
    expect(answer).toMatch(/priority is true/);
    expect(answer).toMatch(/600/);
  });
});

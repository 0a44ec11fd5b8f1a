import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryService } from '../query-service.js';
import type { NaturalLanguageService } from './natural-language-service.js';
import { naturalLanguageServices, rowValues } from './test-support/nl-services.js';

// A film festival the translator was never tuned on, as Parquet files in a lake folder. Studios and films store
// countries as ISO 3166 codes; each label column has another name (`company`, `title`); two films share a title
// (a remake), so grouping by the title alone would merge them. Each of the 15 films has 200 of the 3,000
// screenings, attendance 10 + film_id, one more at every other of them: a film's total is 200 * (10 + id) + 100.
const fixture = `
COPY (SELECT * FROM (VALUES (1, 'Nordlys Pictures', 'DK'), (2, 'Elbe Film', 'DE'), (3, 'Fjord Studio', 'NO'),
  (4, 'Baltic Frames', 'SE'), (5, 'Oresund Media', 'DK'), (6, 'Lone Reel', 'FI')) t(studio_id, company, country))
  TO '{dir}/studios.parquet';
COPY (SELECT * FROM (VALUES
  (1, 'Salt Winter', 'DK', 1, 98), (2, 'Night Ferry', 'DK', 1, 104), (3, 'Quiet Harbour', 'DK', 1, 87),
  (4, 'Long Dunes', 'SE', 1, 121), (5, 'Iron Bridge', 'DE', 2, 110), (6, 'Kiel Nights', 'DE', 2, 95),
  (7, 'Ash Meadow', 'DE', 2, 101), (8, 'Red Barn', 'DE', 2, 89), (9, 'Border Song', 'DK', 2, 117),
  (10, 'Amber Coast', 'SE', 4, 92), (11, 'Open Water', 'SE', 4, 99), (12, 'Glass Lake', 'FI', 4, 85),
  (13, 'High Tide', 'NO', 3, 108), (14, 'Polar Line', 'NO', 3, 113), (15, 'Night Ferry', 'DK', 5, 90))
  t(film_id, title, country, studio_id, runtime_minutes)) TO '{dir}/films.parquet';
COPY (SELECT i AS screening_id, ((i - 1) % 15) + 1 AS film_id, 10 + ((i - 1) % 15) + 1 + ((i - 1) // 15) % 2
  AS attendance FROM range(1, 3001) r(i)) TO '{dir}/screenings.parquet';
`;

const sourcesYaml = `
engine: duckdb
limits:
  max_rows: 430
  timeout_ms: 30000
sources:
  - name: festival
    type: object-storage
    connector: folder
    path: festival
natural_language:
  relationships:
    - from: festival.films.studio_id
      to: festival.studios.studio_id
    - from: festival.screenings.film_id
      to: festival.films.film_id
`;

describe('natural language on an unseen domain (film festival, Parquet)', () => {
  let workspace: string;
  let service: QueryService;
  let nl: NaturalLanguageService;
  /** The answer to `question`: its sentence, SQL and rows as values in column order. */
  const ask = async (question: string): Promise<{ answer: string; sql: string; rows: unknown[][] }> => {
    const { answer, generated_query, outcome } = await nl.ask(question);
    return { answer, sql: generated_query, rows: rowValues(outcome) };
  };

  beforeAll(async () => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-nl-festival-'));
    const dir = path.join(workspace, 'query', 'festival');
    fs.mkdirSync(dir, { recursive: true });
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(fixture.replaceAll('{dir}', dir));
    connection.closeSync();
    instance.closeSync();
    const file = path.join(workspace, 'query', 'sources.yaml');
    fs.writeFileSync(file, sourcesYaml);
    ({ service, nl } = await naturalLanguageServices(file, path.join(workspace, 'data')));
  }, 60_000);
  afterAll(async () => {
    await service.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('names the entity of "top 3 X by total Y" by its label column, grouped by its key', async () => {
    const { rows, answer } = await ask('What are the top 3 films by total attendance?');
    // Film 15 (5,100) and film 2 (2,500) are both "Night Ferry": one group per film, each named by its title.
    expect(rows.map((r) => r.slice(-2))).toEqual([
      ['Night Ferry', 5100],
      ['Polar Line', 4900],
      ['High Tide', 4700],
    ]);
    expect(answer).toMatch(/Night Ferry: 5,100; Polar Line: 4,900; High Tide: 4,700/);
    // Two joins away, the label named `company`: studio 2 has films 5 to 9, 200 * 85 + 500.
    const studios = await ask('What are the top 3 studios by total attendance?');
    expect(studios.rows.map((r) => r.slice(-2))).toEqual([
      ['Elbe Film', 17500],
      ['Baltic Frames', 12900],
      ['Nordlys Pictures', 10400],
    ]);
  });

  it('answers "Which 5 X have the most Y?" as a top-N of X named by its label, counted', async () => {
    const { rows } = await ask('Which 5 studios have the most films?');
    expect(rows.map((r) => r.slice(-2))).toEqual([
      ['Elbe Film', 5],
      ['Nordlys Pictures', 4],
      ['Baltic Frames', 3],
      ['Fjord Studio', 2],
      ['Oresund Media', 1],
    ]);
    // The measure in another table, summed over the studio's films' screenings.
    const highest = await ask('Which 4 studios have the highest total attendance?');
    expect(highest.rows.map((r) => r.slice(-2))).toEqual([
      ['Elbe Film', 17500],
      ['Baltic Frames', 12900],
      ['Nordlys Pictures', 10400],
      ['Fjord Studio', 9600],
    ]);
  });

  it('matches a country name to the ISO code the data stores, and only to a code present', async () => {
    const denmark = await ask('How many films are from Denmark?');
    expect(denmark.sql).toContain(`'DK'`);
    expect(denmark.rows).toEqual([[5]]);
    const germany = await ask('Which studios are in Germany?');
    expect(germany.sql).toContain(`'DE'`);
    expect(germany.rows.map((r) => r.find((v) => typeof v === 'string' && v.includes(' ')))).toEqual(['Elbe Film']);
    // No film or studio is from France: the code FR is not in the data, so the name links to nothing. A refusal,
    // not a made-up code.
    await expect(ask('How many films are from France?')).rejects.toMatchObject({ name: 'NotUnderstood' });
  });

  it('says how many rows match and how many are shown when the row limit cuts the result', async () => {
    const { rows, answer } = await ask('List all screenings.');
    expect(rows).toHaveLength(430);
    expect(answer).toMatch(/: 3,000 rows match; 430 shown \(the result was cut at the row limit/);
  });
});

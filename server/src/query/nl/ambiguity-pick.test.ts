import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmbiguousQuestion } from '../../core/domain-errors.js';
import type { SynonymSuggestion } from '../../contract/index.js';
import { HttpError } from '../../core/errors.js';
import { EmbeddedTranslator } from './embedded-translator.js';
import { proposeSynonym } from './synonym-proposal.js';
import { smallDatabase, type SmallDatabase } from './test-support/small-database.js';

// "Malmö" is a warehouse's city and a shipment's destination: neither table is named, so the word is a tie.
const ddl = `
CREATE TABLE warehouses (id INTEGER, name VARCHAR, city VARCHAR);
INSERT INTO warehouses VALUES (1, 'Harbour', 'Malmö'), (2, 'North', 'Göteborg');
CREATE TABLE shipments (id INTEGER, warehouse_id INTEGER, dest_city VARCHAR);
INSERT INTO shipments VALUES (1, 1, 'Malmö'), (2, 2, 'Riga'), (3, 1, 'Malmö'), (4, 2, 'Malmö');
`;
const ambiguous = 'How many are in Malmö?';

describe("the asker's pick among equally near candidates", () => {
  let db: SmallDatabase;
  beforeAll(async () => {
    db = await smallDatabase('logistics', ddl, [['shipments.warehouse_id', 'warehouses.id']]);
  });
  afterAll(() => db.close());

  it('answers with the preferred candidate winning the tie, and names the pick as a synonym', async () => {
    await expect(db.ask(ambiguous)).rejects.toBeInstanceOf(AmbiguousQuestion);
    const warehouses = await db.ask(ambiguous, ['warehouses.city']);
    expect(warehouses.rows).toEqual([[1]]);
    expect(warehouses.sql).toMatch(/"warehouses"/);
    expect(warehouses.picked).toEqual([{ words: 'malmö', means: 'logistics.warehouses.city', value: 'Malmö' }]);
    const shipments = await db.ask(ambiguous, ['shipments.dest_city']);
    expect(shipments.rows).toEqual([[3]]);
    expect(shipments.picked?.[0].means).toBe('logistics.shipments.dest_city');
  });

  it('leaves questions without a tie as they are: no pick recorded, the nearer table still wins', async () => {
    const named = await db.ask('How many shipments go to Malmö?', ['warehouses.city']);
    expect(named.rows).toEqual([[3]]);
    expect(named.picked).toBeUndefined();
  });

  it('still refuses when the preferred column is not among the tied candidates', async () => {
    await expect(db.ask(ambiguous, ['warehouses.name'])).rejects.toBeInstanceOf(AmbiguousQuestion);
  });

  it('settles the tie with a declared value synonym, without a pick', async () => {
    const schema = {
      ...db.schema,
      synonyms: [{ words: ['malmö'], source: 'logistics', table: 'warehouses', column: 'city', value: 'Malmö' }],
    };
    const translation = await new EmbeddedTranslator().translate(ambiguous, schema, async () => undefined);
    expect(await db.rows(translation.sql)).toEqual([[1]]);
  });
});

describe('a synonym proposed for sources.yaml', () => {
  const schema = {
    tables: [
      {
        source: 'logistics',
        name: 'warehouses',
        key: 'logistics.warehouses',
        columns: [{ name: 'city', type: 'VARCHAR', kind: 'text' as const, values: [] }],
      },
    ],
    relationships: [],
    synonyms: [],
  };
  const synonym = { words: ['Malmö'], means: 'logistics.warehouses.city', value: 'Malmö' };
  const entry = ['    - words: [malmö]', '      means: logistics.warehouses.city', '      value: Malmö'].join('\n');

  it("appends to natural_language.synonyms keeping the file's comments and entries", () => {
    const text = [
      '# The query folder',
      'sources: [] # none yet',
      'natural_language:',
      '  # words of the team',
      '  synonyms:',
      '    - words: [depot]',
      '      means: logistics.warehouses',
      '',
    ].join('\n');
    const { added, content } = proposeSynonym(text, schema, synonym);
    expect(added).toBe(entry);
    expect(content).toBe(`${text}${entry}\n`);
    // Proposed twice: the same entry is not added again.
    expect(proposeSynonym(content, schema, synonym)).toEqual({ added: '', content });
  });

  it('creates the section when the file has none, or is empty', () => {
    const { added, content } = proposeSynonym('sources: []\n', schema, synonym);
    expect(added).toBe(`natural_language:\n  synonyms:\n${entry}`);
    expect(content).toBe(`sources: []\n${added}\n`);
    expect(proposeSynonym('', schema, synonym).content).toBe(`natural_language:\n  synonyms:\n${entry}\n`);
    expect(proposeSynonym('natural_language:\n', schema, synonym).added).toBe(`  synonyms:\n${entry}`);
  });

  it('answers 400 NL_SYNONYM_INVALID for an unknown column, no words, or a file that is not YAML', () => {
    const refusal = (text: string, value: SynonymSuggestion): HttpError => {
      try {
        proposeSynonym(text, schema, value);
      } catch (error) {
        return error as HttpError;
      }
      throw new Error('proposed');
    };
    for (const [text, value] of [
      ['', { ...synonym, means: 'logistics.warehouses.town' }],
      ['', { ...synonym, means: 'other.warehouses.city' }],
      ['', { ...synonym, means: 'logistics.warehouses.city.extra' }],
      ['', { ...synonym, words: ['  '] }],
      ['sources: [\n', synonym],
      ['- a list\n', synonym],
      ['natural_language:\n  synonyms: 3\n', synonym],
    ] satisfies [string, SynonymSuggestion][]) {
      const error = refusal(text, value);
      expect(error).toBeInstanceOf(HttpError);
      expect(error.status).toBe(400);
      expect(error.body()).toMatchObject({ code: 'NL_SYNONYM_INVALID', detail: expect.any(String) });
    }
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../core/config-file.js';
import { knowledgeGraph, loadQueryWorkspace, readGraphFiles } from './query-workspace.js';
import { MappingError } from './sparql/r2rml.js';
import { SparqlService } from './sparql/sparql-service.js';
import type { QueryService } from './query-service.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-query-folder-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A query folder holding `files`, as loadConfig would describe it. */
function folder(files: Record<string, string>): { querySources: string; queryDir: string } {
  const queryDir = fs.mkdtempSync(path.join(root, 'q-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(queryDir, name), text);
  return { querySources: path.join(queryDir, 'sources.yaml'), queryDir };
}

/** The message of the ConfigFileError that reading `sources.yaml` raises. */
function failure(sourcesYaml: string): string {
  try {
    loadQueryWorkspace(folder({ 'sources.yaml': sourcesYaml }));
  } catch (error) {
    if (error instanceof ConfigFileError) return error.message;
    throw error;
  }
  throw new Error('expected sources.yaml to be refused');
}

const rr = '@prefix rr: <http://www.w3.org/ns/r2rml#> .\n';

describe('loadQueryWorkspace', () => {
  it('reads sources.yaml once for the setup and the natural_language section', () => {
    const workspace = loadQueryWorkspace(
      folder({
        'sources.yaml': [
          'limits: { max_rows: 50 }',
          'natural_language:',
          '  relationships:',
          '    - { from: shop.orders.customer_id, to: shop.customers.id }',
          '  synonyms:',
          '    - { words: [Europe, 2024], means: shop.customers.region, value: EU }',
          '',
        ].join('\n'),
      }),
    );
    expect(workspace.setup.limits.maxRows).toBe(50);
    expect(workspace.nl.relationships).toEqual([
      {
        from: { source: 'shop', table: 'orders', column: 'customer_id' },
        to: { source: 'shop', table: 'customers', column: 'id' },
      },
    ]);
    expect(workspace.nl.synonyms).toEqual([
      { words: ['europe', '2024'], source: 'shop', table: 'customers', column: 'region', value: 'EU' },
    ]);
    // No Turtle files: an empty graph, not a fault.
    expect(knowledgeGraph(workspace)).toMatchObject({ mapping: [] });
  });

  it('treats a missing folder as no sources, no hints and an empty graph', () => {
    const workspace = loadQueryWorkspace({ querySources: path.join(root, 'none', 'sources.yaml'), queryDir: root });
    expect(workspace.setup.sources).toEqual([]);
    expect(workspace.nl).toEqual({ relationships: [], synonyms: [] });
  });

  it.each([
    ['natural_language: [a, b]\n', 'sources.yaml:1:19: "natural_language" must be a mapping'],
    [
      'natural_language:\n  relationships:\n    - from: shop.orders\n      to: shop.customers.id\n',
      'sources.yaml:3:13: "from" must be source.table.column',
    ],
    [
      'natural_language:\n  synonyms:\n    - words: [sales]\n      means: shop\n',
      'sources.yaml:4:14: "means" must be source.table or source.table.column',
    ],
    [
      'natural_language:\n  synonyms:\n    - words: sales\n      means: shop.orders\n',
      'sources.yaml:3:14: "words" must be a list of words',
    ],
    [
      'natural_language:\n  synonyms:\n    - words: [europe]\n      means: shop.customers\n      value: EU\n',
      'sources.yaml:5:14: "value" needs "means" to name a column',
    ],
    [
      'natural_language:\n  synonyms:\n    - words: [europe]\n      means: shop.customers.region\n      valeu: EU\n',
      'sources.yaml:5:14: unknown setting "valeu"; expected one of words, means, value',
    ],
    ['natural_language:\n  relationship: []\n', 'sources.yaml:2:17: unknown setting "relationship"'],
  ])('names the line and column of a bad natural_language section: %j', (text, message) => {
    expect(failure(text)).toContain(message);
  });

  it('reports a Turtle syntax error with the line and column where it stops', () => {
    const { ontology } = readGraphFiles(
      folder({ 'ontology.ttl': '@prefix ex: <http://e/> .\nex:a ex:b ex:c .\nex:d ex:e ] .\n' }).queryDir,
    );
    expect(ontology.ok).toBe(false);
    expect(!ontology.ok && ontology.fault.message).toBe(
      'ontology.ttl:3:11: the ontology is not valid Turtle: Expected entity but got ] on line 3.',
    );
    const { mapping } = readGraphFiles(
      folder({ 'mapping.ttl': `${rr}<#M> rr:logicalTable [ rr:tableName "a.b ] .\n` }).queryDir,
    );
    expect(!mapping.ok && mapping.fault.message).toMatch(/^mapping\.ttl:2:37: the mapping is not valid Turtle: /);
  });

  it('places a mapping that parses but is not valid R2RML at the triples map it names', () => {
    const { mapping } = readGraphFiles(
      folder({
        'mapping.ttl': `${rr}@prefix map: <http://e/map#> .\n\n  map:M rr:logicalTable [ rr:tableName "a.b" ] .\n`,
      }).queryDir,
    );
    expect(!mapping.ok && mapping.fault.message).toBe(
      'mapping.ttl:4:3: triples map <http://e/map#M> needs exactly one subject map (found 0)',
    );
  });

  it('keeps a broken ontology or mapping as a located fault, for SPARQL to answer with', () => {
    const files = folder({
      'sources.yaml': 'sources: []\n',
      'ontology.ttl': '@prefix ex: <http://e/> .\nex:a ex:b .\n',
      'mapping.ttl': `${rr}<#M> rr:logicalTable [ rr:tableName "shop.customers" ] .\n`,
    });
    const workspace = loadQueryWorkspace(files);
    expect(workspace.setup.sources).toEqual([]);
    expect(knowledgeGraph(workspace)).toEqual({
      fault:
        'ontology.ttl:2:11: the ontology is not valid Turtle: Expected entity but got . on line 2.; ' +
        'mapping.ttl:2:1: triples map <#M> needs exactly one subject map (found 0)',
    });
    // Runners that open a graph alone still get the MappingError they count as a rejected mapping.
    expect(() => SparqlService.fromFolder({} as QueryService, files.queryDir)).toThrow(MappingError);
  });
});

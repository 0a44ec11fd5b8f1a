import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../core/config-file.js';
import { loadQuerySetup } from './sources.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-sources-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(text: string): string {
  const file = path.join(dir, `sources-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, text);
  return file;
}

/** The error a bad file raises, to assert on its line and message. */
function failure(text: string, env: Record<string, string> = {}): ConfigFileError {
  try {
    loadQuerySetup(write(text), env);
  } catch (error) {
    if (error instanceof ConfigFileError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

const valid = `engine: duckdb
limits:
  max_rows: 500
  timeout_ms: 2000
sources:
  - name: shop
    type: relational
    description: Customers and orders
    connector: postgres
    url: \${PG_URL}
  - name: lake
    type: object-storage
    description: Product files
    connector: folder
    path: lake
  - name: clicks
    type: streaming
    description: Click events
    connector: ndjson
    tables:
      - name: events
        path: events.ndjson
        timestamp_field: ts
        fields: { customer_id: integer, page: VARCHAR, amount: "decimal(10,2)" }
`;

describe('sources.yaml', () => {
  it('reads sources, limits and defaults, substituting environment variables', () => {
    const setup = loadQuerySetup(write(valid), { PG_URL: 'postgres://u:secret@db/shop' });
    expect(setup.engine).toBe('duckdb');
    expect(setup.limits.maxRows).toBe(500);
    expect(setup.limits.timeoutMs).toBe(2000);
    expect(setup.limits.maxResultBytes).toBe(32 * 1024 * 1024);
    expect(setup.async.workers).toBeGreaterThan(0);
    expect(setup.sources.map((s) => [s.name, s.type, s.connector, s.description])).toEqual([
      ['shop', 'relational', 'postgres', 'Customers and orders'],
      ['lake', 'object-storage', 'folder', 'Product files'],
      ['clicks', 'streaming', 'ndjson', 'Click events'],
    ]);
    // The definition exposes no settings: secrets stay inside the connector factory.
    expect(JSON.stringify(setup.sources)).not.toContain('secret');
  });

  it('treats a missing file as no sources', () => {
    const setup = loadQuerySetup(path.join(dir, 'absent.yaml'));
    expect(setup.sources).toEqual([]);
    expect(setup.engine).toBe('duckdb');
  });

  it('names the line of an unset environment variable', () => {
    const error = failure(valid);
    expect(error.line).toBe(10);
    expect(error.message).toContain('PG_URL');
  });

  it('names the line of a YAML syntax error', () => {
    const error = failure('sources:\n  - name: a\n    type: [relational\n');
    expect(error.line).toBeGreaterThanOrEqual(3);
  });

  it.each([
    ['an unknown connector', 'sources:\n  - name: a\n    type: relational\n    connector: oracle\n', 4, 'connector'],
    [
      'a connector of another type',
      'sources:\n  - name: a\n    type: streaming\n    connector: postgres\n    url: postgres://x/y\n',
      4,
      'relational',
    ],
    ['an unknown source type', 'sources:\n  - name: a\n    type: graph\n    connector: postgres\n', 3, 'type'],
    [
      'a duplicate name',
      'sources:\n  - { name: a, type: object-storage, connector: folder, path: x }\n  - name: A\n    type: ' +
        'object-storage\n    connector: folder\n    path: y\n',
      3,
      'already defined',
    ],
    [
      'a reserved name',
      'sources:\n  - name: main\n    type: object-storage\n    connector: folder\n    path: x\n',
      2,
      'reserves',
    ],
    [
      'a name that is not an identifier',
      'sources:\n  - name: "my source"\n    type: object-storage\n    connector: folder\n    path: x\n',
      2,
      'identifier',
    ],
    [
      'a misspelt setting',
      'sources:\n  - name: a\n    type: object-storage\n    connector: folder\n    path: x\n    pth: y\n',
      6,
      'unknown setting',
    ],
    [
      'a bad field type',
      'sources:\n  - name: a\n    type: streaming\n    connector: ndjson\n    tables:\n      - name: t\n        ' +
        'path: t.ndjson\n        fields:\n          x: VARCHAR\n          y: BLOBBY\n',
      10,
      'BLOBBY',
    ],
    [
      'a field named like a metadata column',
      'sources:\n  - name: a\n    type: streaming\n    connector: redis\n    url: redis://localhost\n    ' +
        'tables:\n      - name: t\n        key: k\n        fields:\n          id: VARCHAR\n',
      10,
      'metadata',
    ],
    [
      'a bad postgres URL',
      'sources:\n  - name: a\n    type: relational\n    connector: postgres\n    url: mysql://x/y\n',
      5,
      'postgres://',
    ],
    ['trino without its section', 'engine: trino\nsources: []\n', 1, 'trino'],
    [
      'a Trino password over plain HTTP to another machine',
      'engine: trino\ntrino:\n  server: http://trino.example:8080\n  password: secret\nsources: []\n',
      4,
      'only over HTTPS',
    ],
    [
      'a folder source in Trino mode with no catalog named for it',
      'engine: trino\ntrino:\n  server: http://127.0.0.1:8080\nsources:\n  - name: lake\n    type: object-storage\n' +
        '    connector: folder\n    path: .\n',
      7,
      'source "lake" (connector folder) has no Trino counterpart',
    ],
    ['a bad limit', 'limits:\n  max_rows: -3\n', 2, 'max_rows'],
    ['a result byte limit too small', 'limits:\n  max_result_bytes: 100\n', 2, 'max_result_bytes'],
    ['an unknown top-level key', 'engine: duckdb\nsourcez: []\n', 2, 'unknown setting'],
  ])('refuses %s and names the line', (_what, text, line, fragment) => {
    const error = failure(text);
    expect(error.line).toBe(line);
    expect(error.message).toContain(fragment);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StartOnlyFiles } from './start-only-files.js';

describe('files read only at start', () => {
  let dir: string;
  let watched: StartOnlyFiles;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-only-'));
    fs.writeFileSync(
      path.join(dir, 'sources.yaml'),
      '# the shop\nsources:\n  shop: {type: duckdb, path: shop.duckdb}\nnatural_language:\n  synonyms: []\n',
    );
    watched = new StartOnlyFiles(
      [
        {
          absolute: path.join(dir, 'sources.yaml'),
          workspacePath: 'query/sources.yaml',
          liveSections: ['natural_language'],
        },
      ],
      'the query service',
      pino({ level: 'silent' }),
    );
  });

  afterEach(async () => {
    await watched.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (text: string) => fs.writeFileSync(path.join(dir, 'sources.yaml'), text);

  it('asks for a restart when a source changes, and no longer once the file is back as it was', () => {
    const original = fs.readFileSync(path.join(dir, 'sources.yaml'), 'utf8');
    write(original.replace('shop.duckdb', 'other.duckdb'));
    watched.check();
    expect(watched.problems()).toEqual([expect.objectContaining({ path: 'query/sources.yaml', severity: 'warning' })]);
    expect(watched.problems()[0]!.message).toContain('restart the server');
    write(original);
    watched.check();
    expect(watched.problems()).toEqual([]);
  });

  it('does not ask for a restart when only a live section or a comment changes', () => {
    write(
      '# the shop, edited\nsources:\n  shop: {type: duckdb, path: shop.duckdb}\n' +
        'natural_language:\n  synonyms:\n    - {words: [depot], means: warehouses}\n',
    );
    watched.check();
    expect(watched.problems()).toEqual([]);
  });

  it('asks for a restart when the file no longer parses', () => {
    write('sources: [unclosed\n');
    watched.check();
    expect(watched.problems()).toHaveLength(1);
  });
});

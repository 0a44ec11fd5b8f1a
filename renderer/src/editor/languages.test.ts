import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isOpenApiPath, languageByExtension, languageOf, modelUri, pathOfModelUri } from './languages.js';

describe('languageOf', () => {
  it('maps extensions to Monaco languages, case-insensitively', () => {
    expect(languageOf('specs/a.openapi.YAML')).toBe('yaml');
    expect(languageOf('a.yml')).toBe('yaml');
    expect(languageOf('handlers/x_handler.mts')).toBe('typescript');
    expect(languageOf('q.rq')).toBe('sparql');
    expect(languageOf('data.ttl')).toBe('plaintext');
    expect(languageOf('schema.sql')).toBe('sql');
  });

  it('names only languages monaco-core.ts loads (Monaco is loaded in part: a missing one opens unhighlighted)', () => {
    const core = readFileSync(new URL('./monaco-core.ts', import.meta.url), 'utf8');
    const loaded = (id: string) =>
      core.includes(`monaco-editor/esm/vs/basic-languages/${id}/`) ||
      core.includes(`monaco-editor/esm/vs/language/${id}/`);
    const missing = [...new Set(Object.values(languageByExtension))].filter((id) => id !== 'plaintext' && !loaded(id));
    expect(missing).toEqual([]);
  });

  it('falls back to plain text for unknown, missing and odd extensions', () => {
    expect(languageOf('Makefile')).toBe('plaintext');
    expect(languageOf('archive.tar.gz')).toBe('plaintext');
    expect(languageOf('trailing.')).toBe('plaintext');
    expect(languageOf('')).toBe('plaintext');
    expect(languageOf('x.constructor')).toBe('plaintext');
    expect(languageOf('x.__proto__')).toBe('plaintext');
  });
});

describe('isOpenApiPath', () => {
  it('accepts OpenAPI documents under specs/ only', () => {
    expect(isOpenApiPath('specs/a.openapi.yaml')).toBe(true);
    expect(isOpenApiPath('specs/team/a.OPENAPI.json')).toBe(true);
    expect(isOpenApiPath('specs/a.openapi.yml')).toBe(true);
    expect(isOpenApiPath('specs/a.yaml')).toBe(false);
    expect(isOpenApiPath('other/specs/a.openapi.yaml')).toBe(false);
    expect(isOpenApiPath('specs/a.openapi.yaml.bak')).toBe(false);
  });
});

describe('modelUri and pathOfModelUri', () => {
  it('encode each segment and decode back to the same path', () => {
    for (const path of ['specs/a.openapi.yaml', 'dir with space/ä#?.ts', 'handlers/日本_handler.ts', '%41/x']) {
      const uri = modelUri(path);
      expect(uri.startsWith('file:///')).toBe(true);
      expect(pathOfModelUri(uri)).toBe(path);
    }
    expect(modelUri('a b/c#d')).toBe('file:///a%20b/c%23d');
  });

  it('gives no path for URIs of other schemes', () => {
    expect(pathOfModelUri('inmemory://model/1')).toBeUndefined();
    expect(pathOfModelUri('file://host/x')).toBeUndefined();
  });
});

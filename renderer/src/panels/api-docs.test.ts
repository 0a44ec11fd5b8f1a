import { describe, expect, it } from 'vitest';
import { documentUrl, lastGoodFiles, mountsOf } from './api-docs.js';

describe('the docs panel document', () => {
  it('is the merged document for all specs, else the picked mount (encoded) of it', () => {
    expect(documentUrl('')).toBe('/api/adaptive/openapi.json');
    expect(documentUrl('library-api')).toBe('/api/adaptive/openapi.json?mount=library-api');
    expect(documentUrl('a&b=c')).toBe('/api/adaptive/openapi.json?mount=a%26b%3Dc');
  });

  it("lists the mounts of the merged document's paths once each, in name order", () => {
    const merged = JSON.stringify({ paths: { '/pets/cats': {}, '/library-api/books': {}, '/pets/dogs/{id}': {} } });
    expect(mountsOf(merged)).toEqual(['library-api', 'pets']);
    expect(mountsOf(JSON.stringify({ openapi: '3.0.3' }))).toEqual([]);
  });
});

describe('files serving their last good version', () => {
  it('are the files whose errors say so, once each, and only those', () => {
    const at = Date.UTC(2026, 0, 2, 13, 45);
    const files = lastGoodFiles([
      { path: 'specs/b.openapi.yaml', severity: 'error', message: 'bad $ref', line: 3, lastGoodLoadedAt: at },
      { path: 'specs/b.openapi.yaml', severity: 'error', message: 'another', line: 9, lastGoodLoadedAt: at },
      { path: 'specs/new.openapi.yaml', severity: 'error', message: 'never loaded', line: 1 },
      { path: 'specs/a.openapi.yaml', severity: 'warning', message: 'schema: ...', line: 4 },
    ]);
    expect(files).toEqual([{ path: 'specs/b.openapi.yaml', loadedAt: new Date(at) }]);
  });
});

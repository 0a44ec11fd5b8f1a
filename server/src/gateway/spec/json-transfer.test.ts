import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { survivesJson } from './json-transfer.js';
import { loadSpec } from './spec-loader.js';

const specsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'json-transfer-'));
afterAll(() => fs.rmSync(specsDir, { recursive: true, force: true }));

describe('survivesJson', () => {
  it('accepts what JSON carries unchanged', () => {
    expect(survivesJson({ a: [1, 'x', true, null, { b: 2.5 }], '': {}, __proto__x: -1 })).toBe(true);
  });

  it.each([
    ['Infinity', { maximum: Infinity }],
    ['NaN', [NaN]],
    ['-0', { minimum: -0 }],
    ['undefined', { a: undefined }],
    ['a hole', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['a typed array', { data: new Uint8Array([1]) }],
    ['a date', { at: new Date(0) }],
  ])('refuses %s, which JSON would change', (_, value) => {
    expect(survivesJson(value)).toBe(false);
  });
});

describe('a spec document crossing from the worker', () => {
  it('arrives equal whether posted as JSON text or as a structured clone (.inf is not JSON)', async () => {
    const text = (maximum: string) =>
      `openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /n:\n    get:\n      responses:\n` +
      `        '200':\n          description: ok\n          content:\n            application/json:\n` +
      `              schema: {type: number, maximum: ${maximum}}\n`;
    fs.writeFileSync(path.join(specsDir, 'finite.yaml'), text('10'));
    fs.writeFileSync(path.join(specsDir, 'infinite.yaml'), text('.inf'));
    const schemaOf = (document: Record<string, unknown>) =>
      (document as { paths: Record<string, { get: { responses: Record<string, unknown> } }> }).paths['/n'].get
        .responses['200'];
    const finite = await loadSpec(path.join(specsDir, 'finite.yaml'), specsDir);
    const infinite = await loadSpec(path.join(specsDir, 'infinite.yaml'), specsDir);
    expect(schemaOf(finite.document)).toMatchObject({ content: { 'application/json': { schema: { maximum: 10 } } } });
    expect(schemaOf(infinite.document)).toMatchObject({
      content: { 'application/json': { schema: { maximum: Infinity } } },
    });
  });
});

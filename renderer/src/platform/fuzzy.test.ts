import { describe, expect, it } from 'vitest';
import { fuzzyMatch, pickerLimit } from './fuzzy.js';

const paths = [
  'specs/library-api.openapi.yaml',
  'specs/orders.openapi.yaml',
  'handlers/library_handler.ts',
  'health.yaml',
];
const found = (query: string) => fuzzyMatch(query, paths, (p) => p).map((m) => m.value);

describe('fuzzyMatch', () => {
  it('matches letters in order with gaps, best first', () => {
    expect(found('libapi')[0]).toBe('specs/library-api.openapi.yaml');
    expect(found('ordr')).toEqual(['specs/orders.openapi.yaml']);
  });

  it('takes words in any order', () => {
    expect(found('handler library')).toEqual(['handlers/library_handler.ts']);
  });

  it('finds nothing for letters out of order or absent', () => {
    expect(found('zzz')).toEqual([]);
    expect(found('yamlhealthx')).toEqual([]);
  });

  it('lists everything in its own order for an empty query, up to the limit', () => {
    expect(found('  ')).toEqual(paths);
    const many = Array.from({ length: 500 }, (_, i) => `specs/s${i}.openapi.yaml`);
    expect(fuzzyMatch('', many, (p) => p)).toHaveLength(pickerLimit);
    expect(fuzzyMatch('s1', many, (p) => p).length).toBeLessThanOrEqual(pickerLimit);
  });

  it('does not treat regular expression characters specially', () => {
    expect(found('.*')).toEqual([]);
    expect(() => found('((((a+)+)+)+$')).not.toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { compact, targetOf, targetValue } from './RouteTableView.js';

describe('mock table targets', () => {
  it('names a response, an example of one, or the default, and reads the name back', () => {
    const cases = [{}, { response: 200 }, { response: 404, example: 'missing' }, { example: 'open' }];
    expect(cases.map(targetValue)).toEqual(['', '200', '404/missing', '/open']);
    for (const target of cases) expect(targetOf(targetValue(target))).toEqual(target);
  });

  it('keeps the rest of an example name that holds a slash out of the target', () => {
    expect(targetOf('200/a/b')).toEqual({ response: 200, example: 'a' });
  });
});

describe('compact', () => {
  it('drops unset settings and empty rules, and a row with nothing set', () => {
    expect(compact({})).toBeUndefined();
    expect(compact({ errorRate: undefined, rules: [] })).toBeUndefined();
    expect(compact({ response: 503, delay: undefined, rules: [] })).toEqual({ response: 503 });
  });
});

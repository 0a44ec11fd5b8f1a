import { DEFAULT_ENVIRONMENT } from 'json-p3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileRoute, firstMatch, type RuleInput } from './table-rules.js';

const request = (body: unknown): RuleInput => ({ query: {}, headers: {}, params: {}, body });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('compileRoute', () => {
  it('compiles a JSONPath once, when the table is read, not per request', () => {
    const compile = vi.spyOn(DEFAULT_ENVIRONMENT, 'compile');
    const route = compileRoute({ rules: [{ in: 'body', key: '$.customer.tier', equals: 'gold' }] });
    expect(compile).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) expect(firstMatch(route, request({ customer: { tier: 'gold' } }))?.[1]).toBe(1);
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('reads no node as no value, one node as its value, several as the list of values (one must match)', () => {
    const [{ read }] = compileRoute({ rules: [{ in: 'body', key: '$..sku' }] }).rules;
    expect(read(request({ items: [] }))).toBeUndefined();
    expect(read(request(undefined))).toBeUndefined();
    expect(read(request({ items: [{ sku: 'a' }] }))).toBe('a');
    expect(read(request({ items: [{ sku: 'a' }, { sku: 'b' }] }))).toEqual(['a', 'b']);
    const route = compileRoute({ rules: [{ in: 'body', key: '$..sku', equals: 'b' }] });
    expect(firstMatch(route, request({ items: [{ sku: 'a' }, { sku: 'b' }] }))?.[1]).toBe(1);
    expect(firstMatch(route, request({ items: [{ sku: 'a' }] }))).toBeUndefined();
  });

  it('keeps JSON pointers (`""` the whole body) beside JSONPath', () => {
    const route = compileRoute({
      rules: [
        { in: 'body', key: '/customer/tier', equals: 'gold' },
        { in: 'body', key: '', equals: 'text' },
      ],
    });
    expect(firstMatch(route, request({ customer: { tier: 'gold' } }))?.[1]).toBe(1);
    expect(firstMatch(route, request('text'))?.[1]).toBe(2);
  });

  it('names the rule whose JSONPath does not compile', () => {
    expect(() =>
      compileRoute({
        rules: [
          { in: 'body', key: '$.ok' },
          { in: 'body', key: '$[?@.a ==]' },
        ],
      }),
    ).toThrow(expect.objectContaining({ index: 1, message: expect.stringMatching(/^is not a valid JSONPath: /) }));
  });
});

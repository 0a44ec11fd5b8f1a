import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './nesting-depth.js';

/** `levels` objects and arrays, alternately, each inside the one before. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { n: value };
  return value;
}

describe('nestsDeeperThan', () => {
  it('counts objects and arrays below the value, not scalars', () => {
    expect(nestsDeeperThan(nested(3), 2)).toBe(false);
    expect(nestsDeeperThan(nested(4), 2)).toBe(true);
    expect(nestsDeeperThan({ a: 'x', b: [1, 2] }, 1)).toBe(false);
    expect(nestsDeeperThan({ a: 'x', b: [1, { c: 1 }] }, 1)).toBe(true);
  });

  it('walks a document far deeper than the call stack allows', () => {
    expect(nestsDeeperThan(nested(200_000), 1000)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { threadShare } from './semaphore.js';

describe('threadShare', () => {
  it("shares a query's threads among the queries running, at least one each", () => {
    expect([1, 2, 3, 4].map((running) => threadShare(2, running))).toEqual([2, 1, 1, 1]);
    expect([1, 2, 3, 4].map((running) => threadShare(8, running))).toEqual([8, 4, 2, 2]);
    expect(threadShare(2, 0)).toBe(2);
  });
});

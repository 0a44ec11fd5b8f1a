import { describe, expect, it } from 'vitest';
import { clampPage, movePage, pageCount, pageRows, resizePage } from './result-paging.js';

describe('paging a result', () => {
  const tenThousand = { page: 0, size: 1000, total: 10_000 };

  it('counts the pages of a 10,000-row result, and one page for an empty one', () => {
    expect(pageCount(10_000, 1000)).toBe(10);
    expect(pageCount(10_001, 1000)).toBe(11);
    expect(pageCount(0, 100)).toBe(1);
  });
  it('moves first, previous, next and last, and stays put at either end', () => {
    expect(movePage(tenThousand, 'next')).toBe(1);
    expect(movePage(tenThousand, 'last')).toBe(9);
    expect(movePage(tenThousand, 'previous')).toBe(0);
    expect(movePage({ ...tenThousand, page: 9 }, 'next')).toBe(9);
    expect(movePage({ ...tenThousand, page: 5 }, 'first')).toBe(0);
  });
  it('names the rows of a page, the last page partly full', () => {
    expect(pageRows({ ...tenThousand, page: 2 })).toEqual({ offset: 2000, limit: 1000, first: 2001, last: 3000 });
    expect(pageRows({ page: 4, size: 500, total: 2250 })).toEqual({
      offset: 2000,
      limit: 500,
      first: 2001,
      last: 2250,
    });
    expect(pageRows({ page: 0, size: 100, total: 0 })).toEqual({ offset: 0, limit: 100, first: 0, last: 0 });
  });
  it('keeps the first row in view when the page size changes', () => {
    expect(resizePage({ ...tenThousand, page: 3 }, 100)).toBe(30);
    expect(resizePage({ page: 31, size: 100, total: 10_000 }, 1000)).toBe(3);
    expect(resizePage({ ...tenThousand, page: 9 }, 5000)).toBe(1);
  });
  it('clamps a page out of range, a negative one or a fraction (a result that shrank under a remembered page)', () => {
    expect(clampPage(12, 10_000, 1000)).toBe(9);
    expect(clampPage(-3, 10_000, 1000)).toBe(0);
    expect(clampPage(2.7, 10_000, 1000)).toBe(2);
    expect(pageRows({ page: 50, size: 1000, total: 1500 })).toMatchObject({ offset: 1000, first: 1001, last: 1500 });
  });
});

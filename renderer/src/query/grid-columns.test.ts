import { describe, expect, it } from 'vitest';
import { gridColumns } from './grid-columns.js';

describe('gridColumns', () => {
  it('sizes each column to its header or its longest value, within bounds', () => {
    const columns = [
      { name: 'i', type: 'BIGINT' },
      { name: 'note', type: 'VARCHAR' },
      { name: 'x', type: 'A' },
    ];
    const rows = [
      { i: 1, note: 'a'.repeat(100), x: null },
      { i: 22, note: 'short', x: 1 },
    ];
    expect(
      gridColumns(columns, rows, 2)
        .split(' calc')
        .map((c) => c.trim()),
    ).toEqual(['calc(3ch + 16px)', '(12ch + 17px)', '(40ch + 17px)', '(6ch + 17px)']);
  });

  it('gives the row number column room for the largest number', () => {
    expect(gridColumns([], [], 12_345)).toBe('calc(7ch + 16px)');
  });
});

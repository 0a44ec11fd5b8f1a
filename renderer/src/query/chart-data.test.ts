import { describe, expect, it } from 'vitest';
import { assignAxes, chartData, defaultChoice, fitChoice, kindsFor, shapeKey } from './chart-data.js';

const sales = {
  columns: [
    { name: 'region', type: 'VARCHAR' },
    { name: 'orders', type: 'BIGINT' },
    { name: 'revenue', type: 'DECIMAL(18,2)' },
    { name: 'avg_items', type: 'DOUBLE' },
  ],
  rows: [
    { region: 'EU', orders: 920, revenue: '256000.50', avg_items: 2.5 },
    { region: 'NA', orders: 610, revenue: '181000.00', avg_items: 3.1 },
    { region: 'APAC', orders: 230, revenue: '64000.25', avg_items: null },
  ],
};

describe('assignAxes', () => {
  it('puts a count of 920 and a revenue of 256k on axes of their own', () => {
    expect(assignAxes([{ values: [920, 610] }, { values: [256_000.5, 181_000] }])).toEqual(['left', 'right']);
  });
  it('keeps series of a like size on one axis, and sends a third to the nearer one', () => {
    expect(assignAxes([{ values: [920] }, { values: [3000] }])).toEqual(['left', 'left']);
    expect(assignAxes([{ values: [920] }, { values: [256_000] }, { values: [2.5] }, { values: [900_000] }])).toEqual([
      'left',
      'right',
      'left',
      'right',
    ]);
  });
  it('separates an all-zero or empty series from one with values, and keeps a lone series on the left', () => {
    expect(assignAxes([{ values: [0, null] }, { values: [5] }])).toEqual(['left', 'right']);
    expect(assignAxes([{ values: [-5000] }])).toEqual(['left']);
    expect(assignAxes([])).toEqual([]);
  });
});

describe('chartData', () => {
  it('draws the chosen y columns against the chosen x, each axis ranging over its own series from zero', () => {
    const data = chartData(sales, { x: 'region', y: ['orders', 'revenue'], kind: 'bar' });
    expect(data?.labels).toEqual(['EU', 'NA', 'APAC']);
    expect(data?.series).toEqual([
      { name: 'orders', values: [920, 610, 230], axis: 'left' },
      { name: 'revenue', values: [256000.5, 181000, 64000.25], axis: 'right' },
    ]);
    expect(data?.axes.left).toEqual({ min: 0, max: 920, series: ['orders'] });
    expect(data?.axes.right).toEqual({ min: 0, max: 256000.5, series: ['revenue'] });
  });
  it('numbers the rows without an x column, and has numeric positions for a numeric x (scatter)', () => {
    expect(chartData(sales, { y: ['orders'], kind: 'bar' })?.labels).toEqual(['1', '2', '3']);
    const scatter = chartData(sales, { x: 'avg_items', y: ['orders'], kind: 'scatter' });
    expect(scatter?.positions).toEqual([2.5, 3.1, null]);
    expect(scatter?.axes.right).toBeUndefined();
  });
  it('draws nothing for a choice of no numeric column (a column gone, or a text one)', () => {
    expect(chartData(sales, { x: 'region', y: ['region', 'missing'], kind: 'bar' })).toBeUndefined();
  });
});

describe('chart choices', () => {
  it('starts as the chart always was: the text column along x, the numbers along y, as bars', () => {
    expect(defaultChoice(sales)).toEqual({ x: 'region', y: ['orders', 'revenue', 'avg_items'], kind: 'bar' });
    const numbers = {
      columns: [
        { name: 'year', type: 'INTEGER' },
        { name: 't', type: 'DOUBLE' },
      ],
    };
    expect(defaultChoice(numbers)).toEqual({ x: 'year', y: ['t'], kind: 'bar' });
    expect(defaultChoice({ columns: [{ name: 'a', type: 'VARCHAR' }] })).toBeUndefined();
  });
  it('offers scatter only for a numeric x and pie only for one series without negative values', () => {
    expect(kindsFor(sales, { x: 'region', y: ['orders'] })).toEqual(['bar', 'line', 'pie']);
    expect(kindsFor(sales, { x: 'avg_items', y: ['orders', 'revenue'] })).toEqual(['bar', 'line', 'scatter']);
    const negative = { ...sales, rows: [...sales.rows, { region: 'X', orders: -1, revenue: '0', avg_items: 1 }] };
    expect(kindsFor(negative, { x: 'region', y: ['orders'] })).not.toContain('pie');
  });
  it('fits a remembered choice to the result: unknown columns dropped, a kind that no longer fits back to bar', () => {
    expect(fitChoice(sales, { x: 'gone', y: ['orders', 'gone'], kind: 'pie' })).toEqual({
      x: undefined,
      y: ['orders'],
      kind: 'pie',
    });
    expect(fitChoice(sales, { x: 'region', y: ['orders', 'revenue'], kind: 'pie' })?.kind).toBe('bar');
    expect(fitChoice(sales, { x: 'region', y: ['gone'], kind: 'bar' })).toBeUndefined();
  });
  it('keys a shape by column names and types', () => {
    expect(shapeKey(sales.columns)).toBe('region:VARCHAR|orders:BIGINT|revenue:DECIMAL(18,2)|avg_items:DOUBLE');
    expect(shapeKey([{ name: 'orders', type: 'INTEGER' }])).not.toBe(shapeKey([{ name: 'orders', type: 'BIGINT' }]));
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqlResult } from '../../../server/src/contract/index.js';
import { ResultChart } from './ResultChart.js';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

/** Revenue (thousands) and orders (units) per region: two series a tenfold apart and more. */
const sales: SqlResult = {
  columns: [
    { name: 'region', type: 'VARCHAR' },
    { name: 'revenue', type: 'DOUBLE' },
    { name: 'orders', type: 'INTEGER' },
  ],
  rows: [
    { region: 'north', revenue: 12000, orders: 30 },
    { region: 'south', revenue: 8000, orders: 10 },
    { region: 'east', revenue: null, orders: 20 },
  ],
  row_count: 3,
  truncated: false,
  elapsed_ms: 1,
};

const chart = () => screen.getByRole('img');
const titles = () => [...chart().querySelectorAll('title')].map((t) => t.textContent);

describe('ResultChart', () => {
  it('draws the numeric columns against the label column, on two axes when their sizes differ tenfold', () => {
    render(<ResultChart result={sales} />);
    expect(chart().getAttribute('aria-label')).toBe('bar chart of revenue, orders on two axes');
    expect((screen.getByLabelText('Chart x column') as HTMLSelectElement).value).toBe('region');
    expect(chart().querySelector('[data-axis="right"]')?.getAttribute('aria-label')).toBe('right axis: orders');
    // A NULL draws no bar.
    expect(titles()).toEqual([
      'north: revenue = 12000',
      'south: revenue = 8000',
      'north: orders = 30',
      'south: orders = 10',
      'east: orders = 20',
    ]);
  });

  it('keeps one y column at least, and remembers the choice for results of the same shape', () => {
    render(<ResultChart result={sales} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'revenue' }));
    expect((screen.getByRole('checkbox', { name: 'orders' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Chart kind'), { target: { value: 'line' } });
    expect(chart().getAttribute('aria-label')).toBe('line chart of orders');
    cleanup();
    render(<ResultChart result={{ ...sales, rows: sales.rows.slice(0, 2) }} />);
    expect(chart().getAttribute('aria-label')).toBe('line chart of orders');
  });

  it('shows the shares of a pie', () => {
    render(<ResultChart result={sales} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'revenue' }));
    fireEvent.change(screen.getByLabelText('Chart kind'), { target: { value: 'pie' } });
    expect(titles()).toEqual(['north: orders = 30 (50%)', 'south: orders = 10 (17%)', 'east: orders = 20 (33%)']);
  });

  it('says so when there is nothing to chart', () => {
    render(<ResultChart result={{ ...sales, columns: [{ name: 'region', type: 'VARCHAR' }] }} />);
    expect(screen.getByText('No numeric column to chart.')).toBeTruthy();
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PlanTree } from './PlanTree.js';
import type { QueryPlan } from './query-plan.js';

afterEach(cleanup);

const analysed: QueryPlan = {
  analysed: true,
  totalMs: 120,
  roots: [
    {
      name: 'HASH_JOIN',
      timeMs: 60,
      rows: 1500,
      details: [['Conditions', 'id = order_id']],
      children: [
        { name: 'SEQ_SCAN orders', timeMs: 40, rows: 1000, details: [], children: [] },
        { name: 'SEQ_SCAN items', timeMs: 5.5, rows: 20000, details: [], children: [] },
      ],
    },
  ],
};

const names = () => screen.getAllByRole('treeitem').map((item) => item.querySelector('.plan-name')?.textContent);
const active = () => screen.getByRole('treeitem', { selected: true }).querySelector('.plan-name')?.textContent;
const press = (key: string) => fireEvent.keyDown(screen.getByRole('tree'), { key });

describe('PlanTree', () => {
  it("shows each operator's own time with its share, its rows and details", () => {
    render(<PlanTree plan={analysed} />);
    expect(screen.getByRole('note').textContent).toBe('Query plan, analysed: 120 ms in all');
    const [join, , items] = screen.getAllByRole('treeitem');
    expect(join.textContent).toBe('HASH_JOIN60 ms1,500 rowsConditions: id = order_id');
    expect((join.querySelector('.plan-bar') as HTMLElement).style.width).toBe('30px');
    expect(items.querySelector('.plan-time')?.textContent).toBe('5.50 ms');
  });

  it('says when the plan holds estimates only', () => {
    render(<PlanTree plan={{ analysed: false, roots: [{ name: 'PROJECTION', details: [], children: [] }] }} />);
    expect(screen.getByRole('note').textContent).toBe('Query plan (estimates; EXPLAIN ANALYZE runs it)');
  });

  it('is read with the keyboard: arrows move, Left folds and goes up, Right unfolds and goes down', () => {
    render(<PlanTree plan={analysed} />);
    expect(active()).toBe('HASH_JOIN');
    press('End');
    expect(active()).toBe('SEQ_SCAN items');
    press('ArrowLeft');
    expect(active()).toBe('HASH_JOIN');
    press('ArrowLeft');
    expect(names()).toEqual(['HASH_JOIN']);
    expect(screen.getByRole('treeitem').getAttribute('aria-expanded')).toBe('false');
    press('ArrowRight');
    expect(names()).toEqual(['HASH_JOIN', 'SEQ_SCAN orders', 'SEQ_SCAN items']);
    press('ArrowRight');
    expect(active()).toBe('SEQ_SCAN orders');
    press('ArrowDown');
    press('ArrowDown');
    expect(active()).toBe('SEQ_SCAN items');
    press('Home');
    expect(active()).toBe('HASH_JOIN');
  });
});

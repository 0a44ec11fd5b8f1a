import { describe, expect, it } from 'vitest';
import type { SqlResult } from '../../../server/src/contract/index.js';
import { planOf } from './query-plan.js';

const explainResult = (value: unknown): SqlResult => ({
  columns: [
    { name: 'explain_key', type: 'VARCHAR' },
    { name: 'explain_value', type: 'VARCHAR' },
  ],
  rows: [{ explain_key: 'physical_plan', explain_value: JSON.stringify(value) }],
  row_count: 1,
  truncated: false,
  elapsed_ms: 3,
});

describe('planOf', () => {
  it('reads an EXPLAIN plan: operators, their details, their children', () => {
    const plan = planOf(
      explainResult([
        {
          name: 'HASH_GROUP_BY',
          extra_info: { Groups: '#0', Aggregates: ['count_star()', 'sum(x)'] },
          children: [{ name: 'SEQ_SCAN ', extra_info: { Table: 'orders' }, children: [] }],
        },
      ]),
    );
    expect(plan).toEqual({
      analysed: false,
      roots: [
        {
          name: 'HASH_GROUP_BY',
          details: [
            ['Groups', '#0'],
            ['Aggregates', 'count_star(), sum(x)'],
          ],
          children: [{ name: 'SEQ_SCAN', details: [['Table', 'orders']], children: [] }],
        },
      ],
    });
  });

  it('reads an EXPLAIN ANALYZE profile below its wrapper: times in ms and rows', () => {
    const plan = planOf(
      explainResult({
        latency: 0.25,
        children: [
          {
            operator_type: 'EXPLAIN_ANALYZE',
            operator_name: 'EXPLAIN_ANALYZE',
            operator_timing: 0,
            children: [
              {
                operator_name: 'PROJECTION',
                operator_timing: 0.002,
                operator_cardinality: 1500,
                extra_info: {},
                children: [],
              },
            ],
          },
        ],
      }),
    );
    expect(plan).toEqual({
      analysed: true,
      totalMs: 250,
      roots: [{ name: 'PROJECTION', timeMs: 2, rows: 1500, details: [], children: [] }],
    });
  });

  it('is undefined for other results, or JSON of another shape', () => {
    expect(planOf({ ...explainResult([]), columns: [{ name: 'explain_key', type: 'VARCHAR' }] })).toBeUndefined();
    expect(planOf({ ...explainResult([]), rows: [{ explain_key: 'x', explain_value: 'not json' }] })).toBeUndefined();
    expect(planOf(explainResult({ latency: 1 }))).toBeUndefined();
    expect(planOf(explainResult(null))).toBeUndefined();
  });
});

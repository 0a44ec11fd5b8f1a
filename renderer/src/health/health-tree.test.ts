import { describe, expect, it } from 'vitest';
import { errorOf, groupPaths, latencyOf, otherDetails, problemPaths, visibleRows } from './health-tree.js';
import type { HealthNode } from '../../../server/src/contract/index.js';

const tree: HealthNode = {
  status: 'DOWN',
  components: {
    gateway: { status: 'UP', components: { hello: { status: 'UP', details: { latency_ms: 4, routes: 3 } } } },
    partner: {
      status: 'DOWN',
      components: {
        api: { status: 'DOWN', details: { error: 'connect ECONNREFUSED', latency_ms: 2, url: { host: 'x' } } },
      },
    },
    cache: { status: 'UNKNOWN' },
  },
  groups: ['api'],
};

describe('health tree', () => {
  it('lists top-level components, and children of expanded ones only', () => {
    expect(visibleRows(tree, new Set()).map((r) => r.path)).toEqual(['gateway', 'partner', 'cache']);
    const rows = visibleRows(tree, new Set(['partner']));
    expect(rows.map((r) => [r.path, r.depth, r.hasChildren])).toEqual([
      ['gateway', 0, true],
      ['partner', 0, true],
      ['partner/api', 1, false],
      ['cache', 0, false],
    ]);
  });
  it('opens groups that are not UP, and lists every group for expand all', () => {
    expect(problemPaths(tree)).toEqual(['partner']);
    expect(groupPaths(tree)).toEqual(['gateway', 'partner']);
  });
  it('reads latency, error and the other details', () => {
    const api = tree.components!.partner.components!.api;
    expect(latencyOf(api)).toBe(2);
    expect(errorOf(api)).toBe('connect ECONNREFUSED');
    expect(otherDetails(api)).toEqual([['url', '{"host":"x"}']]);
    expect(latencyOf({ status: 'UP', details: { latency_ms: 'soon' } })).toBeUndefined();
    expect(visibleRows({ status: 'UP' }, new Set())).toEqual([]);
  });
});

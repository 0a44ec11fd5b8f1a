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

describe('health tree, hostile answers', () => {
  it('shows nothing for a root without components, and treats empty components as a leaf', () => {
    expect(visibleRows({ status: 'UP' }, new Set())).toEqual([]);
    const rows = visibleRows({ status: 'UP', components: { a: { status: 'UP', components: {} } } }, new Set(['a']));
    expect(rows).toEqual([
      { path: 'a', name: 'a', depth: 0, node: { status: 'UP', components: {} }, hasChildren: false },
    ]);
    expect(groupPaths({ status: 'UP', components: { a: { status: 'UP', components: {} } } })).toEqual([]);
  });

  it('walks a deep tree and keeps names with slashes and unicode as given', () => {
    let node: HealthNode = { status: 'DOWN' };
    for (let i = 0; i < 50; i++) node = { status: 'DOWN', components: { [`n${i}`]: node } };
    expect(problemPaths(node)).toHaveLength(49);
    const odd: HealthNode = { status: 'UP', components: { 'a/b': { status: 'UP' }, 'ü 日本': { status: 'UP' } } };
    expect(visibleRows(odd, new Set()).map((r) => r.path)).toEqual(['a/b', 'ü 日本']);
  });

  it('ignores latency and errors of the wrong type, and shows other details as text', () => {
    const node = {
      status: 'DOWN',
      details: { latency_ms: '4', error: { code: 1 }, message: 'fallback', n: null, on: true },
    };
    expect(latencyOf(node as HealthNode)).toBeUndefined();
    expect(errorOf(node as HealthNode)).toBeUndefined();
    expect(errorOf({ status: 'DOWN', details: { message: 'timed out' } })).toBe('timed out');
    expect(otherDetails(node as HealthNode)).toEqual([
      ['n', 'null'],
      ['on', 'true'],
    ]);
  });
});

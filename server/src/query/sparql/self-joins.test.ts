import { describe, expect, it } from 'vitest';
import { ColumnClasses, distinctOnProjection, mergeSelfJoins, type Occurrence } from './self-joins.js';

const types: Record<string, string> = { id: 'INTEGER', name: 'VARCHAR', score: 'DOUBLE', cid: 'INTEGER' };
const reference = (alias: string, from: string, used: string[], keys?: string[][]): Occurrence => ({
  alias,
  table: { from, keys },
  types: (c) => types[c],
  used: new Set(used),
});

describe('self-join elimination', () => {
  it('merges references equal on a declared key, and chains of them', () => {
    const classes = new ColumnClasses();
    const refs = [
      reference('a', 't', ['id', 'name'], [['id']]),
      reference('b', 't', ['id', 'cid'], [['id']]),
      reference('c', 't', ['id'], [['id']]),
    ];
    classes.union(['a', 'id'], ['b', 'id']);
    classes.union(['b', 'id'], ['c', 'id']);
    const merged = mergeSelfJoins(refs, classes);
    expect(new Set(merged.values()).size).toBe(1);
    expect(merged.size).toBe(2);
  });

  it('keeps references of different tables, unequal keys, or floating point key columns', () => {
    const classes = new ColumnClasses();
    classes.union(['a', 'id'], ['b', 'id']);
    expect(
      mergeSelfJoins(
        [reference('a', 't', ['id', 'name'], [['id']]), reference('b', 'u', ['id', 'name'], [['id']])],
        classes,
      ).size,
    ).toBe(0);
    expect(
      mergeSelfJoins(
        [reference('a', 't', ['id', 'name'], [['name']]), reference('b', 't', ['id', 'name'], [['name']])],
        classes,
      ).size,
    ).toBe(0);
    classes.union(['a', 'score'], ['b', 'score']);
    expect(
      mergeSelfJoins(
        [reference('a', 't', ['score', 'name'], [['score']]), reference('b', 't', ['score', 'cid'], [['score']])],
        classes,
      ).size,
    ).toBe(0);
  });

  it('without a key, drops only a reference whose every column equals the other one', () => {
    const classes = new ColumnClasses();
    classes.union(['a', 'id'], ['b', 'id']);
    expect([...mergeSelfJoins([reference('a', 't', ['id']), reference('b', 't', ['id', 'name'])], classes)]).toEqual([
      ['a', 'b'],
    ]);
    expect(
      mergeSelfJoins([reference('a', 't', ['id', 'cid']), reference('b', 't', ['id', 'name'])], classes).size,
    ).toBe(0);
  });

  it('needs DISTINCT unless every reference has a key among the projected columns', () => {
    const classes = new ColumnClasses();
    classes.union(['o', 'cid'], ['c', 'id']);
    const refs = [
      reference('o', 'orders', ['id', 'cid'], [['id']]),
      reference('c', 'customers', ['id', 'name'], [['id']]),
    ];
    expect(
      distinctOnProjection(refs, classes, [
        ['o', 'id'],
        ['o', 'cid'],
      ]),
    ).toBe(true);
    expect(
      distinctOnProjection(refs, classes, [
        ['o', 'id'],
        ['c', 'name'],
      ]),
    ).toBe(false);
    expect(distinctOnProjection([reference('x', 'x', ['id'])], classes, [['x', 'id']])).toBe(false);
  });
});

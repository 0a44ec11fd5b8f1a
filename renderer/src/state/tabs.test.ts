import { describe, expect, it } from 'vitest';
import { TabsStore, type TabsState } from './tabs.js';

function store(state: TabsState) {
  const saved: TabsState[] = [];
  return { tabs: new TabsStore(state, (s) => saved.push(s)), saved };
}

describe('TabsStore', () => {
  it('opens a path once, activates it, and remembers every change', () => {
    const { tabs, saved } = store({ open: ['a'] });
    tabs.open('b');
    tabs.open('a');
    expect(tabs.snapshot()).toEqual({ open: ['a', 'b'], active: 'a' });
    expect(saved).toHaveLength(2);
  });
  it('closes a tab and activates its neighbour when it was active', () => {
    const { tabs } = store({ open: ['a', 'b', 'c'], active: 'b' });
    tabs.close('b');
    expect(tabs.snapshot()).toEqual({ open: ['a', 'c'], active: 'c' });
    tabs.close('c');
    expect(tabs.snapshot()).toEqual({ open: ['a'], active: 'a' });
    tabs.close('x');
    expect(tabs.snapshot()).toEqual({ open: ['a'], active: 'a' });
  });
  it('cycles through the tabs both ways', () => {
    const { tabs } = store({ open: ['a', 'b', 'c'], active: 'a' });
    tabs.cycle(-1);
    expect(tabs.snapshot().active).toBe('c');
    tabs.cycle(1);
    expect(tabs.snapshot().active).toBe('a');
  });
  it('follows renames and deletions of files and folders', () => {
    const { tabs } = store({ open: ['specs/a.yaml', 'specs/old/b.yaml', 'handlers/c.ts'], active: 'specs/old/b.yaml' });
    tabs.renamed('specs/old', 'specs/new');
    expect(tabs.snapshot()).toEqual({
      open: ['specs/a.yaml', 'specs/new/b.yaml', 'handlers/c.ts'],
      active: 'specs/new/b.yaml',
    });
    tabs.removed('specs/new');
    expect(tabs.snapshot()).toEqual({ open: ['specs/a.yaml', 'handlers/c.ts'], active: 'specs/a.yaml' });
  });
});

describe('TabsStore edge cases', () => {
  it('hands persist the new state before subscribers are told', () => {
    const order: string[] = [];
    const tabs = new TabsStore({ open: [] }, (state) => order.push(`persist ${state.active}`));
    tabs.subscribe(() => order.push(`notify ${tabs.snapshot().active}`));
    tabs.open('a.yaml');
    expect(order).toEqual(['persist a.yaml', 'notify a.yaml']);
  });

  it('copes with no tabs, an unknown path and closing the last tab', () => {
    const tabs = new TabsStore({ open: [] });
    tabs.cycle(1);
    expect(tabs.snapshot()).toEqual({ open: [] });
    tabs.open('a');
    tabs.close('missing');
    expect(tabs.snapshot()).toEqual({ open: ['a'], active: 'a' });
    tabs.close('a');
    expect(tabs.snapshot()).toEqual({ open: [], active: undefined });
    tabs.removed('anything');
    expect(tabs.snapshot().open).toEqual([]);
  });

  it('cycles by steps larger than the tab count and from no active tab', () => {
    const tabs = new TabsStore({ open: ['a', 'b', 'c'] });
    tabs.cycle(4);
    expect(tabs.snapshot().active).toBe('b');
    tabs.cycle(-7);
    expect(tabs.snapshot().active).toBe('a');
  });

  it('does not take a sibling with a common prefix for a file inside a removed folder', () => {
    const tabs = new TabsStore({ open: ['specs/a.yaml', 'specs-old/b.yaml'], active: 'specs-old/b.yaml' });
    tabs.removed('specs');
    expect(tabs.snapshot()).toEqual({ open: ['specs-old/b.yaml'], active: 'specs-old/b.yaml' });
  });
});

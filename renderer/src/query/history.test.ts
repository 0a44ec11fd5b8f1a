import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStorage } from '../state/fake-storage.test-support.js';
import { addToHistory, historyLimit, loadHistory, type HistoryEntry } from './history.js';

const entry = (query: string, kind: HistoryEntry['kind'] = 'sql', at = 1): HistoryEntry => ({
  query,
  kind,
  at,
  ok: true,
});

describe('query history', () => {
  let items: Map<string, string>;
  beforeEach(() => {
    items = fakeStorage();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is empty at first and remembers what is added, newest first', () => {
    expect(loadHistory()).toEqual([]);
    let history = addToHistory([], entry('select 1', 'sql', 1));
    history = addToHistory(history, entry('ask {}', 'sparql', 2));
    expect(history.map((e) => e.query)).toEqual(['ask {}', 'select 1']);
    expect(loadHistory()).toEqual(history);
  });

  it('moves a repeated query of the same kind to the top instead of repeating it', () => {
    let history = [entry('a'), entry('b'), entry('c')];
    history = addToHistory(history, entry('b', 'sql', 9));
    expect(history.map((e) => [e.query, e.at])).toEqual([
      ['b', 9],
      ['a', 1],
      ['c', 1],
    ]);
    history = addToHistory(history, entry('a', 'nl'));
    expect(history.map((e) => `${e.kind}:${e.query}`)).toEqual(['nl:a', 'sql:b', 'sql:a', 'sql:c']);
  });

  it(`keeps only the newest ${historyLimit}`, () => {
    let history: HistoryEntry[] = [];
    for (let i = 0; i < historyLimit + 20; i++) history = addToHistory(history, entry(`q${i}`, 'sql', i));
    expect(history).toHaveLength(historyLimit);
    expect(history[0].query).toBe(`q${historyLimit + 19}`);
    expect(history.at(-1)?.query).toBe('q20');
  });

  it('drops unreadable stored entries and survives a stored non-array', () => {
    items.set(
      'adaptive-workbench:query-history',
      JSON.stringify([entry('good'), null, 'text', { query: 1, at: 2 }, { query: 'no time' }]),
    );
    expect(loadHistory().map((e) => e.query)).toEqual(['good']);
    items.set('adaptive-workbench:query-history', JSON.stringify({ query: 'x', at: 1 }));
    expect(loadHistory()).toEqual([]);
  });
});

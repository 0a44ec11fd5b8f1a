import { describe, expect, it } from 'vitest';
import { suggestedName } from './query-commands.js';

describe('suggestedName', () => {
  it('turns a tab title into a lower-case, dashed file name', () => {
    expect(suggestedName('Query 3')).toBe('query-3');
    expect(suggestedName('Orders  by  Region')).toBe('orders-by-region');
    expect(suggestedName('a/../b')).toBe('a-b');
    expect(suggestedName('')).toBe('');
  });

  it('leaves no character outside [a-z0-9-], whatever the title', () => {
    for (const title of ['Größe ✓', '日本語', '"; rm -rf /', 'x'.repeat(10_000)])
      expect(suggestedName(title)).toMatch(/^[a-z0-9-]*$/);
  });
});

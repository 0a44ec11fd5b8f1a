import { describe, expect, it } from 'vitest';
import { isChangeable, isWithin, movedPath, parentOf } from './paths.js';

describe('workspace paths', () => {
  it('finds parents, moves paths under a renamed folder only, and keeps the area folders', () => {
    expect(parentOf('specs/a/b.yaml')).toBe('specs/a');
    expect(parentOf('health.yaml')).toBe('');
    expect(movedPath('specs/old/x', 'specs/old', 'specs/new')).toBe('specs/new/x');
    expect(isWithin('specs/older', 'specs/old')).toBe(false);
    expect(movedPath('specs/older/x', 'specs/old', 'specs/new')).toBe('specs/older/x');
    expect([isChangeable('specs'), isChangeable('specs/a.yaml'), isChangeable('health.yaml')]).toEqual([
      false,
      true,
      true,
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { displayKeys, isMac } from './shortcuts.js';

describe('displayKeys', () => {
  it('spells keys the way the platform does, without the physical-key prefixes', () => {
    if (isMac) {
      expect(displayKeys('Mod+Shift+KeyS')).toBe('⌘ShiftS');
      expect(displayKeys('Alt+Digit1')).toBe('⌥1');
    } else {
      expect(displayKeys('Mod+Shift+KeyS')).toBe('Ctrl+Shift+S');
      expect(displayKeys('Alt+Digit1')).toBe('Alt+1');
      expect(displayKeys('Alt+PageDown')).toBe('Alt+PageDown');
    }
    expect(displayKeys('F2')).toBe('F2');
    expect(displayKeys('')).toBe('');
  });
});

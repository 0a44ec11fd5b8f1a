import { describe, expect, it } from 'vitest';
import { panelRegistry } from '../panels/registry.js';
import { actions, keysOf } from './actions.js';

describe('the shortcut table', () => {
  it('gives each action one id and each id its own keys', () => {
    const ids = actions.map((a) => a.id);
    const keys = actions.map((a) => a.keys);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('shows the n-th panel with Alt+<n>', () => {
    panelRegistry.forEach((panel, i) => expect(keysOf(`panel:${panel.id}`)).toBe(`Alt+Digit${i + 1}`));
    expect(keysOf('save')).toBe('Mod+KeyS');
  });

  it('refuses an unknown action by name', () => {
    expect(() => keysOf('nope')).toThrow('No action nope');
  });
});

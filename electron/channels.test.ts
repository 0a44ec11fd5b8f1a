import { describe, expect, it } from 'vitest';
import { isBridgeChannel, menuEvents } from './channels.js';

describe('channels', () => {
  it('allow-lists the bridge channels', () => {
    expect(isBridgeChannel('workspace:open')).toBe(true);
    expect(isBridgeChannel('file:reveal')).toBe(true);
    expect(isBridgeChannel('shell:exec')).toBe(false);
    expect(isBridgeChannel(42)).toBe(false);
  });
  it('sends each menu command on a channel of its own', () => {
    expect(new Set(Object.values(menuEvents)).size).toBe(Object.keys(menuEvents).length);
  });
});

import { describe, expect, it } from 'vitest';
import { defaultLayout } from './layout.js';

describe('defaultLayout', () => {
  it('leaves the editor most of a laptop screen', () => {
    const layout = defaultLayout(1280, 720);
    expect(1280 - layout.explorerWidth - layout.sideWidth).toBeGreaterThan(1280 * 0.55);
    expect(layout.bottomHeight).toBeLessThan(720 * 0.35);
  });

  it('bounds the panes on very small and very large screens', () => {
    const small = defaultLayout(800, 400);
    expect(small.sideWidth).toBe(280);
    expect(small.bottomHeight).toBe(140);
    const large = defaultLayout(3840, 2160);
    expect(large.explorerWidth).toBe(280);
    expect(large.sideWidth).toBe(560);
    expect(large.bottomHeight).toBe(420);
  });
});

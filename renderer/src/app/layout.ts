import { useCallback } from 'react';
import { panelRegistry } from '../panels/registry.js';
import { usePersistedState } from '../state/persisted.js';

/** A pane of the workbench that can be shown or hidden. */
export type Pane = 'explorer' | 'side' | 'bottom';

/** The remembered layout: pane sizes, which panes show, and the active panel of each region. */
export interface Layout {
  explorerWidth: number;
  sideWidth: number;
  bottomHeight: number;
  explorerVisible: boolean;
  sideVisible: boolean;
  bottomVisible: boolean;
  sidePanel: string;
  bottomPanel: string;
}

const clamp = (value: number, min: number, max: number) => Math.round(Math.min(max, Math.max(min, value)));

/**
 * The first layout on a screen of `width` x `height`: panes take shares of the window, bounded, so the
 * editor keeps most of it (about 60% of the width and 70% of the height) on a laptop and on a large screen.
 */
export function defaultLayout(width: number, height: number): Layout {
  return {
    explorerWidth: clamp(width * 0.17, 180, 280),
    sideWidth: clamp(width * 0.26, 280, 560),
    bottomHeight: clamp(height * 0.3, 140, 420),
    explorerVisible: true,
    sideVisible: true,
    bottomVisible: true,
    sidePanel: 'docs',
    bottomPanel: 'problems',
  };
}

/** The layout, remembered across restarts, and the changes the shell makes to it. */
export function useLayout() {
  const [layout, setLayout] = usePersistedState<Layout>('layout', defaultLayout(window.innerWidth, window.innerHeight));
  const update = useCallback((change: Partial<Layout>) => setLayout((l) => ({ ...l, ...change })), [setLayout]);
  const togglePane = useCallback(
    (pane: Pane) => setLayout((l) => ({ ...l, [`${pane}Visible`]: !l[`${pane}Visible`] })),
    [setLayout],
  );
  /** Shows a panel: its region becomes visible with the panel active. */
  const showPanel = useCallback(
    (id: string) => {
      const region = panelRegistry.find((p) => p.id === id)?.region;
      if (region) update({ [`${region}Visible`]: true, [`${region}Panel`]: id });
    },
    [update],
  );
  return { layout, update, togglePane, showPanel };
}

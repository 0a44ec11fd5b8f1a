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

const defaultLayout: Layout = {
  explorerWidth: 240,
  sideWidth: 540,
  bottomHeight: 300,
  explorerVisible: true,
  sideVisible: true,
  bottomVisible: true,
  sidePanel: 'docs',
  bottomPanel: 'problems',
};

/** The layout, remembered across restarts, and the changes the shell makes to it. */
export function useLayout() {
  const [layout, setLayout] = usePersistedState<Layout>('layout', defaultLayout);
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

import { panelRegistry, type PanelDefinition } from '../panels/registry.js';
import { useProblems } from '../panels/problems.js';
import { useServerState } from '../platform/workbench-context.js';
import type { Layout } from './layout.js';
import { PanelRegion } from './PanelRegion.js';
import { Splitter } from '../platform/Splitter.js';
import './shell.css';

/** How each region of panels is drawn and resized. */
const regions = {
  bottom: {
    size: 'bottomHeight',
    orientation: 'horizontal',
    min: 100,
    max: 900,
    resizeLabel: 'Resize panels',
    label: 'Panels',
    pane: 'div',
    className: 'bottom-pane',
  },
  side: {
    size: 'sideWidth',
    orientation: 'vertical',
    min: 280,
    max: 1400,
    resizeLabel: 'Resize side panel',
    label: 'Side panel',
    pane: 'aside',
    className: 'side-pane',
  },
} as const;

export interface RegionProps {
  region: keyof typeof regions;
  layout: Layout;
  onLayout(change: Partial<Layout>): void;
}

/** Whether the active panel asks its region to shrink to a tab row: it is sized by its content and is empty now. */
function useCollapsed(panel: PanelDefinition | undefined): boolean {
  const problems = useProblems();
  const badge = useServerState((state) => panel?.badge?.(state, problems));
  return panel?.sizedByContent === true && badge === undefined;
}

/** A region of panels (below or beside the editor) with the splitter that resizes it; nothing while hidden. */
export function Region({ region, layout, onLayout }: RegionProps) {
  const { size: sizeKey, orientation, min, max, resizeLabel, label, pane: Pane, className } = regions[region];
  const panels = panelRegistry.filter((p) => p.region === region);
  const active = panels.find((p) => p.id === layout[`${region}Panel`]) ?? panels[0];
  const collapsed = useCollapsed(active);
  if (!layout[`${region}Visible`] || panels.length === 0) return null;
  const size = layout[sizeKey];
  const fitted = active?.sizedByContent === true && orientation === 'horizontal';
  const style = collapsed
    ? undefined
    : orientation === 'vertical'
      ? { width: size }
      : fitted
        ? { maxHeight: size }
        : { height: size };
  return (
    <>
      {!collapsed && (
        <Splitter
          orientation={orientation}
          size={size}
          direction={-1}
          min={min}
          max={max}
          label={resizeLabel}
          onResize={(s) => onLayout({ [sizeKey]: s })}
        />
      )}
      <Pane className={`${className}${collapsed ? ' collapsed' : fitted ? ' fits-content' : ''}`} style={style}>
        <PanelRegion
          panels={panels}
          active={layout[`${region}Panel`]}
          label={label}
          onActivate={(id) => onLayout({ [`${region}Panel`]: id })}
          onHide={() => onLayout({ [`${region}Visible`]: false })}
        />
      </Pane>
    </>
  );
}

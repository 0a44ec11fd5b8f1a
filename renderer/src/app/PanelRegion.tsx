import type { PanelDefinition } from '../panels/registry.js';
import { useProblems, type Problem } from '../panels/problems.js';
import { Loadable } from '../platform/Loadable.js';
import { useServerState } from '../platform/workbench-context.js';
import './panel-region.css';

export interface PanelRegionProps {
  panels: PanelDefinition[];
  active: string;
  onActivate(id: string): void;
  onHide(): void;
  label: string;
}

/** A panel tab's count, if any: rendered on its own, as the server state it counts changes often. */
function PanelBadge({ panel, problems }: { panel: PanelDefinition; problems: Problem[] }) {
  const badge = useServerState((state) => panel.badge?.(state, problems));
  return badge === undefined ? null : <span className="badge">{badge}</span>;
}

/** A row of panel tabs (with badges) and the active panel. */
export function PanelRegion({ panels, active, onActivate, onHide, label }: PanelRegionProps) {
  const problems = useProblems();
  const current = panels.find((p) => p.id === active) ?? panels[0];
  if (!current) return null;
  const Component = current.component;
  return (
    <section className="panel-region" aria-label={label}>
      <div className="panel-tabs">
        {/* The tabs alone in the tablist: a button of another role in it breaks the tablist's rules (axe). */}
        <div className="panel-tab-list" role="tablist" aria-label={`${label} tabs`}>
          {panels.map((panel) => (
            <button
              key={panel.id}
              type="button"
              role="tab"
              aria-selected={panel.id === current.id}
              className={`panel-tab${panel.id === current.id ? ' active' : ''}`}
              data-panel={panel.id}
              onClick={() => onActivate(panel.id)}
            >
              {panel.title}
              <PanelBadge panel={panel} problems={problems} />
            </button>
          ))}
        </div>
        <span className="spacer" />
        <button type="button" className="icon-button" aria-label={`Hide ${label}`} title="Hide" onClick={onHide}>
          ×
        </button>
      </div>
      <div className="panel-body" data-panel-body={current.id}>
        <Loadable key={current.id} what={current.title}>
          <Component />
        </Loadable>
      </div>
    </section>
  );
}

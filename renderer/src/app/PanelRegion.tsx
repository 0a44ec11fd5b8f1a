import { Suspense } from 'react';
import type { PanelDefinition } from '../panels/registry.js';
import { useProblems } from '../panels/problems.js';
import { useServerState } from './workbench-context.js';

export interface PanelRegionProps {
  panels: PanelDefinition[];
  active: string;
  onActivate(id: string): void;
  onHide(): void;
  label: string;
}

/** A row of panel tabs (with badges) and the active panel. */
export function PanelRegion({ panels, active, onActivate, onHide, label }: PanelRegionProps) {
  const state = useServerState();
  const problems = useProblems();
  const current = panels.find((p) => p.id === active) ?? panels[0];
  if (!current) return null;
  const Component = current.component;
  return (
    <section className="panel-region" aria-label={label}>
      <div className="panel-tabs" role="tablist">
        {panels.map((panel) => {
          const badge = panel.badge?.(state, problems);
          return (
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
              {badge !== undefined && <span className="badge">{badge}</span>}
            </button>
          );
        })}
        <span className="spacer" />
        <button type="button" className="icon-button" aria-label={`Hide ${label}`} title="Hide" onClick={onHide}>
          ×
        </button>
      </div>
      <div className="panel-body" data-panel-body={current.id}>
        <Suspense fallback={<div className="placeholder">Loading {current.title}…</div>}>
          <Component />
        </Suspense>
      </div>
    </section>
  );
}

import { lazy, type ComponentType } from 'react';
import type { ServerState } from '../api/event-store.js';
import { ChangesPanel, countBreaking } from './ChangesPanel.js';
import { LogsPanel } from './LogsPanel.js';
import type { Problem } from './problems.js';
import { ProblemsPanel } from './ProblemsPanel.js';
import { RequestsPanel } from './RequestsPanel.js';

/** A panel of the workbench: a view beside the editor (`side`) or below it (`bottom`). */
export interface PanelDefinition {
  id: string;
  title: string;
  region: 'side' | 'bottom';
  component: ComponentType;
  /** A count shown on the panel's tab (problems, unread requests...). */
  badge?: (state: ServerState, problems: Problem[]) => number | undefined;
  /**
   * While active, the region is as tall as the panel's content, up to its size, and shrinks to its tab row with no
   * badge: a list of one problem, or none, leaves the rest of the height to the editor and the query results.
   */
  sizedByContent?: boolean;
}

/**
 * Every panel, in tab order; `Alt+<n>` shows the n-th. Adding a panel (the query console, the health
 * tree) is one entry here plus its component; heavy ones load on first use through `lazy`.
 */
export const panelRegistry: PanelDefinition[] = [
  { id: 'docs', title: 'API docs', region: 'side', component: lazy(() => import('./ApiDocsPanel.js')) },
  {
    id: 'problems',
    title: 'Problems',
    region: 'bottom',
    component: ProblemsPanel,
    badge: (_s, problems) => problems.length || undefined,
    sizedByContent: true,
  },
  { id: 'logs', title: 'Logs', region: 'bottom', component: LogsPanel },
  {
    id: 'requests',
    title: 'Requests',
    region: 'bottom',
    component: RequestsPanel,
    // The workbench's own calls are hidden by default: they are not counted either.
    badge: (s) => s.requests.filter((r) => r.origin !== 'workbench').length || undefined,
  },
  // Queries are written in tabs of the editor area; this panel opens them.
  { id: 'query', title: 'Query', region: 'bottom', component: lazy(() => import('../query/tabs/QueryLauncher.js')) },
  { id: 'health', title: 'Health', region: 'side', component: lazy(() => import('../health/HealthPanel.js')) },
  { id: 'mock', title: 'Mock', region: 'side', component: lazy(() => import('../mock/MockPanel.js')) },
  // Last, so the shortcuts of the panels before it stay as they were (Alt+8).
  {
    id: 'changes',
    title: 'Changes',
    region: 'bottom',
    component: ChangesPanel,
    badge: (s) => countBreaking(s.specChanges) || undefined,
  },
];

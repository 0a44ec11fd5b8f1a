import type { HealthNode } from '../../../server/src/contract/index.js';

/** One row of the tree as shown: where it is, how deep, and its node. */
export interface HealthRow {
  path: string;
  name: string;
  depth: number;
  node: HealthNode;
  hasChildren: boolean;
}

/**
 * The rows of the tree in display order, children only under expanded paths (`/`-joined component
 * names, as in `/api/health/{component}/{sub}`).
 */
export function visibleRows(root: HealthNode, expanded: ReadonlySet<string>): HealthRow[] {
  const rows: HealthRow[] = [];
  const walk = (components: Record<string, HealthNode> | undefined, parent: string, depth: number) => {
    for (const [name, node] of Object.entries(components ?? {})) {
      const path = parent ? `${parent}/${name}` : name;
      const hasChildren = Object.keys(node.components ?? {}).length > 0;
      rows.push({ path, name, depth, node, hasChildren });
      if (hasChildren && expanded.has(path)) walk(node.components, path, depth + 1);
    }
  };
  walk(root.components, '', 0);
  return rows;
}

/** Every path whose node is not UP: opened by default so a problem is visible without clicking. */
export function problemPaths(root: HealthNode): string[] {
  const paths: string[] = [];
  const walk = (components: Record<string, HealthNode> | undefined, parent: string) => {
    for (const [name, node] of Object.entries(components ?? {})) {
      const path = parent ? `${parent}/${name}` : name;
      if (node.status !== 'UP' && node.components) paths.push(path);
      walk(node.components, path);
    }
  };
  walk(root.components, '');
  return paths;
}

/** The latency of a check (`latency_ms`) when it has one. */
export function latencyOf(node: HealthNode): number | undefined {
  const value = node.details?.latency_ms;
  return typeof value === 'number' ? value : undefined;
}

/** The error message of a failed check, when it has one. */
export function errorOf(node: HealthNode): string | undefined {
  const value = node.details?.error ?? node.details?.message;
  return typeof value === 'string' ? value : undefined;
}

/** The other details, shown as `key: value` (latency and error have their own columns). */
export function otherDetails(node: HealthNode): [string, string][] {
  return Object.entries(node.details ?? {})
    .filter(([key]) => key !== 'latency_ms' && key !== 'error' && key !== 'message')
    .map(([key, value]) => [key, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)]);
}

/** Every path that has components of its own (what "expand all" opens). */
export function groupPaths(root: HealthNode): string[] {
  const paths: string[] = [];
  const walk = (components: Record<string, HealthNode> | undefined, parent: string) => {
    for (const [name, node] of Object.entries(components ?? {})) {
      const path = parent ? `${parent}/${name}` : name;
      if (Object.keys(node.components ?? {}).length > 0) paths.push(path);
      walk(node.components, path);
    }
  };
  walk(root.components, '');
  return paths;
}

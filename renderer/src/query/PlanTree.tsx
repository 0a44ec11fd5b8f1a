import { useState, type KeyboardEvent } from 'react';
import type { PlanNode, QueryPlan } from './query-plan.js';
import './results.css';

/** A node on show: where it is (its path of child indexes, joined) and how deep. */
interface ShownNode {
  node: PlanNode;
  path: string;
  level: number;
}

/** The nodes on show, depth first, without the children of collapsed ones. */
function shownNodes(nodes: PlanNode[], collapsed: Set<string>, parent = '', level = 1): ShownNode[] {
  return nodes.flatMap((node, i) => {
    const path = parent ? `${parent}.${i}` : String(i);
    const below = collapsed.has(path) ? [] : shownNodes(node.children, collapsed, path, level + 1);
    return [{ node, path, level }, ...below];
  });
}

/**
 * A query plan as a tree (arrows move, Left and Right fold and unfold, Home and End): each operator with its details,
 * and for an analysed query its own time (with its share of the whole as a bar) and its rows.
 */
export function PlanTree({ plan }: { plan: QueryPlan }) {
  const [collapsed, setCollapsed] = useState(new Set<string>());
  const [active, setActive] = useState('0');
  const shown = shownNodes(plan.roots, collapsed);
  const index = Math.max(
    0,
    shown.findIndex((s) => s.path === active),
  );
  const fold = (path: string, fold: boolean) =>
    setCollapsed((set) => {
      const next = new Set(set);
      if (fold) next.add(path);
      else next.delete(path);
      return next;
    });
  const focus = (path: string) => {
    setActive(path);
    document.getElementById(`plan-node-${path}`)?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const { node, path, level } = shown[index];
    const open = node.children.length > 0 && !collapsed.has(path);
    const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : undefined;
    const moves: Record<string, () => void> = {
      ArrowDown: () => index + 1 < shown.length && focus(shown[index + 1].path),
      ArrowUp: () => index > 0 && focus(shown[index - 1].path),
      Home: () => focus(shown[0].path),
      End: () => focus(shown[shown.length - 1].path),
      ArrowRight: () => (open ? focus(shown[index + 1].path) : fold(path, false)),
      ArrowLeft: () => (open ? fold(path, true) : level > 1 && parent !== undefined && focus(parent)),
    };
    if (!moves[e.key]) return;
    e.preventDefault();
    moves[e.key]();
  };
  const total = plan.totalMs ?? 0;
  return (
    <div className="plan-view">
      <div className="plan-summary" role="note">
        {plan.analysed
          ? `Query plan, analysed: ${formatMs(total)} in all`
          : 'Query plan (estimates; EXPLAIN ANALYZE runs it)'}
      </div>
      <ul className="plan-tree" role="tree" aria-label="Query plan" onKeyDown={onKeyDown}>
        {shown.map(({ node, path, level }) => (
          <li
            key={path}
            id={`plan-node-${path}`}
            role="treeitem"
            aria-level={level}
            aria-expanded={node.children.length > 0 ? !collapsed.has(path) : undefined}
            aria-selected={path === shown[index].path}
            tabIndex={path === shown[index].path ? 0 : -1}
            style={{ paddingLeft: `${(level - 1) * 16 + 4}px` }}
            onClick={() => setActive(path)}
          >
            <span className="plan-name">{node.name}</span>
            {node.timeMs !== undefined && (
              <span className="plan-time">
                <span className="plan-bar" style={{ width: `${total > 0 ? (node.timeMs / total) * 60 : 0}px` }} />
                {formatMs(node.timeMs)}
              </span>
            )}
            {node.rows !== undefined && <span className="plan-rows">{node.rows.toLocaleString('en')} rows</span>}
            {node.details.map(([key, value]) => (
              <span key={key} className="plan-detail">
                {key}: {value}
              </span>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}

function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${Math.round(ms)} ms`;
}

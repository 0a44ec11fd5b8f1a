import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import type { ErrorBody, HealthNode } from '../../../server/src/contract/index.js';
import { ownFetch } from '../requests/own-fetch.js';
import { usePersistedState } from '../state/persisted.js';
import {
  errorOf,
  groupPaths,
  latencyOf,
  otherDetails,
  problemPaths,
  visibleRows,
  type HealthRow,
} from './health-tree.js';
import './health.css';

const intervals = [
  { ms: 0, label: 'Off' },
  { ms: 2000, label: '2 s' },
  { ms: 5000, label: '5 s' },
  { ms: 10_000, label: '10 s' },
  { ms: 30_000, label: '30 s' },
  { ms: 60_000, label: '1 min' },
];

/** `/api/health` answers 503 with the same tree when the top level is DOWN or OUT_OF_SERVICE. */
async function fetchHealth(): Promise<HealthNode> {
  const response = await ownFetch('/api/health', { cache: 'no-store', headers: { accept: 'application/json' } });
  const body = (await response.json().catch(() => undefined)) as HealthNode | ErrorBody | undefined;
  if (body && 'code' in body) throw new Error(body.detail);
  if (body && 'status' in body) return body;
  throw new Error(`${response.status} ${response.statusText}`);
}

/** What the last check found: the tree (kept when a later check fails), its error, and when. */
interface Checked {
  /** The number of the check this answers (checks are numbered from 0 as they are asked for). */
  answers: number;
  health?: HealthNode;
  error?: string;
  at?: Date;
}

/**
 * The health tree, checked at once, every `intervalMs` (0: never) and when `check` is called;
 * `onHealth` sees every tree that arrives. `loading` while the latest check has no answer.
 */
function useHealthChecks(intervalMs: number, onHealth: (node: HealthNode) => void) {
  const [asked, setAsked] = useState(0);
  const [checked, setChecked] = useState<Checked>({ answers: -1 });
  const arrived = useEffectEvent(onHealth);

  useEffect(() => {
    // An answer that comes after a later check's is dropped.
    const answer = (change: Pick<Checked, 'health' | 'error'>) =>
      setChecked((c) => (c.answers > asked ? c : { ...c, ...change, answers: asked, at: new Date() }));
    fetchHealth().then(
      (health) => {
        answer({ health, error: undefined });
        arrived(health);
      },
      (e: Error) => answer({ error: e.message }),
    );
  }, [asked]);

  useEffect(() => {
    if (!intervalMs) return;
    const timer = setInterval(() => setAsked((n) => n + 1), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);

  return { ...checked, loading: checked.answers < asked, check: () => setAsked((n) => n + 1) };
}

function StatusBadge({ status }: { status: string }) {
  return <span className={`health-badge ${status.toLowerCase()}`}>{status}</span>;
}

interface ToolbarProps {
  health?: HealthNode;
  loading: boolean;
  checkedAt?: Date;
  intervalMs: number;
  onCheck(): void;
  onInterval(ms: number): void;
  onExpand(paths: string[]): void;
}

/** The overall status, Check now, the refresh interval, expand and collapse all, and the time of the last check. */
function HealthToolbar({ health, loading, checkedAt, intervalMs, onCheck, onInterval, onExpand }: ToolbarProps) {
  return (
    <div className="toolbar">
      {health && (
        <span className="health-overall" aria-label="Overall status">
          <StatusBadge status={health.status} />
        </span>
      )}
      <button type="button" onClick={onCheck} disabled={loading}>
        {loading ? 'Checking…' : 'Check now'}
      </button>
      <label>
        Auto-refresh{' '}
        <select aria-label="Refresh interval" value={intervalMs} onChange={(e) => onInterval(Number(e.target.value))}>
          {intervals.map((i) => (
            <option key={i.ms} value={i.ms}>
              {i.label}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => onExpand(health ? groupPaths(health) : [])}>
        Expand all
      </button>
      <button type="button" onClick={() => onExpand([])}>
        Collapse all
      </button>
      <span className="spacer" />
      <span className="muted" aria-label="Last check">
        {checkedAt ? `Checked ${checkedAt.toLocaleTimeString(undefined, { hour12: false })}` : 'Not checked yet'}
      </span>
    </div>
  );
}

/** One component: its name (with a twisty when it has components), status, latency and details. */
function HealthRowView({ row, open, onToggle }: { row: HealthRow; open: boolean; onToggle(path: string): void }) {
  const latency = latencyOf(row.node);
  const failure = errorOf(row.node);
  return (
    <tr
      data-path={row.path}
      data-status={row.node.status}
      aria-level={row.depth + 1}
      aria-expanded={row.hasChildren ? open : undefined}
    >
      <td style={{ paddingLeft: 8 + row.depth * 18 }}>
        {row.hasChildren ? (
          <button
            type="button"
            className="twisty-button"
            aria-label={`${open ? 'Collapse' : 'Expand'} ${row.path}`}
            onClick={() => onToggle(row.path)}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="twisty-space" />
        )}
        <span className="health-name">{row.name}</span>
      </td>
      <td>
        <StatusBadge status={row.node.status} />
      </td>
      <td className="number">{latency !== undefined ? `${latency} ms` : ''}</td>
      <td>
        {failure && <div className="health-error">{failure}</div>}
        {otherDetails(row.node).map(([key, value]) => (
          <span key={key} className="health-detail">
            <span className="muted">{key}:</span> {value}
          </span>
        ))}
      </td>
    </tr>
  );
}

/** The health tree of `/api/health`: status badges, latency, errors and details, refreshed on an interval. */
export default function HealthPanel() {
  const [intervalMs, setIntervalMs] = usePersistedState('health-interval', 5000);
  const [expanded, setExpanded] = usePersistedState<string[]>('health-expanded', []);
  // A component that goes wrong opens by itself.
  const { health, error, at, loading, check } = useHealthChecks(intervalMs, (node) =>
    setExpanded((list) => [...new Set([...list, ...problemPaths(node)])]),
  );
  const open = useMemo(() => new Set(expanded), [expanded]);
  const rows = useMemo(() => (health ? visibleRows(health, open) : []), [health, open]);
  const toggle = (path: string) =>
    setExpanded((list) => (list.includes(path) ? list.filter((p) => p !== path) : [...list, path]));

  return (
    <div className="panel-column health-panel">
      <HealthToolbar
        health={health}
        loading={loading}
        checkedAt={at}
        intervalMs={intervalMs}
        onCheck={check}
        // A new interval starts with a check, as opening the panel does.
        onInterval={(ms) => {
          setIntervalMs(ms);
          check();
        }}
        onExpand={setExpanded}
      />
      {error && (
        <div className="banner error" role="alert">
          Cannot read /api/health: {error}
        </div>
      )}
      <div className="panel-scroll">
        <table className="grid health-tree" role="treegrid" aria-label="Health components">
          <thead>
            <tr>
              <th>Component</th>
              <th>Status</th>
              <th className="number">Latency</th>
              <th>Details</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <HealthRowView key={row.path} row={row} open={open.has(row.path)} onToggle={toggle} />
            ))}
          </tbody>
        </table>
        {health?.groups && <div className="muted health-groups">Groups: {health.groups.join(', ')}</div>}
      </div>
    </div>
  );
}

import { useCallback, useEffect, useMemo, useState } from 'react';
import { usePersistedState } from '../state/persisted.js';
import { errorOf, groupPaths, latencyOf, otherDetails, problemPaths, visibleRows } from './health-tree.js';
import type { ErrorBody, HealthNode } from '../../../server/src/contract/index.js';
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
  const response = await fetch('/api/health', { cache: 'no-store', headers: { accept: 'application/json' } });
  const body = (await response.json().catch(() => undefined)) as HealthNode | ErrorBody | undefined;
  if (body && 'status' in body) return body;
  throw new Error(body?.detail ?? `${response.status} ${response.statusText}`);
}

function StatusBadge({ status }: { status: string }) {
  return <span className={`health-badge ${status.toLowerCase()}`}>{status}</span>;
}

/** The health tree of `/api/health`: status badges, latency, errors and details, refreshed on an interval. */
export default function HealthPanel() {
  const [health, setHealth] = useState<HealthNode>();
  const [error, setError] = useState<string>();
  const [checkedAt, setCheckedAt] = useState<Date>();
  const [loading, setLoading] = useState(false);
  const [intervalMs, setIntervalMs] = usePersistedState('health-interval', 5000);
  const [expanded, setExpanded] = usePersistedState<string[]>('health-expanded', []);

  const check = useCallback(() => {
    setLoading(true);
    fetchHealth()
      .then(
        (node) => {
          setHealth(node);
          setError(undefined);
          // A component that goes wrong opens by itself.
          setExpanded((list) => [...new Set([...list, ...problemPaths(node)])]);
        },
        (e: Error) => setError(e.message),
      )
      .finally(() => {
        setLoading(false);
        setCheckedAt(new Date());
      });
  }, [setExpanded]);

  useEffect(() => {
    check();
    if (!intervalMs) return;
    const timer = setInterval(check, intervalMs);
    return () => clearInterval(timer);
  }, [check, intervalMs]);

  const open = useMemo(() => new Set(expanded), [expanded]);
  const rows = useMemo(() => (health ? visibleRows(health, open) : []), [health, open]);
  const toggle = (path: string) =>
    setExpanded((list) => (list.includes(path) ? list.filter((p) => p !== path) : [...list, path]));

  return (
    <div className="panel-column health-panel">
      <div className="toolbar">
        {health && (
          <span className="health-overall" aria-label="Overall status">
            <StatusBadge status={health.status} />
          </span>
        )}
        <button type="button" onClick={check} disabled={loading}>
          {loading ? 'Checking…' : 'Check now'}
        </button>
        <label>
          Auto-refresh{' '}
          <select
            aria-label="Refresh interval"
            value={intervalMs}
            onChange={(e) => setIntervalMs(Number(e.target.value))}
          >
            {intervals.map((i) => (
              <option key={i.ms} value={i.ms}>
                {i.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setExpanded(health ? groupPaths(health) : [])}>
          Expand all
        </button>
        <button type="button" onClick={() => setExpanded([])}>
          Collapse all
        </button>
        <span className="spacer" />
        <span className="muted" aria-label="Last check">
          {checkedAt ? `Checked ${checkedAt.toLocaleTimeString(undefined, { hour12: false })}` : 'Not checked yet'}
        </span>
      </div>
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
            {rows.map((row) => {
              const latency = latencyOf(row.node);
              const failure = errorOf(row.node);
              return (
                <tr
                  key={row.path}
                  data-path={row.path}
                  data-status={row.node.status}
                  aria-level={row.depth + 1}
                  aria-expanded={row.hasChildren ? open.has(row.path) : undefined}
                >
                  <td style={{ paddingLeft: 8 + row.depth * 18 }}>
                    {row.hasChildren ? (
                      <button
                        type="button"
                        className="twisty-button"
                        aria-label={`${open.has(row.path) ? 'Collapse' : 'Expand'} ${row.path}`}
                        onClick={() => toggle(row.path)}
                      >
                        {open.has(row.path) ? '▾' : '▸'}
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
            })}
          </tbody>
        </table>
        {health?.groups && <div className="muted health-groups">Groups: {health.groups.join(', ')}</div>}
      </div>
    </div>
  );
}

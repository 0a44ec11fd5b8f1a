import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import type { ErrorBody, HealthNode } from '../../../server/src/contract/index.js';
import { ApiError } from '../api/client.js';
import { authStore, useAuthState } from '../api/auth-session.js';
import { ownFetch } from '../api/own-fetch.js';
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
import { timeOfDay } from '../base/clock.js';
import './health.css';

const intervals = [
  { ms: 0, label: 'Off' },
  { ms: 2000, label: '2 s' },
  { ms: 5000, label: '5 s' },
  { ms: 10_000, label: '10 s' },
  { ms: 30_000, label: '30 s' },
  { ms: 60_000, label: '1 min' },
];

/**
 * `/api/health` answers 503 with the same tree when the top level is DOWN or OUT_OF_SERVICE. With
 * authentication on, it shows the components only to a signed-in caller, and refuses bad credentials.
 */
async function fetchHealth(): Promise<HealthNode> {
  const response = await ownFetch('/api/health', { cache: 'no-store', headers: { accept: 'application/json' } });
  const body = (await response.json().catch(() => undefined)) as HealthNode | ErrorBody | undefined;
  if (body && 'code' in body) throw new ApiError(response.status, body.detail, undefined, body.code);
  if (body && 'status' in body) return body;
  throw new Error(`${response.status} ${response.statusText}`);
}

/** What the last check found: the tree (kept when a later check fails), its error, and when. */
interface Checked {
  /** The number of the check this answers (checks are numbered from 0 as they are asked for). */
  answers: number;
  health?: HealthNode;
  error?: string;
  /** The error is the gateway refusing the caller's credentials (401/403). */
  refused?: boolean;
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
  const { session } = useAuthState();
  const checkedWith = useRef(session);

  // Signing in or out changes what the server shows: check again at once.
  useEffect(() => {
    if (checkedWith.current === session) return;
    checkedWith.current = session;
    setAsked((n) => n + 1);
  }, [session]);

  useEffect(() => {
    // An answer that comes after a later check's is dropped.
    const answer = (change: Pick<Checked, 'health' | 'error' | 'refused'>) =>
      setChecked((c) => (c.answers > asked ? c : { ...c, ...change, answers: asked, at: new Date() }));
    fetchHealth().then(
      (health) => {
        answer({ health, error: undefined, refused: false });
        arrived(health);
      },
      (e: Error) => answer({ error: e.message, refused: e instanceof ApiError && [401, 403].includes(e.status) }),
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
        {checkedAt ? `Checked ${timeOfDay(checkedAt)}` : 'Not checked yet'}
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

/** Why the panel shows less than the whole tree, with the action that shows it: sign in. */
function SignInNote({ refused, error }: { refused: boolean; error?: string }) {
  return (
    <div className={`banner health-sign-in${refused ? ' error' : ''}`} role={refused ? 'alert' : 'note'}>
      {refused
        ? `The gateway refused your credentials for /api/health: ${error}. `
        : 'Status only: this server shows the components to signed-in users. '}
      <button type="button" onClick={() => authStore.openSignIn()}>
        Sign in for details
      </button>
    </div>
  );
}

/** The health tree of `/api/health`: status badges, latency, errors and details, refreshed on an interval. */
export default function HealthPanel() {
  const [intervalMs, setIntervalMs] = usePersistedState('health-interval', 5000);
  const [expanded, setExpanded] = usePersistedState<string[]>('health-expanded', []);
  // A component that goes wrong opens by itself.
  const { info, session } = useAuthState();
  const {
    health,
    error,
    refused = false,
    at,
    loading,
    check,
  } = useHealthChecks(intervalMs, (node) => setExpanded((list) => [...new Set([...list, ...problemPaths(node)])]));
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
      {refused && <SignInNote refused error={error} />}
      {error && !refused && (
        <div className="banner error" role="alert">
          Cannot read /api/health: {error}
        </div>
      )}
      {info?.required && !session && !error && health && <SignInNote refused={false} />}
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

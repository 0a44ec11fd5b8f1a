import { useMemo, useState } from 'react';
import type { CapturedMessage, WorkbenchRequest } from '../../../server/src/contract/index.js';
import { useServerState, useWorkbench } from '../app/workbench-context.js';

/** Gateway paths are shown without it, to leave room for the part that differs. */
const gatewayPrefix = '/api/adaptive';

function statusClass(status: number): string {
  return status >= 500 ? 'error' : status >= 400 ? 'warning' : 'ok';
}

/** A body for reading: JSON indented, anything else as sent. */
function readableBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** The mode that answered, and whether the answer carries a fault or contract violations. */
function ModeBadge({ request }: { request: WorkbenchRequest }) {
  if (!request.mode && !request.fault && !request.violations) return null;
  const violations = request.violations?.length ?? 0;
  const title = [
    request.mode && `answered by the ${request.mode} mode`,
    request.fault && `fault: ${request.fault}`,
    violations > 0 && `${violations} contract violation${violations === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join('; ');
  return (
    <span className="mode-marks" title={title} aria-label={title}>
      {request.mode && <span className={`mode-badge mode-${request.mode}`}>{request.mode}</span>}
      {request.fault && <span className="mode-badge fault">fault</span>}
      {violations > 0 && <span className="mode-badge violations">{violations} ⚠</span>}
    </span>
  );
}

/** The proxy's (or a stateful answer's) contract violations and the injected fault, in the inspector. */
function MockFindings({ request }: { request: WorkbenchRequest }) {
  if (!request.fault && !request.violations?.length) return null;
  return (
    <section className="message-part" aria-label="Mock findings">
      {request.fault && <p>Injected fault: {request.fault}</p>}
      {request.violations && request.violations.length > 0 && (
        <table className="grid headers" aria-label="Contract violations">
          <tbody>
            {request.violations.map((v, i) => (
              <tr key={i}>
                <th>{v.in}</th>
                <td>
                  <code>{v.path}</code> {v.rule}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Message({ title, message }: { title: string; message: CapturedMessage }) {
  return (
    <section className="message-part">
      <h4>{title}</h4>
      <details>
        <summary>Headers ({Object.keys(message.headers).length})</summary>
        <table className="grid headers">
          <tbody>
            {Object.entries(message.headers).map(([name, value]) => (
              <tr key={name}>
                <th>{name}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {message.body === undefined ? (
        <p className="muted">No body</p>
      ) : (
        <>
          <pre className="body" aria-label={`${title} body`}>
            {readableBody(message.body)}
          </pre>
          {message.truncated && <p className="muted">Cut at 64 KiB of {message.size ?? '?'} bytes.</p>}
        </>
      )}
    </section>
  );
}

function Inspector({ request }: { request: WorkbenchRequest }) {
  const status = <span className={`status ${statusClass(request.status)}`}>{request.status}</span>;
  return (
    <div className="inspector panel-scroll" aria-label="Request inspector">
      <h3>
        <span className="method">{request.method}</span> {request.url}
      </h3>
      <p>
        {status} in {request.durationMs} ms · {request.source}
        {request.file ? ` · ${request.file}` : ''} ·{' '}
        {new Date(request.time).toLocaleTimeString(undefined, { hour12: false })} <ModeBadge request={request} />
      </p>
      <MockFindings request={request} />
      <Message title="Response" message={request.response} />
      <Message title="Request" message={request.request} />
    </div>
  );
}

interface RequestsTableProps {
  requests: WorkbenchRequest[];
  selected?: WorkbenchRequest;
  onSelect(id: number): void;
}

/**
 * The requests, newest first: time, method, path (without the gateway prefix), status, duration, the mock mode
 * that answered (with faults and violations), what served it.
 */
function RequestsTable({ requests, selected, onSelect }: RequestsTableProps) {
  return (
    <table className="grid requests" aria-label="Requests">
      <colgroup>
        <col className="col-time" />
        <col className="col-method" />
        <col />
        <col className="col-status" />
        <col className="col-ms" />
        <col className="col-mode" />
        <col className="col-source" />
      </colgroup>
      <thead>
        <tr>
          <th>Time</th>
          <th>Method</th>
          <th>Path</th>
          <th>Status</th>
          <th>ms</th>
          <th>Mode</th>
          <th>Served by</th>
        </tr>
      </thead>
      <tbody>
        {requests.map((r) => (
          <tr
            key={r.id}
            className={r === selected ? 'selected' : ''}
            tabIndex={0}
            onClick={() => onSelect(r.id)}
            onKeyDown={(e) => e.key === 'Enter' && onSelect(r.id)}
          >
            <td>{new Date(r.time).toLocaleTimeString(undefined, { hour12: false })}</td>
            <td className="method">{r.method}</td>
            <td className="url" title={r.url}>
              {r.url.startsWith(gatewayPrefix) ? r.url.slice(gatewayPrefix.length) : r.url}
            </td>
            <td>
              <span className={`status ${statusClass(r.status)}`}>{r.status}</span>
            </td>
            <td className="number">{r.durationMs}</td>
            <td className="mode">
              <ModeBadge request={r} />
            </td>
            <td className="source" title={r.file ? `${r.source}: ${r.file}` : r.source}>
              {r.file ?? r.source}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Requests the server answered while the workbench is open, and the inspector for one of them. */
export function RequestsPanel() {
  const { events } = useWorkbench();
  const { requests } = useServerState();
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<number>();
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const list = needle
      ? requests.filter((r) =>
          `${r.method} ${r.url} ${r.status} ${r.file ?? ''} ${r.mode ?? ''}`.toLowerCase().includes(needle),
        )
      : requests;
    return [...list].reverse();
  }, [requests, search]);
  const selected = requests.find((r) => r.id === selectedId) ?? shown[0];

  return (
    <div className="panel-column">
      <div className="toolbar">
        <input
          type="search"
          placeholder="Filter requests"
          aria-label="Filter requests"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <span className="spacer" />
        <span className="muted">{requests.length} requests</span>
        <button type="button" onClick={() => events.clearRequests()}>
          Clear
        </button>
      </div>
      {shown.length === 0 ? (
        <div className="placeholder">Requests to the gateway appear here (try one from the API docs).</div>
      ) : (
        <div className="requests-split">
          <div className="panel-scroll">
            <RequestsTable requests={shown} selected={selected} onSelect={setSelectedId} />
          </div>
          {selected && <Inspector request={selected} />}
        </div>
      )}
    </div>
  );
}

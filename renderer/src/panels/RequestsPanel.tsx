import { useMemo, useState } from 'react';
import type { CapturedMessage, WorkbenchRequest } from '../../../server/src/contract/index.js';
import { useServerState, useSessionState, useWorkbench } from '../platform/workbench-context.js';
import { ActionResult, RowMenu, type RequestAction } from '../requests/RequestActions.js';
import { RequestFilters, originLabels } from '../requests/RequestFilters.js';
import { defaultRequestFilter, filterRequests, methodsOf, statusTone } from '../api/request-filters.js';
import { useRevealLog } from '../requests/log-reveal.js';
import { timeOfDay } from '../base/clock.js';
import '../requests/requests.css';

/** A duration for the table: whole milliseconds from 10 ms (`8252` for 8251.7), one decimal below. */
export function tableDuration(ms: number): string {
  return ms < 10 ? ms.toFixed(1) : String(Math.round(ms));
}

/** A body for reading: JSON indented, anything else as sent. */
export function readableBody(body: string): string {
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
    request.mockRule && `chosen by the mock table: ${request.mockRule}`,
    violations > 0 && `${violations} contract violation${violations === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join('; ');
  return (
    <span className="mode-marks" title={title} aria-label={title}>
      {request.mode && <span className={`mode-badge mode-${request.mode}`}>{request.mode}</span>}
      {request.fault && <span className="mode-badge fault">fault</span>}
      {request.mockRule && <span className="mode-badge mock-rule">{request.mockRule}</span>}
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

interface InspectorProps {
  request: WorkbenchRequest;
  action?: RequestAction;
  onAction(action: RequestAction | Promise<RequestAction>): void;
}

function Inspector({ request, action, onAction }: InspectorProps) {
  const status = <span className={`status ${statusTone(request.status)}`}>{request.status}</span>;
  return (
    <div className="inspector panel-scroll" aria-label="Request inspector">
      <h3>
        <span className="method">{request.method}</span> {request.url}
      </h3>
      <p>
        {status} in {request.durationMs} ms · {request.source}
        {request.file ? ` · ${request.file}` : ''} · {originLabels[request.origin]} · {request.requestId} ·{' '}
        {timeOfDay(request.time)} <ModeBadge request={request} />
      </p>
      {action && <ActionResult request={request} action={action} onAction={onAction} />}
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
  onAction(request: WorkbenchRequest, action: RequestAction | Promise<RequestAction>): void;
}

/** A status, and for a 5xx whose error was logged, the link to that log line. */
function StatusCell({ request }: { request: WorkbenchRequest }) {
  const revealLog = useRevealLog();
  const { logId } = request;
  return (
    <td>
      <span className={`status ${statusTone(request.status)}`}>{request.status}</span>
      {logId !== undefined && (
        <button
          type="button"
          className="link log-link"
          title="Open its error in the logs"
          aria-label={`Log entry of ${request.requestId}`}
          onClick={(e) => {
            e.stopPropagation();
            revealLog(logId);
          }}
        >
          log
        </button>
      )}
    </td>
  );
}

/**
 * The requests, newest first: time, method, status (a 5xx links to its logged error), duration, the mock
 * mode that answered (with faults and violations), then the path, who sent it, what served it, and the
 * row's menu. Status, duration and mode come before the path so a long path or a narrow panel never
 * pushes them out of view.
 */
function RequestsTable({ requests, selected, onSelect, onAction }: RequestsTableProps) {
  return (
    <table className="grid requests" aria-label="Requests">
      <colgroup>
        <col className="col-time" />
        <col className="col-method" />
        <col className="col-status" />
        <col className="col-ms" />
        <col className="col-mode" />
        <col />
        <col className="col-origin" />
        <col className="col-source" />
        <col className="col-menu" />
      </colgroup>
      <thead>
        <tr>
          <th>Time</th>
          <th>Method</th>
          <th>Status</th>
          <th>ms</th>
          <th>Mode</th>
          <th>Path</th>
          <th>Origin</th>
          <th>Served by</th>
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {requests.map((r) => (
          <tr
            key={r.id}
            className={r === selected ? 'selected' : ''}
            data-origin={r.origin}
            tabIndex={0}
            onClick={() => onSelect(r.id)}
            onKeyDown={(e) => e.key === 'Enter' && onSelect(r.id)}
          >
            <td>{timeOfDay(r.time)}</td>
            <td className="method">{r.method}</td>
            <StatusCell request={r} />
            <td className="number duration" title={`${r.durationMs} ms`}>
              {tableDuration(r.durationMs)}
            </td>
            <td className="mode">
              <ModeBadge request={r} />
            </td>
            <td className="url" title={r.url}>
              {r.url}
            </td>
            <td className={`origin ${r.origin}`}>{originLabels[r.origin]}</td>
            <td className="source" title={r.file ? `${r.source}: ${r.file}` : r.source}>
              {r.file ?? r.source}
            </td>
            <td>
              <RowMenu request={r} onAction={(action) => onAction(r, action)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Requests the server answered while the workbench is open, and the inspector for one of them. The
 * workbench's own calls are hidden unless asked for; filters narrow the rest.
 */
export function RequestsPanel() {
  const { events } = useWorkbench();
  const requests = useServerState((s) => s.requests);
  const [filter, setFilter] = useSessionState('requests-filter', defaultRequestFilter);
  const [selectedId, setSelectedId] = useState<number>();
  const [action, setAction] = useState<{ requestId: number; action: RequestAction }>();
  const { shown, hiddenOwn } = useMemo(() => {
    const result = filterRequests(requests, filter);
    return { shown: result.shown.reverse(), hiddenOwn: result.hiddenOwn };
  }, [requests, filter]);
  const methods = useMemo(() => methodsOf(requests), [requests]);
  const selected = shown.find((r) => r.id === selectedId) ?? shown[0];

  const onAction = (request: WorkbenchRequest, next: RequestAction | Promise<RequestAction>) => {
    setSelectedId(request.id);
    if (!(next instanceof Promise)) return setAction({ requestId: request.id, action: next });
    setAction({ requestId: request.id, action: { kind: 'sending' } });
    // An answer to an action on a request no longer shown is dropped.
    void next.then((done) =>
      setAction((current) => (current?.requestId === request.id ? { requestId: request.id, action: done } : current)),
    );
  };

  return (
    <div className="panel-column">
      <div className="toolbar requests-toolbar">
        <RequestFilters filter={filter} methods={methods} hiddenOwn={hiddenOwn} onChange={setFilter} />
        <span className="spacer" />
        <span className="muted" aria-label="Requests shown">
          {shown.length} of {requests.length}
        </span>
        <button type="button" onClick={() => events.clearRequests()}>
          Clear
        </button>
      </div>
      {shown.length === 0 ? (
        <div className="placeholder">
          {requests.length === 0
            ? 'Requests to the server appear here (try one from the API docs).'
            : 'No request matches the filters.'}
        </div>
      ) : (
        <div className="requests-split">
          <div className="panel-scroll">
            <RequestsTable requests={shown} selected={selected} onSelect={setSelectedId} onAction={onAction} />
          </div>
          {selected && (
            <Inspector
              request={selected}
              action={action?.requestId === selected.id ? action.action : undefined}
              onAction={(next) => onAction(selected, next)}
            />
          )}
        </div>
      )}
    </div>
  );
}

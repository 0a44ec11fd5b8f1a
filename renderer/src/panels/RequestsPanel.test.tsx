// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkbenchRequest } from '../../../server/src/contract/index.js';
import { renderOverEvents } from '../platform/workbench.test-support.js';
import { readableBody, RequestsPanel, tableDuration } from './RequestsPanel.js';

describe('requests panel helpers', () => {
  it('shows durations in whole milliseconds from 10 ms, so the column never needs to cut them', () => {
    expect([8251.7, 10, 9.96, 0.4, 3_600_000].map(tableDuration)).toEqual(['8252', '10', '10.0', '0.4', '3600000']);
  });

  it('indents JSON bodies and leaves anything else as sent', () => {
    expect(readableBody('{"a":[1,"ü"]}')).toBe('{\n  "a": [\n    1,\n    "ü"\n  ]\n}');
    expect(readableBody('<xml/>')).toBe('<xml/>');
    expect(readableBody('{"truncated": ')).toBe('{"truncated": ');
    expect(readableBody('')).toBe('');
  });
});

let nextId = 0;
const captured = (over: Partial<WorkbenchRequest>): WorkbenchRequest => ({
  id: ++nextId,
  requestId: `req-${nextId}`,
  origin: 'external',
  time: 0,
  method: 'GET',
  url: '/api/adaptive/orders/orders',
  status: 200,
  durationMs: 4.2,
  source: 'spec',
  file: 'specs/orders.yaml',
  request: { headers: {} },
  response: { headers: { 'content-type': 'application/json' }, body: '{"id":1}' },
  ...over,
});

/** The panel over a server whose event stream sends `requests`. */
function renderRequests(...requests: WorkbenchRequest[]) {
  const { emit } = renderOverEvents(<RequestsPanel />);
  for (const request of requests) emit('request', request);
  return emit;
}

/** The rows of the table as `method status ms path`. */
const rows = () =>
  within(screen.getByRole('table', { name: 'Requests' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      [...row.children]
        .slice(1, 6)
        .map((cell) => cell.textContent)
        .join(' ')
        .trim(),
    );

describe('RequestsPanel', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('invites a first request, then lists them newest first and inspects the newest', () => {
    const emit = renderRequests();
    expect(screen.getByText('Requests to the server appear here (try one from the API docs).')).toBeTruthy();
    emit('request', captured({ durationMs: 8251.7 }));
    emit('request', captured({ method: 'POST', status: 422, mode: 'dynamic', durationMs: 2 }));
    expect(rows()).toEqual([
      'POST 422 2.0 dynamic /api/adaptive/orders/orders',
      'GET 200 8252  /api/adaptive/orders/orders',
    ]);
    const inspector = screen.getByLabelText('Request inspector');
    expect(within(inspector).getByRole('heading', { level: 3 }).textContent).toBe('POST /api/adaptive/orders/orders');
    fireEvent.click(screen.getAllByRole('row')[2]);
    expect(within(inspector).getByLabelText('Response body').textContent).toBe('{\n  "id": 1\n}');
  });

  it("hides the workbench's own calls unless asked, and filters by status", () => {
    renderRequests(
      captured({ origin: 'workbench', url: '/api/v1/query/sql', method: 'POST' }),
      captured({ status: 503, url: '/api/adaptive/orders/slow' }),
      captured({}),
    );
    expect(screen.getByLabelText('Requests shown').textContent).toBe('2 of 3');
    fireEvent.click(screen.getByRole('checkbox'));
    expect(screen.getByLabelText('Requests shown').textContent).toBe('3 of 3');
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '5xx' } });
    expect(rows()).toEqual(['GET 503 4.2  /api/adaptive/orders/slow']);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '3xx' } });
    expect(screen.getByText('No request matches the filters.')).toBeTruthy();
  });

  it('marks faults, table rules and contract violations, and lists the violations in the inspector', () => {
    renderRequests(
      captured({
        mode: 'proxy',
        fault: 'delay=300ms',
        mockRule: 'rule 2',
        violations: [{ in: 'response', path: '/total', rule: 'type' }],
      }),
    );
    const marks = screen.getAllByLabelText(/answered by the proxy mode/)[0];
    expect(marks.getAttribute('aria-label')).toBe(
      'answered by the proxy mode; fault: delay=300ms; chosen by the mock table: rule 2; 1 contract violation',
    );
    const findings = screen.getByLabelText('Mock findings');
    expect(findings.textContent).toBe('Injected fault: delay=300msresponse/total type');
  });

  it('links a logged 5xx to its log line, and clears the list', () => {
    renderRequests(captured({ status: 500, logId: 7 }));
    expect(screen.getByRole('button', { name: 'Log entry of req-' + nextId })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByText('Requests to the server appear here (try one from the API docs).')).toBeTruthy();
  });
});

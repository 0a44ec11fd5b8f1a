// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockTableRoute, MockTableRow, MockTableView, SpecModeInfo } from '../../../server/src/contract/index.js';
import { fakeServer, renderInWorkbench } from '../platform/workbench.test-support.js';
import { compact, RouteTableView, targetOf, targetValue } from './RouteTableView.js';

describe('mock table targets', () => {
  it('names a response, an example of one, or the default, and reads the name back', () => {
    const cases = [{}, { response: 200 }, { response: 404, example: 'missing' }, { example: 'open' }];
    expect(cases.map(targetValue)).toEqual(['', '200', '404/missing', '/open']);
    for (const target of cases) expect(targetOf(targetValue(target))).toEqual(target);
  });

  it('keeps the rest of an example name that holds a slash out of the target', () => {
    expect(targetOf('200/a/b')).toEqual({ response: 200, example: 'a' });
  });
});

describe('compact', () => {
  it('drops unset settings and empty rules, and a row with nothing set', () => {
    expect(compact({})).toBeUndefined();
    expect(compact({ errorRate: undefined, rules: [] })).toBeUndefined();
    expect(compact({ response: 503, delay: undefined, rules: [] })).toEqual({ response: 503 });
  });
});

const routes: MockTableRoute[] = [
  {
    key: 'GET /orders',
    responses: [
      { status: '200', examples: ['open', 'closed'] },
      { status: '404', examples: [] },
    ],
    row: {
      response: 200,
      example: 'open',
      rules: [{ in: 'query', key: 'status', equals: 'closed', example: 'closed' }],
    },
  },
  { key: 'POST /orders', responses: [{ status: '201', examples: [] }] },
];

const orders: SpecModeInfo = {
  path: 'specs/orders.yaml',
  mount: 'orders',
  mode: 'static',
  setBy: 'workspace',
  recorded: 0,
};

/** The view over a fake server whose table is `view`; the proposal echoes the rows it was sent. */
function renderTable(view: Partial<MockTableView> = {}) {
  const server = fakeServer({
    'GET /api/workbench/mock/table': () => ({ mount: 'orders', path: 'specs/orders.mock.yaml', routes, ...view }),
    'POST /api/workbench/mock/table': (call) => ({
      path: 'specs/orders.mock.yaml',
      original: '',
      proposed: JSON.stringify(call.body),
    }),
    'PUT /api/workbench/files/content': () => ({ path: 'specs/orders.mock.yaml', version: 'v2' }),
  });
  const props = { onClose: vi.fn(), onDone: vi.fn(), onError: vi.fn() };
  renderInWorkbench(<RouteTableView spec={orders} {...props} />);
  return { ...server, ...props };
}

describe('RouteTableView', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows each route's row from the file, with its rules opened when it has some", async () => {
    renderTable();
    const answer = (await screen.findByLabelText('Answer of GET /orders')) as HTMLSelectElement;
    expect(answer.value).toBe('200/open');
    expect([...answer.options].map((o) => o.value)).toEqual(['', '200', '200/open', '200/closed', '404']);
    expect((screen.getByLabelText('Rule 1 of GET /orders: key') as HTMLInputElement).value).toBe('status');
    expect((screen.getByLabelText('Rule 1 of GET /orders: answer') as HTMLSelectElement).value).toBe('/closed');
    expect(screen.getByLabelText('Rules of POST /orders').getAttribute('aria-expanded')).toBe('false');
  });

  it('writes the edited rows, without empty ones or unnamed rules, and says where', async () => {
    const { calls, onDone } = renderTable();
    fireEvent.change(await screen.findByLabelText('Status of POST /orders'), { target: { value: '503' } });
    fireEvent.change(screen.getByLabelText('Error rate of POST /orders'), { target: { value: '25' } });
    fireEvent.click(screen.getByLabelText('Rules of POST /orders'));
    // A rule without a key says nothing: it is left out.
    fireEvent.click(within(screen.getByLabelText('Rules of POST /orders', { selector: 'div' })).getByText('Add rule'));
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('specs/orders.mock.yaml saved; the gateway reloads it'));
    const posted = calls.find((c) => c.method === 'POST')?.body as { routes: Record<string, MockTableRow> };
    expect(posted.routes).toEqual({
      'GET /orders': routes[0].row,
      'POST /orders': { status: 503, errorRate: 0.25 },
    });
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ content: JSON.stringify(posted) });
  });

  it('moves a rule up, removes one, and keeps the order it shows', async () => {
    const { calls } = renderTable();
    const rules = await screen.findByLabelText('Rules of GET /orders', { selector: 'div' });
    fireEvent.click(within(rules).getByText('Add rule'));
    fireEvent.change(screen.getByLabelText('Rule 2 of GET /orders: key'), { target: { value: 'x-tenant' } });
    fireEvent.change(screen.getByLabelText('Rule 2 of GET /orders: source'), { target: { value: 'header' } });
    fireEvent.click(screen.getByLabelText('Move Rule 2 of GET /orders up'));
    expect((screen.getByLabelText('Rule 1 of GET /orders: key') as HTMLInputElement).value).toBe('x-tenant');
    expect((screen.getByLabelText('Move Rule 1 of GET /orders up') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('Remove Rule 2 of GET /orders'));
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const posted = calls.find((c) => c.method === 'POST')?.body as { routes: Record<string, MockTableRow> };
    expect(posted.routes['GET /orders'].rules).toEqual([{ in: 'header', key: 'x-tenant' }]);
  });

  it("shows why the file on disk cannot be used, and hands the server's refusal to its owner", async () => {
    const { onError } = renderTable({ problem: 'line 3: unknown route GET /nope' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'specs/orders.mock.yaml: line 3: unknown route GET /nope',
    );
    fakeServer({
      'POST /api/workbench/mock/table': () => ({ status: 400, body: { detail: 'rate above 1', code: 'WB_X' } }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect((onError.mock.calls[0]?.[0] as Error | undefined)?.message).toBe('rate above 1'));
  });
});

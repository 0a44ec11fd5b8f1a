// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockOverview, SpecModeInfo } from '../../../server/src/contract/index.js';
import { fakeServer, renderInWorkbench } from '../platform/workbench.test-support.js';
import MockPanel from './MockPanel.js';

// Monaco's registries are the editor's business: applying a proposal here goes through the documents only.
vi.mock('../editor/monaco-setup.js', () => ({
  monaco: { editor: { getModel: () => null }, Uri: { parse: (uri: string) => uri } },
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const spec = (over: Partial<SpecModeInfo>): SpecModeInfo => ({
  path: 'specs/orders.yaml',
  mount: 'orders',
  mode: 'static',
  setBy: 'workspace',
  recorded: 0,
  ...over,
});

const overview = (...specs: SpecModeInfo[]): MockOverview => ({
  defaults: { examples: 'static', state: false },
  specs,
});

describe('MockPanel list', () => {
  it('lists each spec with its mode, what sets it, its base URL and the actions of its mode', async () => {
    fakeServer({
      'GET /api/workbench/mock': () =>
        overview(
          spec({}),
          spec({ path: 'specs/cart.yaml', mount: 'cart', mode: 'stateful', setBy: 'x-adaptive-state' }),
          spec({ path: 'specs/pay.yaml', mount: 'pay', mode: 'proxy', setBy: 'x-adaptive-proxy', recorded: 3 }),
        ),
    });
    renderInWorkbench(<MockPanel />);
    expect(await screen.findByText('Workspace: static examples, state off')).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-spec'))).toEqual([
      'specs/orders.yaml',
      'specs/cart.yaml',
      'specs/pay.yaml',
    ]);
    expect((screen.getByLabelText('Mode of cart.yaml') as HTMLSelectElement).value).toBe('stateful');
    expect(within(rows[1]).getByText('set by x-adaptive-state')).toBeTruthy();
    expect(within(rows[0]).getByText(`${window.location.origin}/api/adaptive/orders`)).toBeTruthy();
    // Reset only for a stateful spec, Record (with its count) only for a proxied one.
    expect(within(rows[0]).queryByLabelText('Reset the state of orders.yaml')).toBeNull();
    expect(within(rows[1]).getByLabelText('Reset the state of cart.yaml')).toBeTruthy();
    expect(within(rows[2]).getByLabelText('Record answers of pay.yaml').textContent).toBe('Record (3)');
  });

  it('says so when no spec is loaded', async () => {
    fakeServer({ 'GET /api/workbench/mock': () => overview() });
    renderInWorkbench(<MockPanel />);
    expect(await screen.findByText('No spec is loaded.')).toBeTruthy();
  });
});

describe('MockPanel actions', () => {
  it('switches a mode by saving the proposed spec text through the file API', async () => {
    const { calls } = fakeServer({
      'GET /api/workbench/mock': () => overview(spec({})),
      'POST /api/workbench/mock/mode': () => ({ path: 'specs/orders.yaml', original: 'a', proposed: 'b' }),
      'GET /api/workbench/files/content': () => ({ path: 'specs/orders.yaml', content: 'a', version: 'v1' }),
      'PUT /api/workbench/files/content': () => ({ path: 'specs/orders.yaml', version: 'v2' }),
    });
    const { workbench } = renderInWorkbench(<MockPanel />);
    fireEvent.change(await screen.findByLabelText('Mode of orders.yaml'), { target: { value: 'dynamic' } });
    expect((await screen.findByRole('status')).textContent).toMatch(/specs\/orders\.yaml switched to dynamic/);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ path: 'specs/orders.yaml', mode: 'dynamic' });
    const save = calls.find((c) => c.method === 'PUT');
    expect(save?.body).toEqual({ content: 'b', baseVersion: 'v1' });
    expect(workbench.openFile).toHaveBeenCalledWith('specs/orders.yaml');
  });

  it('asks for the upstream before proxying a spec that names none, and sends it', async () => {
    const { calls } = fakeServer({
      'GET /api/workbench/mock': () => overview(spec({})),
      'POST /api/workbench/mock/mode': () => ({ status: 400, body: { detail: 'upstream refused', code: 'WB_X' } }),
    });
    renderInWorkbench(<MockPanel />);
    fireEvent.change(await screen.findByLabelText('Mode of orders.yaml'), { target: { value: 'proxy' } });
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    const upstream = screen.getByLabelText('Upstream URL of orders.yaml');
    fireEvent.change(upstream, { target: { value: 'http://127.0.0.1:9000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Proxy' }));
    // The server's refusal is shown as the panel's outcome.
    expect((await screen.findByRole('status')).textContent).toBe('upstream refused');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      path: 'specs/orders.yaml',
      mode: 'proxy',
      upstream: 'http://127.0.0.1:9000',
    });
  });

  it('resets one stateful mount, or all, and says what was reset', async () => {
    const { calls } = fakeServer({
      'GET /api/workbench/mock': () => overview(spec({ mode: 'stateful' })),
      'POST /api/adaptive/actuator/state/reset': (call) => ({ reset: call.url.includes('mount=') ? ['orders'] : [] }),
    });
    renderInWorkbench(<MockPanel />);
    fireEvent.click(await screen.findByLabelText('Reset the state of orders.yaml'));
    expect((await screen.findByRole('status')).textContent).toBe('State reset: orders');
    fireEvent.click(screen.getByRole('button', { name: 'Reset all state' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('No stateful mock to reset'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/api/adaptive/actuator/state/reset?mount=orders',
      '/api/adaptive/actuator/state/reset',
    ]);
  });

  it('opens the route table of a spec and goes back to the list', async () => {
    fakeServer({
      'GET /api/workbench/mock': () => overview(spec({})),
      'GET /api/workbench/mock/table': () => ({ mount: 'orders', path: 'specs/orders.mock.yaml', routes: [] }),
    });
    renderInWorkbench(<MockPanel />);
    fireEvent.click(await screen.findByLabelText('Routes of orders.yaml'));
    expect(await screen.findByText('(specs/orders.mock.yaml)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(await screen.findByLabelText('Mode of orders.yaml')).toBeTruthy();
  });
});

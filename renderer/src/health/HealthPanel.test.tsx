// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HealthNode } from '../../../server/src/contract/index.js';
import { authStore } from '../api/auth-session.js';
import { fakeServer } from '../platform/workbench.test-support.js';
import HealthPanel from './HealthPanel.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
  authStore.dismissRefusal();
});

const tree = (sourceStatus: HealthNode['status']): HealthNode => ({
  status: sourceStatus === 'UP' ? 'UP' : 'DOWN',
  groups: ['liveness', 'readiness'],
  components: {
    gateway: { status: 'UP', details: { latency_ms: 3, specs: 2 } },
    query: {
      status: sourceStatus,
      components: {
        warehouse: {
          status: sourceStatus,
          details: { latency_ms: 41, ...(sourceStatus === 'UP' ? {} : { error: 'ECONNREFUSED' }) },
        },
      },
    },
  },
});

/** The component names of the rows shown, in order. */
const shownPaths = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.getAttribute('data-path'));

describe('HealthPanel', () => {
  it('shows the overall status and the top components, folded, with latency and details', async () => {
    fakeServer({ 'GET /api/health': () => tree('UP') });
    render(<HealthPanel />);
    expect((await screen.findByLabelText('Overall status')).textContent).toBe('UP');
    expect(shownPaths()).toEqual(['gateway', 'query']);
    const gateway = screen.getAllByRole('row')[1];
    expect(gateway.textContent).toContain('3 ms');
    expect(gateway.textContent).toContain('specs: 2');
    expect(screen.getByText('Groups: liveness, readiness')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Expand query'));
    expect(shownPaths()).toEqual(['gateway', 'query', 'query/warehouse']);
    fireEvent.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(shownPaths()).toEqual(['gateway', 'query']);
  });

  it('opens a component that goes down by itself, and shows the tree of a 503 with its error', async () => {
    fakeServer({ 'GET /api/health': () => ({ status: 503, body: tree('DOWN') }) });
    render(<HealthPanel />);
    expect((await screen.findByLabelText('Overall status')).textContent).toBe('DOWN');
    await waitFor(() => expect(shownPaths()).toEqual(['gateway', 'query', 'query/warehouse']));
    expect(screen.getAllByRole('row')[3].getAttribute('data-status')).toBe('DOWN');
    expect(screen.getByText('ECONNREFUSED')).toBeTruthy();
  });

  it('keeps the last tree when a check fails, and says why', async () => {
    let up = true;
    fakeServer({
      'GET /api/health': () => (up ? tree('UP') : { status: 502, body: { detail: 'bad gateway', code: 'X' } }),
    });
    render(<HealthPanel />);
    await screen.findByLabelText('Overall status');
    up = false;
    fireEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Cannot read /api/health: bad gateway');
    expect(shownPaths()).toEqual(['gateway', 'query']);
  });

  it('offers to sign in when the gateway refuses the credentials', async () => {
    fakeServer({
      'GET /api/health': () => ({ status: 401, body: { detail: 'the token expired', code: 'AUTH_INVALID' } }),
    });
    const openSignIn = vi.spyOn(authStore, 'openSignIn');
    render(<HealthPanel />);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The gateway refused your credentials for /api/health: the token expired.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign in for details' }));
    expect(openSignIn).toHaveBeenCalled();
  });

  it('checks again on its interval, and never once it is off', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = fakeServer({ 'GET /api/health': () => tree('UP') });
    render(<HealthPanel />);
    await screen.findByLabelText('Overall status');
    fireEvent.change(screen.getByLabelText('Refresh interval'), { target: { value: '2000' } });
    // The check the new interval starts with, then one every 2 s.
    expect(calls.length).toBe(2);
    for (const expected of [3, 4]) {
      await act(() => vi.advanceTimersByTimeAsync(2000));
      expect(calls.length).toBe(expected);
    }
    fireEvent.change(screen.getByLabelText('Refresh interval'), { target: { value: '0' } });
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(calls.length).toBe(5);
  });
});

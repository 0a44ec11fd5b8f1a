// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkbenchAuthInfo } from '../../../server/src/contract/index.js';
import { authStore } from '../api/auth-session.js';
import { WorkbenchApi } from '../api/client.js';
import { fakeServer, type FakeCall } from '../platform/workbench.test-support.js';
import { SessionIndicator, SignInHost } from './SignInHost.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  act(() => {
    authStore.signOut();
    authStore.closeSignIn();
  });
});

const basicAndBearer: WorkbenchAuthInfo = { required: true, schemes: ['basic', 'bearer'] };

/** The sign-in over a server that accepts `alice:secret` and the token `good`, and refuses anything else. */
function renderSignIn(info: WorkbenchAuthInfo = basicAndBearer) {
  const server = fakeServer({
    'GET /api/workbench/auth': () => info,
    'GET /api/workbench/auth/session': ({ headers }: FakeCall) =>
      headers.authorization === `Basic ${btoa('alice:secret')}`
        ? { scheme: 'basic', subject: 'alice' }
        : headers.authorization === 'Bearer good'
          ? { scheme: 'bearer', subject: 'svc-42', expiresAt: 1 }
          : { status: 401, body: { detail: 'the credentials were refused', code: 'AUTH_INVALID' } },
  });
  render(
    <>
      <SignInHost api={new WorkbenchApi('test-token')} />
      <SessionIndicator />
    </>,
  );
  return server;
}

describe('sign-in', () => {
  it('opens at start when the server requires credentials, offering only the schemes it accepts', async () => {
    renderSignIn({ required: true, schemes: ['bearer'] });
    expect(await screen.findByRole('dialog', { name: 'Sign in to the gateway' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'User name and password' })).toBeNull();
    expect(screen.getByRole('form', { name: 'Access token' })).toBeTruthy();
  });

  it('shows nothing when the server requires none', async () => {
    const { calls } = renderSignIn({ required: false, schemes: [] });
    await waitFor(() => expect(calls.length).toBe(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('keeps the session only once the server accepted it, and shows the refusal otherwise', async () => {
    renderSignIn();
    const submit = within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign in' });
    fireEvent.click(submit);
    expect(screen.getByRole('alert').textContent).toBe('Enter a user name.');
    fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe('the credentials were refused');
    expect(authStore.snapshot().session).toBeUndefined();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(submit);
    expect((await screen.findByLabelText('Signed in')).textContent).toBe('Signed in as alice Sign out');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(authStore.authorization()).toBe(`Basic ${btoa('alice:secret')}`);
  });

  it('takes a pasted token with its Bearer prefix, and refuses a paste that is no token', async () => {
    renderSignIn();
    await screen.findByRole('dialog');
    const token = screen.getByLabelText('Access token (from your identity provider)');
    fireEvent.change(token, { target: { value: 'two words' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use token' }));
    expect(screen.getByRole('alert').textContent).toBe('Paste an access token (a JWT, with or without "Bearer ").');
    fireEvent.change(token, { target: { value: '  Bearer good\n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use token' }));
    expect((await screen.findByLabelText('Signed in')).textContent).toContain('svc-42');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(authStore.authorization()).toBeUndefined();
  });

  it("shows a panel's refused call with Sign in, until dismissed", async () => {
    renderSignIn();
    await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    act(() => authStore.refused({ method: 'GET', url: '/api/health', status: 403, detail: 'role missing' }));
    expect(screen.getByRole('alert', { name: 'Refused call' }).textContent).toContain(
      'GET /api/health refused (403): you are signed in but not allowed: role missing',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

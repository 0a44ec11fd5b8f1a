// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkbenchRequest } from '../../../server/src/contract/index.js';
import { fakeServer } from '../platform/workbench.test-support.js';
import { ActionResult, RowMenu, type RequestAction } from './RequestActions.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const captured: WorkbenchRequest = {
  id: 7,
  requestId: 'req-7',
  origin: 'external',
  time: 0,
  method: 'POST',
  url: '/api/adaptive/orders/orders?x=1',
  status: 201,
  durationMs: 4,
  source: 'spec',
  request: {
    headers: { 'content-type': 'application/json', authorization: '[redacted]' },
    body: '{"sku":"A-1"}',
  },
  response: { headers: {} },
};

/** A row's menu and what its action left to see, as the inspector shows them. */
function Inspector() {
  const [action, setAction] = useState<RequestAction>();
  const onAction = (next: RequestAction | Promise<RequestAction>) => {
    if (next instanceof Promise) {
      setAction({ kind: 'sending' });
      void next.then(setAction);
    } else setAction(next);
  };
  return (
    <>
      <RowMenu request={captured} onAction={onAction} />
      {action && <ActionResult request={captured} action={action} onAction={onAction} />}
    </>
  );
}

const choose = (item: string) => {
  fireEvent.click(screen.getByLabelText('Actions of POST /api/adaptive/orders/orders?x=1'));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
};

describe('request actions', () => {
  it('copies as curl, says when the browser refused, and names what the capture left out', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    render(<Inspector />);
    choose('Copy as curl');
    expect((await screen.findByRole('heading')).textContent).toBe(
      'As curl (the browser did not allow copying: select and copy)',
    );
    expect(screen.getByLabelText('curl command').textContent).toBe(
      `curl -X 'POST' 'http://localhost:3000/api/adaptive/orders/orders?x=1' -H 'content-type: application/json' ` +
        `--data-raw '{"sku":"A-1"}'`,
    );
    expect(screen.getByText(/Left out, as the capture did not keep them: authorization/)).toBeTruthy();
  });

  it('replays the request as a try-out and shows the answer with its tone', async () => {
    const { calls } = fakeServer({
      'POST /api/adaptive/orders/orders': () => ({ status: 422, body: { detail: 'sku taken', code: 'X' } }),
    });
    render(<Inspector />);
    choose('Replay');
    expect(screen.getByText('Sending…')).toBeTruthy();
    const status = await screen.findByText('422');
    expect(status.className).toBe('status warning');
    expect(screen.getByLabelText('Resent answer body').textContent).toBe('{"detail":"sku taken","code":"X"}');
    expect(calls[0].body).toEqual({ sku: 'A-1' });
  });

  it('edits and resends, refusing a header line that is not one and a path to another host', async () => {
    const { calls } = fakeServer({ 'PUT /api/adaptive/orders/orders/1': () => ({ ok: true }) });
    render(<Inspector />);
    choose('Edit and resend');
    fireEvent.change(screen.getByLabelText('Headers'), { target: { value: 'content-type: application/json\nbroken' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Line 2 is not "name: value"')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Headers'), { target: { value: 'content-type: application/json' } });
    fireEvent.change(screen.getByLabelText('Path'), { target: { value: '//evil.example/x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Not sent: The path must start with one /')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('sends the edited method, path and body', async () => {
    const { calls } = fakeServer({ 'PUT /api/adaptive/orders/orders/1': () => ({ ok: true }) });
    render(<Inspector />);
    choose('Edit and resend');
    fireEvent.change(screen.getByLabelText('Method'), { target: { value: 'put' } });
    fireEvent.change(screen.getByLabelText('Path'), { target: { value: '/api/adaptive/orders/orders/1' } });
    fireEvent.change(screen.getByLabelText('Body'), { target: { value: '{"sku":"B-2"}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByLabelText('Resent answer body').textContent).toBe('{"ok":true}'));
    expect(calls).toEqual([
      {
        method: 'PUT',
        url: '/api/adaptive/orders/orders/1',
        body: { sku: 'B-2' },
        // A resent request is the user's own try-out: marked so, and without the workbench token.
        headers: { 'content-type': 'application/json', 'x-workbench-try-out': 'replay' },
      },
    ]);
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkbenchLogLine } from '../../../server/src/contract/index.js';
import { renderOverEvents, testWorkbench } from '../platform/workbench.test-support.js';
import { revealLogKey } from '../requests/log-reveal.js';
import { LogsPanel, matches } from './LogsPanel.js';

const line = (change: Partial<WorkbenchLogLine>): WorkbenchLogLine =>
  ({ id: 1, time: 0, level: 'info', msg: 'Request done', ...change }) as WorkbenchLogLine;

describe('log filter', () => {
  it('passes lines from the minimum level up (levels by index: info is 2)', () => {
    expect(matches(line({ level: 'debug' }), 2, '')).toBe(false);
    expect(matches(line({ level: 'info' }), 2, '')).toBe(true);
    expect(matches(line({ level: 'fatal' }), 2, '')).toBe(true);
  });

  it('searches the message, the fields and the error, with a lower-case needle', () => {
    expect(matches(line({}), 0, 'request')).toBe(true);
    expect(matches(line({ fields: { mount: 'Orders-API' } }), 0, 'orders-api')).toBe(true);
    expect(
      matches(line({ error: { message: 'ECONNREFUSED 127.0.0.1' } } as Partial<WorkbenchLogLine>), 0, 'econn'),
    ).toBe(true);
    expect(matches(line({ fields: { a: 1 } }), 0, 'nowhere')).toBe(false);
  });
});

/** The panel over a server whose stream sends `lines`; `reveal` is a request's link to one of them. */
function renderLogs(lines: Partial<WorkbenchLogLine>[], reveal?: number) {
  const workbench = testWorkbench();
  if (reveal !== undefined) workbench.session.set(revealLogKey, { id: reveal, nonce: 1 });
  const { emit } = renderOverEvents(<LogsPanel />, workbench);
  for (const [i, change] of lines.entries()) emit('log', line({ id: i + 1, ...change }));
  return emit;
}

const shown = () => [...screen.getByRole('log').querySelectorAll('.log-msg')].map((m) => m.textContent);
const follow = () => screen.getByRole('checkbox', { name: 'Follow' }) as HTMLInputElement;

describe('LogsPanel', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows the lines from the chosen level that match the search, with their fields and error', () => {
    renderLogs([
      { level: 'debug', msg: 'loaded spec', fields: { file: 'orders.yaml' } },
      { level: 'error', msg: 'handler failed', error: { message: 'boom', frames: [] } },
      { level: 'info', msg: 'listening' },
    ]);
    expect(shown()).toEqual(['loaded spec {"file":"orders.yaml"}', 'handler failedboom', 'listening']);
    fireEvent.change(screen.getByLabelText('Minimum level'), { target: { value: 'info' } });
    expect(shown()).toEqual(['handler failedboom', 'listening']);
    fireEvent.change(screen.getByLabelText('Search logs'), { target: { value: 'BOOM' } });
    expect(shown()).toEqual(['handler failedboom']);
    expect(screen.getByText('1 of 3')).toBeTruthy();
  });

  it("shows the line a request's link asks for whatever the filters, and stops following", () => {
    renderLogs(
      [
        { level: 'debug', msg: 'before' },
        { level: 'error', msg: 'the 500 of req-7' },
      ],
      2,
    );
    fireEvent.change(screen.getByLabelText('Search logs'), { target: { value: 'before' } });
    expect(shown()).toEqual(['before', 'the 500 of req-7']);
    expect(screen.getByRole('log').querySelector('.revealed')?.textContent).toContain('the 500 of req-7');
    expect(follow().checked).toBe(false);
    fireEvent.click(follow());
    expect(follow().checked).toBe(true);
  });

  it('says when the line asked for is no longer kept, and clears the log', () => {
    const emit = renderLogs([{ msg: 'one' }], 99);
    expect(screen.getByText('The log entry asked for is no longer kept (the panel keeps the last 2000).')).toBeTruthy();
    emit('log', line({ id: 2, msg: 'two' }));
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(shown()).toEqual([]);
  });
});

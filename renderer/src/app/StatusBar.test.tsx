// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../api/fake-event-source.test-support.js';
import { renderOverEvents } from '../platform/workbench.test-support.js';
import { StatusBar } from './StatusBar.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The status bar over a server whose stream is open; `onShowProblems` spied. */
function renderStatus(message?: Parameters<typeof StatusBar>[0]['message']) {
  const onShowProblems = vi.fn();
  return { ...renderOverEvents(<StatusBar message={message} onShowProblems={onShowProblems} />), onShowProblems };
}

describe('StatusBar', () => {
  it('counts the problems, says the last reload, and opens the problems and the changes', () => {
    const { emit, onShowProblems, workbench } = renderStatus();
    expect(screen.getByText('● connected')).toBeTruthy();
    emit('diagnostics', {
      diagnostics: [
        { path: 'specs/a.yaml', severity: 'error', message: 'broken', line: 1 },
        { path: 'specs/a.yaml', severity: 'warning', message: 'no tags', line: 2 },
      ],
    });
    fireEvent.click(screen.getByRole('button', { name: '1 error, 1 warning' }));
    expect(onShowProblems).toHaveBeenCalled();
    emit('reload', {
      status: 'success',
      message: 'Loaded 2 specs',
      handlers: [],
      specs: [],
      errors: [],
      skipped: [],
    });
    expect(screen.getByText('Loaded 2 specs')).toBeTruthy();
    emit('changes', { path: 'specs/a.yaml', time: 1, breaking: 2, changes: [{}, {}, {}] });
    fireEvent.click(screen.getByRole('button', { name: '2 breaking changes since the last version, 1 non-breaking' }));
    expect(workbench.showPanel).toHaveBeenCalledWith('changes');
  });

  it('says so over the workbench when the server is lost after it was reached, until it is back', () => {
    renderStatus();
    expect(screen.queryByRole('alert')).toBeNull();
    const source = FakeEventSource.made.at(-1)!;
    act(() => source.fail(false));
    expect(screen.getByRole('alert').textContent).toBe(
      'The server cannot be reached. Your edits are kept in this window; reconnecting…',
    );
    expect(screen.getByText('○ reconnecting')).toBeTruthy();
    act(() => source.open());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the last message with its action', () => {
    const run = vi.fn();
    renderStatus({ text: 'Deleted specs/a.yaml', kind: 'info', action: { label: 'Undo', run } });
    expect(screen.getByRole('status').textContent).toBe('Deleted specs/a.yamlUndo');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(run).toHaveBeenCalled();
  });
});

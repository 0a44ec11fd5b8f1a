import { useState } from 'react';
import { SessionIndicator } from '../auth/SignInHost.js';
import { countProblems, problemsSummary, useProblems } from '../panels/problems.js';
import { changesSummary } from '../panels/ChangesPanel.js';
import { useServerState, useWorkbench } from '../platform/workbench-context.js';
import './status-bar.css';

/** A message of the status bar (a save, a failed command). */
export interface StatusMessage {
  text: string;
  kind: 'info' | 'error';
  /** A button beside the message, such as Undo after a delete. */
  action?: StatusAction;
}

/** A command offered with a status message. */
export interface StatusAction {
  label: string;
  run(): void;
}

export interface StatusBarProps {
  message?: StatusMessage;
  onShowProblems(): void;
}

/**
 * Says so over the workbench while the server cannot be reached (after it was once), and that nothing typed
 * is lost: the status bar's small text alone is easily missed. Gone as soon as the page is connected again.
 */
function ConnectionLostBanner({ connected, tokenRefused }: { connected: boolean; tokenRefused: boolean }) {
  // Remembered from earlier renders (React's pattern for information from previous renders).
  const [wasConnected, setWasConnected] = useState(false);
  if (connected && !wasConnected) setWasConnected(true);
  if (connected || tokenRefused || !wasConnected) return null;
  return (
    <div className="connection-lost" role="alert">
      <strong>The server cannot be reached.</strong> Your edits are kept in this window; reconnecting…
    </div>
  );
}

/** The connection to the server, the problem counts, the last reload and the last message. */
export function StatusBar({ message, onShowProblems }: StatusBarProps) {
  const connected = useServerState((s) => s.connected);
  const tokenRefused = useServerState((s) => s.tokenRefused);
  const lastReload = useServerState((s) => s.lastReload);
  const latestChanges = useServerState((s) => s.specChanges[0]);
  const { showPanel } = useWorkbench();
  const connection = connected
    ? { text: '● connected', title: 'Connected to the server' }
    : tokenRefused
      ? { text: '○ token refused', title: 'The server restarted with a new token: paste its new URL' }
      : { text: '○ reconnecting', title: 'Reconnecting to the server…' };
  // The same count as the problems panel: the server's diagnostics and the editor's own findings.
  const { errors, warnings } = countProblems(useProblems());
  return (
    <footer className="statusbar">
      <ConnectionLostBanner connected={connected} tokenRefused={tokenRefused} />
      <span className={`connection ${connected ? 'on' : 'off'}`} title={connection.title}>
        {connection.text}
      </span>
      <button type="button" className="status-problems" onClick={onShowProblems}>
        {problemsSummary({ errors, warnings })}
      </button>
      {lastReload && <span className="muted">{lastReload.message}</span>}
      {latestChanges && (
        <button
          type="button"
          className={`status-changes${latestChanges.breaking ? ' breaking' : ''}`}
          title={`${latestChanges.path}: show the changes`}
          onClick={() => showPanel('changes')}
        >
          {changesSummary(latestChanges)}
        </button>
      )}
      <span className="spacer" />
      <SessionIndicator />
      {message && (
        <span className={`status-message ${message.kind}`} role="status">
          {message.text}
          {message.action && (
            <button type="button" className="status-action" onClick={message.action.run}>
              {message.action.label}
            </button>
          )}
        </span>
      )}
    </footer>
  );
}

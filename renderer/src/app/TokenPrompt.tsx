import { useState } from 'react';
import './token-prompt.css';

/** What the prompt was given: a token for this server, or the workbench address of a server elsewhere. */
export type PromptAnswer = { token: string } | { elsewhere: string };

/**
 * Reads what was pasted into the prompt: a workbench URL (`http://host:port/workbench/?token=...`) or
 * just its token. A URL of another origin (the server came back on another port) is one to go to: this
 * page may only call the server it came from.
 */
export function readPromptAnswer(value: string, pageOrigin: string): PromptAnswer | undefined {
  const text = value.trim();
  if (!text) return undefined;
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    const token = url.searchParams.get('token');
    if (url.origin !== pageOrigin) return token ? { elsewhere: url.href } : undefined;
    return token ? { token } : undefined;
  }
  const match = /[?&]token=([^&#]+)/.exec(text);
  return { token: match ? decodeURIComponent(match[1]) : text };
}

export interface TokenPromptProps {
  /** The server refused the token this page had (it restarted). */
  rejected: boolean;
  /** Shown over an open workbench (whose unsaved edits stay), rather than instead of it. */
  overlay?: boolean;
  onToken(token: string): void;
}

/** Asks for the workbench URL the server printed, or its token. */
export function TokenPrompt({ rejected, overlay = false, onToken }: TokenPromptProps) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const form = (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const answer = readPromptAnswer(value, window.location.origin);
        setInvalid(answer === undefined);
        if (answer && 'token' in answer) onToken(answer.token);
        else if (answer) window.location.assign(answer.elsewhere);
      }}
    >
      <h1>{overlay ? 'The server restarted' : 'Adaptive Workbench'}</h1>
      <p>
        {rejected ? 'The server did not accept the token: it changes every time the server starts. ' : ''}
        Open the URL that <code>adaptive-gateway serve --workbench</code> printed, or paste it (or its token) here.
        {overlay ? ' Open files and unsaved changes stay as they are.' : ''}
      </p>
      <p className="muted">
        This token opens the workbench; it is not your sign-in. A gateway that checks credentials asks for those
        separately.
      </p>
      <input
        aria-label="Workbench URL or token"
        aria-invalid={invalid}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        autoFocus
        placeholder="http://127.0.0.1:8080/workbench/?token=…"
      />
      {invalid && <p className="error">That is not a workbench URL with a token, nor a token.</p>}
      <button type="submit">Open</button>
    </form>
  );
  if (!overlay) return <div className="token-prompt">{form}</div>;
  return (
    <div className="modal-backdrop token-prompt">
      <div className="modal" role="dialog" aria-modal="true" aria-label="The server restarted">
        {form}
      </div>
    </div>
  );
}

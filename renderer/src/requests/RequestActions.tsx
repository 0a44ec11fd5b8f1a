import { useState } from 'react';
import type { WorkbenchRequest } from '../../../server/src/contract/index.js';
import { statusTone } from '../api/request-filters.js';
import { toCurl, type CurlCommand } from './curl.js';
import { draftOf, headerLines, parseHeaderLines, resend, type RequestDraft, type ResendAnswer } from './resend.js';
import './requests.css';

/** What the inspector shows below a request after one of its actions. */
export type RequestAction =
  | { kind: 'curl'; curl: CurlCommand; copied: boolean }
  | { kind: 'edit' }
  | { kind: 'sending' }
  | { kind: 'answer'; answer: ResendAnswer }
  | { kind: 'failed'; detail: string };

/** The action that copies `request` as curl: to the clipboard when the browser lets us, and shown either way. */
export async function copyAsCurl(request: WorkbenchRequest): Promise<RequestAction> {
  const curl = toCurl(request, window.location.origin);
  const copied = await navigator.clipboard.writeText(curl.command).then(
    () => true,
    () => false,
  );
  return { kind: 'curl', curl, copied };
}

/** Sends `draft` and gives the action that shows its answer (or why there is none). */
export function send(draft: RequestDraft): Promise<RequestAction> {
  return resend(draft).then(
    (answer): RequestAction => ({ kind: 'answer', answer }),
    (error: Error): RequestAction => ({ kind: 'failed', detail: error.message }),
  );
}

interface RowMenuProps {
  request: WorkbenchRequest;
  onAction(action: RequestAction | Promise<RequestAction>): void;
}

/** A row's menu: copy as curl, replay, edit and resend. */
export function RowMenu({ request, onAction }: RowMenuProps) {
  const [open, setOpen] = useState(false);
  const choose = (action: () => RequestAction | Promise<RequestAction>) => {
    setOpen(false);
    onAction(action());
  };
  return (
    <span className="row-menu" onClick={(e) => e.stopPropagation()}>
      <button
        type="button"
        aria-label={`Actions of ${request.method} ${request.url}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <span className="row-menu-items" role="menu" onMouseLeave={() => setOpen(false)}>
          <button type="button" role="menuitem" onClick={() => choose(() => copyAsCurl(request))}>
            Copy as curl
          </button>
          <button type="button" role="menuitem" onClick={() => choose(() => send(draftOf(request)))}>
            Replay
          </button>
          <button type="button" role="menuitem" onClick={() => choose(() => ({ kind: 'edit' }))}>
            Edit and resend
          </button>
        </span>
      )}
    </span>
  );
}

/** The form that edits a request before sending it again. */
function ResendForm({ request, onAction }: RowMenuProps) {
  const [draft] = useState(() => draftOf(request));
  const [method, setMethod] = useState(draft.method);
  const [url, setUrl] = useState(draft.url);
  const [headers, setHeaders] = useState(headerLines(draft.headers));
  const [body, setBody] = useState(draft.body);
  const [invalid, setInvalid] = useState<string>();
  const submit = () => {
    try {
      onAction(send({ method, url, headers: parseHeaderLines(headers), body }));
      setInvalid(undefined);
    } catch (error) {
      setInvalid((error as Error).message);
    }
  };
  return (
    <form
      className="resend-form"
      aria-label="Edit and resend"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="resend-line">
        <input aria-label="Method" className="method" value={method} onChange={(e) => setMethod(e.target.value)} />
        <input aria-label="Path" value={url} onChange={(e) => setUrl(e.target.value)} />
        <button type="submit">Send</button>
      </div>
      <label>
        Headers
        <textarea aria-label="Headers" rows={4} value={headers} onChange={(e) => setHeaders(e.target.value)} />
      </label>
      <label>
        Body
        <textarea aria-label="Body" rows={6} value={body} onChange={(e) => setBody(e.target.value)} />
      </label>
      {invalid && <p className="error">{invalid}</p>}
    </form>
  );
}

/** What an action left to see: the curl command, the edit form, the answer to a resend. */
export function ActionResult({ request, action, onAction }: RowMenuProps & { action: RequestAction }) {
  switch (action.kind) {
    case 'curl': {
      const { curl, copied } = action;
      return (
        <section className="message-part" aria-label="Copied as curl">
          <h4>{copied ? 'Copied as curl' : 'As curl (the browser did not allow copying: select and copy)'}</h4>
          <pre className="body" aria-label="curl command">
            {curl.command}
          </pre>
          {curl.redacted.length > 0 && (
            <p className="muted">Left out, as the capture did not keep them: {curl.redacted.join(', ')}.</p>
          )}
          {curl.truncatedBody && (
            <p className="error">The body was cut at 64 KiB by the capture: this is only its start.</p>
          )}
        </section>
      );
    }
    case 'edit':
      return <ResendForm request={request} onAction={onAction} />;
    case 'sending':
      return <p className="muted">Sending…</p>;
    case 'failed':
      return <p className="error">Not sent: {action.detail}</p>;
    case 'answer':
      return <ResendAnswerView answer={action.answer} />;
  }
}

function ResendAnswerView({ answer }: { answer: ResendAnswer }) {
  const tone = statusTone(answer.status);
  return (
    <section className="message-part" aria-label="Resent answer">
      <h4>
        Answer: <span className={`status ${tone}`}>{answer.status}</span> {answer.statusText}
      </h4>
      <pre className="body" aria-label="Resent answer body">
        {answer.body || '(no body)'}
      </pre>
    </section>
  );
}

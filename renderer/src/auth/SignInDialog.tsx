import { useState, type FormEvent } from 'react';
import type { BrowserLogin, WorkbenchAuthInfo } from '../../../server/src/contract/index.js';
import type { WorkbenchApi } from '../api/client.js';
import { beginLogin } from './pkce.js';
import { authStore, basicAuthorization, bearerAuthorization, type Session } from '../api/auth-session.js';
import './sign-in.css';

/** Where the provider sends the browser back: the workbench page itself (registered at the client). */
export function redirectUri(): string {
  return `${window.location.origin}/workbench/`;
}

interface SignInDialogProps {
  api: WorkbenchApi;
  info: WorkbenchAuthInfo;
  /** An error to show at once (the provider's login that came back refused). */
  initialError?: string;
}

/** What a form of the dialog does with what it was given: credentials to check, or a complaint. */
interface FormProps {
  busy: boolean;
  onCredentials(authorization: string, via: Session['via']): void;
  onInvalid(message: string): void;
}

function PasswordForm({ busy, onCredentials, onInvalid }: FormProps) {
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!user) onInvalid('Enter a user name.');
    else onCredentials(basicAuthorization(user, password), 'password');
  };
  return (
    <form onSubmit={submit} aria-label="User name and password">
      <h3>User name and password</h3>
      <label>
        User name
        <input autoComplete="username" value={user} onChange={(e) => setUser(e.target.value)} />
      </label>
      <label>
        Password
        <input
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <button type="submit" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}

function TokenForm({ busy, onCredentials, onInvalid }: FormProps) {
  const [token, setToken] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const authorization = bearerAuthorization(token);
    if (!authorization) onInvalid('Paste an access token (a JWT, with or without "Bearer ").');
    else onCredentials(authorization, 'token');
  };
  return (
    <form onSubmit={submit} aria-label="Access token">
      <h3>Access token</h3>
      <label>
        Access token (from your identity provider)
        <textarea rows={3} placeholder="eyJhbGciOi…" value={token} onChange={(e) => setToken(e.target.value)} />
      </label>
      <button type="submit" disabled={busy}>
        Use token
      </button>
    </form>
  );
}

/**
 * The gateway's sign-in: user name and password (Basic), a pasted access token, and the identity
 * provider's login, each offered only when the server accepts it. Credentials are checked by the server
 * before they are kept, so a refusal is shown here with the server's reason.
 */
export function SignInDialog({ api, info, initialError }: SignInDialogProps) {
  const [error, setError] = useState(initialError);
  const [busy, setBusy] = useState(false);

  async function verify(authorization: string, via: Session['via']) {
    setBusy(true);
    setError(undefined);
    try {
      const { subject, expiresAt } = await api.checkSession(authorization);
      authStore.signIn({ authorization, via, subject, expiresAt });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  const providerLogin = async (login: BrowserLogin) => {
    setBusy(true);
    window.location.assign(await beginLogin(login, redirectUri(), sessionStorage));
  };
  const form = { busy, onCredentials: (a: string, via: Session['via']) => void verify(a, via), onInvalid: setError };

  const { schemes, browserLogin, browserLoginError } = info;
  return (
    <div className="modal-backdrop sign-in">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Sign in to the gateway</h2>
        <p className="muted">
          This server checks credentials: the API docs, health details and the query console need them. Files open
          without. Your sign-in is kept for this tab only.
        </p>
        {error && (
          <p className="error sign-in-error" role="alert">
            {error}
          </p>
        )}
        {schemes.includes('oidc') && browserLogin && (
          <section>
            <button type="button" className="primary" disabled={busy} onClick={() => void providerLogin(browserLogin)}>
              Sign in with {browserLogin.name}
            </button>
          </section>
        )}
        {browserLoginError && (
          <p className="muted">The identity provider&apos;s login is not available: {browserLoginError}</p>
        )}
        {schemes.includes('basic') && <PasswordForm {...form} />}
        {schemes.includes('bearer') && <TokenForm {...form} />}
        <div className="sign-in-actions">
          <button type="button" onClick={() => authStore.closeSignIn()}>
            Not now
          </button>
        </div>
      </div>
    </div>
  );
}

import { useEffect } from 'react';
import type { WorkbenchApi } from '../api/client.js';
import { readLoginReturn, redeemCode, withoutLoginReturn } from './pkce.js';
import { authStore, useAuthState, type Refusal } from '../api/auth-session.js';
import { SignInDialog } from './SignInDialog.js';

/**
 * Finishes the provider's login when the page is its way back: the answer is checked (state, issuer),
 * the code redeemed with the verifier, and the token checked by the server before it is kept. Resolves
 * to an error to show, or undefined (signed in, or no login was coming back).
 */
async function finishProviderLogin(api: WorkbenchApi): Promise<string | undefined> {
  const answer = readLoginReturn(window.location.href, sessionStorage);
  if (!answer) return undefined;
  // The code is single-use and must not stay in the address bar, history or a bookmark.
  window.history.replaceState(null, '', withoutLoginReturn(window.location.href));
  if ('error' in answer) return answer.error;
  try {
    const accessToken = await redeemCode(answer.code, answer.pending);
    const authorization = `Bearer ${accessToken}`;
    const { subject, expiresAt } = await api.checkSession(authorization);
    authStore.signIn({ authorization, via: 'provider', subject, expiresAt });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The refused call of a panel, with the reason and a Sign in action (instead of raw 401 text). */
function RefusalBanner({ refusal }: { refusal: Refusal }) {
  const what = refusal.status === 403 ? 'refused (403): you are signed in but not allowed' : 'needs sign-in (401)';
  return (
    <div className="sign-in-refusal" role="alert" aria-label="Refused call">
      <span>
        <strong>
          {refusal.method} {refusal.url}
        </strong>{' '}
        {what}: {refusal.detail}
      </span>
      <button type="button" className="primary" onClick={() => authStore.openSignIn()}>
        Sign in
      </button>
      <button type="button" aria-label="Dismiss" onClick={() => authStore.dismissRefusal()}>
        ×
      </button>
    </div>
  );
}

/**
 * The sign-in of the workbench: learns what the server accepts, opens the sign-in view at start when
 * credentials are required and none are kept, finishes a provider login coming back, and shows the
 * last refused call of any panel.
 */
export function SignInHost({ api }: { api: WorkbenchApi }) {
  const { info, signingIn, signInError, refusal } = useAuthState();

  useEffect(() => {
    let active = true;
    void (async () => {
      const error = await finishProviderLogin(api);
      const accepted = await api.authInfo().catch(() => undefined);
      if (!active || !accepted) return;
      authStore.setInfo(accepted);
      if (accepted.required && (error || !authStore.snapshot().session)) authStore.openSignIn(error);
    })();
    return () => {
      active = false;
    };
  }, [api]);

  if (!info?.required) return null;
  return (
    <>
      {signingIn && <SignInDialog api={api} info={info} initialError={signInError} />}
      {!signingIn && refusal && <RefusalBanner refusal={refusal} />}
    </>
  );
}

/** For the status bar: who is signed in with Sign out, or a Sign in button (only when the server requires it). */
export function SessionIndicator() {
  const { info, session } = useAuthState();
  if (!info?.required) return null;
  if (!session)
    return (
      <button type="button" className="session-indicator" onClick={() => authStore.openSignIn()}>
        Sign in
      </button>
    );
  return (
    <span className="session-indicator" aria-label="Signed in">
      Signed in as <strong>{session.subject}</strong>{' '}
      <button type="button" onClick={() => authStore.signOut()}>
        Sign out
      </button>
    </span>
  );
}

import type { BrowserLogin } from '../../../server/src/contract/index.js';
import type { TabStorage } from '../api/auth-session.js';

/** What the tab remembers between sending the browser to the provider and its coming back. */
export interface PendingLogin {
  /** Unguessable value the provider must send back unchanged (CSRF protection of the redirect). */
  state: string;
  /** PKCE secret: only its hash left the tab, so a stolen code is useless without it. */
  verifier: string;
  issuer: string;
  clientId: string;
  tokenEndpoint: string;
  redirectUri: string;
}

const pendingKey = 'adaptive-workbench:pending-login';

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** `bytes` random bytes, base64url: 32 give a 43-character PKCE verifier (RFC 7636 §4.1). */
export function randomUrlSafe(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** The S256 code challenge of `verifier`: base64url(SHA-256(verifier)) (RFC 7636 §4.2). */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/**
 * Starts the provider's login: a new state and verifier, kept in `storage` for the way back, and the
 * authorization URL to send the browser to (response type `code`, PKCE S256).
 */
export async function beginLogin(login: BrowserLogin, redirectUri: string, storage: TabStorage): Promise<string> {
  const pending: PendingLogin = {
    state: randomUrlSafe(),
    verifier: randomUrlSafe(),
    issuer: login.issuer,
    clientId: login.clientId,
    tokenEndpoint: login.tokenEndpoint,
    redirectUri,
  };
  storage.setItem(pendingKey, JSON.stringify(pending));
  const url = new URL(login.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', login.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', login.scope);
  url.searchParams.set('state', pending.state);
  url.searchParams.set('code_challenge', await codeChallenge(pending.verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.href;
}

/** What the address the provider sent the browser back to says. */
export type LoginReturn = { code: string; pending: PendingLogin } | { error: string };

/**
 * Reads the provider's answer from `href` (`?code=&state=` or `?error=`), once: the pending login is
 * removed whatever the outcome, so a code cannot be redeemed twice. Undefined when `href` is no answer
 * of a login (no `code`, no `error`). A `state` other than the pending one (a forged or replayed
 * redirect) or an `iss` of another issuer (RFC 9207, mix-up attacks) is an error, and no code is used.
 */
export function readLoginReturn(href: string, storage: TabStorage): LoginReturn | undefined {
  const params = new URL(href).searchParams;
  const code = params.get('code');
  const error = params.get('error');
  if (code === null && error === null) return undefined;
  let pending: PendingLogin | undefined;
  try {
    pending = JSON.parse(storage.getItem(pendingKey) ?? 'null') as PendingLogin | undefined;
  } catch {
    pending = undefined;
  }
  storage.removeItem(pendingKey);
  if (!pending?.state) return { error: 'No sign-in was started in this tab: sign in again.' };
  if (params.get('state') !== pending.state)
    return { error: 'The answer of the identity provider does not belong to this sign-in (state differs).' };
  const issuer = params.get('iss');
  if (issuer !== null && issuer !== pending.issuer)
    return { error: `The answer came from another identity provider (${issuer}).` };
  if (error !== null) return { error: `The identity provider refused: ${params.get('error_description') ?? error}` };
  return { code: code!, pending };
}

/** `href` without the parameters of the provider's answer, for the address bar and history. */
export function withoutLoginReturn(href: string): string {
  const url = new URL(href);
  for (const name of ['code', 'state', 'iss', 'error', 'error_description', 'error_uri', 'session_state'])
    url.searchParams.delete(name);
  return url.pathname + url.search + url.hash;
}

/** Redeems `code` at the token endpoint with the verifier; resolves to the access token. */
export async function redeemCode(code: string, pending: PendingLogin, fetchFn: typeof fetch = fetch): Promise<string> {
  const response = await fetchFn(pending.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: pending.redirectUri,
      client_id: pending.clientId,
      code_verifier: pending.verifier,
    }),
    credentials: 'omit',
  }).catch((error: Error) => {
    // The browser hides why (CORS, network): name the endpoint and what to check.
    throw new Error(
      `The identity provider's token endpoint ${pending.tokenEndpoint} could not be called (${error.message}): ` +
        'its client must allow this page as a web origin.',
    );
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof body.access_token !== 'string') {
    const reason = body.error_description ?? body.error ?? `${response.status} ${response.statusText}`;
    throw new Error(`The identity provider did not give a token: ${String(reason)}`);
  }
  return body.access_token;
}

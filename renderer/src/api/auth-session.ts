import { useSyncExternalStore } from 'react';
import type { WorkbenchAuthInfo } from '../../../server/src/contract/index.js';
import { ExternalStore } from '../base/external-store.js';

/** Credentials the user gave for the gateway, kept for this browser tab only. */
export interface Session {
  /** The `Authorization` header every call outside the workbench area carries. */
  authorization: string;
  /** How the user signed in: user name and password, a pasted token, or the provider's login. */
  via: 'password' | 'token' | 'provider';
  /** The user name, or the token's user, as the server named it. */
  subject: string;
  /** When a token expires (ms since the epoch). */
  expiresAt?: number;
}

/** A call of a panel the gateway refused (401 or 403): what was asked and the server's reason. */
export interface Refusal {
  method: string;
  url: string;
  status: number;
  detail: string;
}

/** Everything the sign-in views show. */
export interface AuthState {
  /** What the server accepts (undefined until it said). */
  info?: WorkbenchAuthInfo;
  session?: Session;
  /** The latest refused call since the last sign-in. */
  refusal?: Refusal;
  /** The sign-in view is open. */
  signingIn: boolean;
  /** Why the last sign-in failed before the view could show it (the provider's login came back refused). */
  signInError?: string;
}

/** The part of `sessionStorage` the store uses (a Map-backed one in tests). */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const sessionKey = 'adaptive-workbench:sign-in';

/** `Basic` credentials of RFC 7617, UTF-8 encoded (user names and passwords may hold any character). */
export function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * The `Authorization` value for a pasted token: a leading `Bearer ` (as copied from a curl command) and
 * whitespace are dropped. Undefined for an empty paste or one with spaces inside, which is not a token.
 */
export function bearerAuthorization(pasted: string): string | undefined {
  const token = pasted.trim().replace(/^bearer(\s+|$)/i, '');
  return token && !/\s/.test(token) ? `Bearer ${token}` : undefined;
}

function readSession(storage: TabStorage): Session | undefined {
  try {
    const value = JSON.parse(storage.getItem(sessionKey) ?? 'null') as Partial<Session> | null;
    const valid =
      typeof value?.authorization === 'string' &&
      typeof value.subject === 'string' &&
      ['password', 'token', 'provider'].includes(value.via ?? '');
    return valid ? (value as Session) : undefined;
  } catch {
    // A damaged entry is no session: the user signs in again.
    return undefined;
  }
}

/**
 * The sign-in state of this tab: the session (in `sessionStorage`, so it ends with the tab and is never
 * shared with other tabs or windows), what the server accepts, the last refused call, and whether the
 * sign-in view is open. Views read it with {@link useAuthState}.
 */
export class AuthStore extends ExternalStore<AuthState> {
  constructor(private readonly storage: TabStorage) {
    super({ session: readSession(storage), signingIn: false });
  }

  /** The header calls outside the workbench area carry now, if signed in. */
  authorization(): string | undefined {
    return this.state.session?.authorization;
  }

  setInfo(info: WorkbenchAuthInfo): void {
    this.update({ info });
  }

  /** Keeps `session` for the tab; the sign-in view closes and an earlier refusal is forgotten. */
  signIn(session: Session): void {
    this.storage.setItem(sessionKey, JSON.stringify(session));
    this.update({ session, refusal: undefined, signingIn: false, signInError: undefined });
  }

  signOut(): void {
    this.storage.removeItem(sessionKey);
    this.update({ session: undefined, refusal: undefined });
  }

  /** Notes a refused call, shown until the next sign-in or {@link dismissRefusal}. */
  refused(refusal: Refusal): void {
    this.update({ refusal });
  }

  dismissRefusal(): void {
    this.update({ refusal: undefined });
  }

  /** Opens the sign-in view, showing `error` in it when given. */
  openSignIn(error?: string): void {
    this.update({ signingIn: true, signInError: error });
  }

  closeSignIn(): void {
    this.update({ signingIn: false, signInError: undefined });
  }

  private update(change: Partial<AuthState>): void {
    this.replaceState({ ...this.state, ...change });
  }
}

/** A storage that keeps nothing past the page (where `sessionStorage` does not exist: tests, workers). */
export function memoryStorage(): TabStorage {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/** The store of this tab. */
export const authStore = new AuthStore(typeof sessionStorage === 'undefined' ? memoryStorage() : sessionStorage);

/** The sign-in state, re-rendering on every change. */
export function useAuthState(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.snapshot);
}

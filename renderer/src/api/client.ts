import type {
  ErrorBody,
  MockOverview,
  MockTableRequest,
  MockTableView,
  RecordedExchanges,
  RecordingProposalRequest,
  SpecEditProposal,
  SpecModeRequest,
  StateResetResult,
  WorkbenchAuthInfo,
  WorkbenchDiagnostics,
  WorkspaceSearchResult,
  WorkbenchSessionCheck,
  WorkspaceFile,
  WorkspaceFileInfo,
  WorkspaceTree,
  WorkspaceWrite,
} from '../../../server/src/contract/index.js';
import { authStore } from './auth-session.js';

/** Where in a query (or file) an error is, as the server says: line and column from 1. */
export interface ErrorPosition {
  line: number;
  column: number;
}

/** An answer of the server other than 2xx, with its `{detail}` and, when it names one, the error's place. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly position?: ErrorPosition,
    /** The catalogue code of the error body (`WB_STALE_SAVE`), when it had one. */
    readonly code?: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** The `line` and `column` of an error body, when it has both as positive integers. */
export function errorPosition(body: { line?: unknown; column?: unknown }): ErrorPosition | undefined {
  const { line, column } = body;
  const valid = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;
  return valid(line) && valid(column) ? { line, column } : undefined;
}

/** Reads the `{detail}` of a refused answer without consuming the response. */
async function refusalDetail(response: Response): Promise<string> {
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as Partial<ErrorBody>;
  return body.detail ?? `${response.status} ${response.statusText}`;
}

/** The header of the workbench token (the server's `tokenHeader`). */
export const tokenHeader = 'x-workbench-token';

/**
 * `fetch` for every call of the gateway outside the workbench area (`/api/adaptive`, `/api/v1/query`,
 * `/api/health`): it carries the signed-in user's `Authorization` (not the workbench token), and a 401
 * or 403 is reported to the sign-in state, which says which call was refused and why. Credentials mode
 * `omit`: the browser then neither adds credentials of its own nor opens its Basic prompt on a 401.
 */
export async function gatewayFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const authorization = authStore.authorization();
  if (authorization && !headers.has('authorization')) headers.set('authorization', authorization);
  const response = await fetch(url, { ...init, headers, credentials: 'omit' });
  if (response.status === 401 || response.status === 403) {
    const method = (init.method ?? 'GET').toUpperCase();
    authStore.refused({
      method,
      url: url.split('?')[0],
      status: response.status,
      detail: await refusalDetail(response),
    });
  }
  return response;
}

/** A request of Swagger UI's "Try it out" (the fields its `requestInterceptor` may change). */
export interface InterceptedRequest {
  headers: Record<string, string>;
  credentials?: RequestCredentials;
}

/** Swagger UI's `requestInterceptor`: its calls carry the signed-in user's credentials like the panels'. */
export function withSignIn<R extends InterceptedRequest>(request: R): R {
  const authorization = authStore.authorization();
  // An Authorization given in Swagger UI's own Authorize dialog wins.
  const own = Object.keys(request.headers).some((name) => name.toLowerCase() === 'authorization');
  if (authorization && !own) request.headers.Authorization = authorization;
  request.credentials = 'omit';
  return request;
}

/**
 * The workspace API of the server that serves this page (`/api/workbench/*`). Every call carries the
 * per-launch token in the `X-Workbench-Token` header; `onUnauthorized` runs when the server refuses it
 * (it restarted with a new one), and {@link replaceToken} puts the new one in place without a reload.
 */
export class WorkbenchApi {
  private current: string;
  private readonly tokenListeners = new Set<() => void>();

  constructor(
    token: string,
    private readonly onUnauthorized: () => void = () => undefined,
  ) {
    this.current = token;
  }

  /** The token calls carry now. */
  get token(): string {
    return this.current;
  }

  /** Carries `token` from now on, and tells those that hold a connection with the old one. */
  replaceToken(token: string): void {
    if (token === this.current) return;
    this.current = token;
    for (const listener of this.tokenListeners) listener();
  }

  /** Calls `listener` whenever the token is replaced; returns the function that stops it. */
  onTokenReplaced(listener: () => void): () => void {
    this.tokenListeners.add(listener);
    return () => this.tokenListeners.delete(listener);
  }

  /**
   * `ownArea`: a call of the workbench API, carrying the workbench token; else a call of the gateway,
   * carrying the user's credentials ({@link gatewayFetch}). `extraHeaders` go along (the session check's).
   */
  private async call<T>(
    method: string,
    url: string,
    body?: unknown,
    ownArea = true,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    const token = this.current;
    const headers: Record<string, string> = ownArea ? { [tokenHeader]: token, ...extraHeaders } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const request: RequestInit = {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    };
    const response = ownArea ? await fetch(url, { ...request, credentials: 'omit' }) : await gatewayFetch(url, request);
    if (!response.ok) {
      const error = (await response.json().catch(() => ({ detail: response.statusText }))) as ErrorBody;
      // The workbench token is stale (the server restarted) only when the server says so: the session
      // check's 401 is about the user's credentials. A refusal of a token already replaced asks for nothing.
      const tokenRefused = error.code === 'WB_TOKEN_WRONG' || error.code === 'WB_TOKEN_MISSING';
      if (response.status === 401 && ownArea && tokenRefused && token === this.current) this.onUnauthorized();
      throw new ApiError(
        response.status,
        error.detail ?? `${response.status} ${response.statusText}`,
        errorPosition(error),
        error.code,
      );
    }
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  tree(): Promise<WorkspaceTree> {
    return this.call('GET', '/api/workbench/files');
  }

  read(path: string): Promise<WorkspaceFile> {
    return this.call('GET', `/api/workbench/files/content?path=${encodeURIComponent(path)}`);
  }

  /** Writes a file; with `baseVersion`, only if the file on disk is still that version (409 `WB_STALE_SAVE`). */
  write(path: string, content: string, baseVersion?: string): Promise<WorkspaceFileInfo> {
    const body: WorkspaceWrite = baseVersion === undefined ? { content } : { content, baseVersion };
    return this.call('PUT', `/api/workbench/files/content?path=${encodeURIComponent(path)}`, body);
  }

  create(path: string, type: 'file' | 'directory', content = ''): Promise<WorkspaceFileInfo> {
    return this.call('POST', '/api/workbench/files', type === 'file' ? { path, type, content } : { path, type });
  }

  rename(from: string, to: string): Promise<WorkspaceFileInfo> {
    return this.call('POST', '/api/workbench/files/rename', { from, to });
  }

  remove(path: string): Promise<void> {
    return this.call('DELETE', `/api/workbench/files?path=${encodeURIComponent(path)}`);
  }

  /** The lines of the workspace's files that contain `query`, ignoring case (a capped list). */
  search(query: string): Promise<WorkspaceSearchResult> {
    return this.call('GET', `/api/workbench/search?q=${encodeURIComponent(query)}`);
  }

  diagnostics(): Promise<WorkbenchDiagnostics> {
    return this.call('GET', '/api/workbench/diagnostics');
  }

  /** Which mode each spec answers in (`GET /api/workbench/mock`). */
  mockOverview(): Promise<MockOverview> {
    return this.call('GET', '/api/workbench/mock');
  }

  /** The spec text that switches a spec's mode; nothing is written. */
  proposeMode(request: SpecModeRequest): Promise<SpecEditProposal> {
    return this.call('POST', '/api/workbench/mock/mode', request);
  }

  recordings(mount: string): Promise<RecordedExchanges> {
    return this.call('GET', `/api/workbench/mock/recordings?mount=${encodeURIComponent(mount)}`);
  }

  /** The spec text with a recorded upstream answer as a named example; nothing is written. */
  proposeRecording(request: RecordingProposalRequest): Promise<SpecEditProposal> {
    return this.call('POST', '/api/workbench/mock/recordings/proposal', request);
  }

  /** A spec's routes with their responses, examples and mock table rows. */
  mockTable(mount: string): Promise<MockTableView> {
    return this.call('GET', `/api/workbench/mock/table?mount=${encodeURIComponent(mount)}`);
  }

  /** The checked text of a spec's mock table with these rows; nothing is written. */
  proposeMockTable(request: MockTableRequest): Promise<SpecEditProposal> {
    return this.call('POST', '/api/workbench/mock/table', request);
  }

  /** Empties the stateful mocks of one mount, or of all (the gateway's actuator: with AUTH_ENABLED, a 401 here). */
  resetState(mount?: string): Promise<StateResetResult> {
    const query = mount === undefined ? '' : `?mount=${encodeURIComponent(mount)}`;
    return this.call('POST', `/api/adaptive/actuator/state/reset${query}`, undefined, false);
  }

  /** What sign-in the gateway accepts (`GET /api/workbench/auth`). */
  authInfo(): Promise<WorkbenchAuthInfo> {
    return this.call('GET', '/api/workbench/auth');
  }

  /** Whom `authorization` signs in; an {@link ApiError} with the gateway's reason when it is refused. */
  checkSession(authorization: string): Promise<WorkbenchSessionCheck> {
    return this.call('GET', '/api/workbench/auth/session', undefined, true, { authorization });
  }

  /** The URL of the event stream (EventSource cannot send headers, so the token goes in the query). */
  eventsUrl(): string {
    return `/api/workbench/events?token=${encodeURIComponent(this.token)}`;
  }
}

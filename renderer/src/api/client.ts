import type {
  ErrorBody,
  MockOverview,
  RecordedExchanges,
  RecordingProposalRequest,
  SpecEditProposal,
  SpecModeRequest,
  StateResetResult,
  WorkbenchDiagnostics,
  WorkspaceFile,
  WorkspaceFileInfo,
  WorkspaceTree,
} from '../../../server/src/contract/index.js';

/** An answer of the server other than 2xx, with its `{detail}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/**
 * The workspace API of the server that serves this page (`/api/workbench/*`). Every call carries the
 * per-launch token in the `X-Workbench-Token` header; `onUnauthorized` runs when the server refuses it
 * (it restarted with a new one).
 */
export class WorkbenchApi {
  constructor(
    readonly token: string,
    private readonly onUnauthorized: () => void = () => undefined,
  ) {}

  /** `ownArea`: a call of the workbench API, whose 401 means the token is stale (the gateway's has its own auth). */
  private async call<T>(method: string, url: string, body?: unknown, ownArea = true): Promise<T> {
    const headers: Record<string, string> = { 'x-workbench-token': this.token };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
    if (response.status === 401 && ownArea) this.onUnauthorized();
    if (!response.ok) {
      const error = (await response.json().catch(() => ({ detail: response.statusText }))) as ErrorBody;
      throw new ApiError(response.status, error.detail ?? `${response.status} ${response.statusText}`);
    }
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  tree(): Promise<WorkspaceTree> {
    return this.call('GET', '/api/workbench/files');
  }

  read(path: string): Promise<WorkspaceFile> {
    return this.call('GET', `/api/workbench/files/content?path=${encodeURIComponent(path)}`);
  }

  write(path: string, content: string): Promise<WorkspaceFileInfo> {
    return this.call('PUT', `/api/workbench/files/content?path=${encodeURIComponent(path)}`, { content });
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

  /** Empties the stateful mocks of one mount, or of all (the gateway's actuator: with AUTH_ENABLED, a 401 here). */
  resetState(mount?: string): Promise<StateResetResult> {
    const query = mount === undefined ? '' : `?mount=${encodeURIComponent(mount)}`;
    return this.call('POST', `/api/adaptive/actuator/state/reset${query}`, undefined, false);
  }

  /** The URL of the event stream (EventSource cannot send headers, so the token goes in the query). */
  eventsUrl(): string {
    return `/api/workbench/events?token=${encodeURIComponent(this.token)}`;
  }
}

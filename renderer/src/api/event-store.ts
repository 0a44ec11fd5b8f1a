import type {
  RefreshResult,
  WorkbenchDiagnostic,
  WorkbenchDiagnostics,
  WorkbenchLogLine,
  WorkbenchRequest,
  WorkspaceFileChange,
} from '../../../server/src/contract/index.js';
import type { WorkbenchApi } from './client.js';

const maxLogLines = 2000;
const maxRequests = 500;

/** What the server has told the workbench so far. Replaced (not mutated) on every change, for React. */
export interface ServerState {
  connected: boolean;
  logs: WorkbenchLogLine[];
  requests: WorkbenchRequest[];
  diagnostics: WorkbenchDiagnostic[];
  lastReload?: RefreshResult;
  /** Counts reloads, so views that depend on the served API (docs) know when to fetch again. */
  reloadCount: number;
}

/**
 * One connection to the server's event stream, shared by every panel: log lines, captured requests,
 * reloads and diagnostics. The browser's EventSource reconnects by itself (sending Last-Event-ID, so
 * the server replays what was missed). Subscribe with React's useSyncExternalStore.
 */
export class EventStore {
  private state: ServerState = { connected: false, logs: [], requests: [], diagnostics: [], reloadCount: 0 };
  private readonly listeners = new Set<() => void>();
  private source: EventSource | undefined;
  private seenIds = 0;
  private readonly fileListeners = new Set<(change: WorkspaceFileChange) => void>();

  constructor(private readonly api: WorkbenchApi) {}

  /** Opens the stream and loads the current diagnostics. */
  connect(): void {
    if (this.source) return;
    const source = new EventSource(this.api.eventsUrl());
    this.source = source;
    source.onopen = () => this.update({ connected: true });
    source.onerror = () => this.update({ connected: false });
    const on = <T>(type: string, apply: (data: T) => Partial<ServerState>) =>
      source.addEventListener(type, (event) => {
        const message = event as MessageEvent<string>;
        // A reconnect replays from Last-Event-ID; anything older was already applied.
        const id = Number(message.lastEventId);
        if (Number.isFinite(id) && id > 0) {
          if (id <= this.seenIds) return;
          this.seenIds = id;
        }
        this.update(apply(JSON.parse(message.data) as T));
      });
    on<WorkbenchLogLine>('log', (line) => ({ logs: [...this.state.logs, line].slice(-maxLogLines) }));
    on<WorkbenchRequest>('request', (request) => ({ requests: [...this.state.requests, request].slice(-maxRequests) }));
    on<RefreshResult>('reload', (result) => ({ lastReload: result, reloadCount: this.state.reloadCount + 1 }));
    on<WorkbenchDiagnostics>('diagnostics', (data) => ({ diagnostics: data.diagnostics }));
    on<WorkspaceFileChange>('file', (change) => {
      for (const listener of this.fileListeners) listener(change);
      return {};
    });
    void this.api.diagnostics().then(
      (data) => this.update({ diagnostics: data.diagnostics }),
      () => undefined,
    );
  }

  close(): void {
    this.source?.close();
    this.source = undefined;
  }

  /** Calls `listener` with each change of a workspace file on disk; returns the function that stops it. */
  onFileChange(listener: (change: WorkspaceFileChange) => void): () => void {
    this.fileListeners.add(listener);
    return () => this.fileListeners.delete(listener);
  }

  clearLogs(): void {
    this.update({ logs: [] });
  }

  clearRequests(): void {
    this.update({ requests: [] });
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): ServerState => this.state;

  private update(change: Partial<ServerState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}

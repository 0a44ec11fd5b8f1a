import type {
  RefreshResult,
  SpecChangesReport,
  WorkbenchDiagnostic,
  WorkbenchDiagnostics,
  WorkbenchLogLine,
  WorkbenchRequest,
  WorkbenchStreamHello,
  WorkspaceFileChange,
} from '../../../server/src/contract/index.js';
import { ApiError, type WorkbenchApi } from './client.js';
import { markOwnCalls } from './own-fetch.js';
import { keepRequests } from './request-filters.js';
import { ExternalStore } from '../base/external-store.js';

const maxLogLines = 2000;
const maxRequests = 500;
/** The workbench's own calls are kept apart, fewer: they never push out the requests the panel is for. */
const maxOwnRequests = 200;

/** What the server has told the workbench so far. Replaced (not mutated) on every change, for React. */
export interface ServerState {
  connected: boolean;
  /** The server refused the token (it restarted with a new one): the page asks for the new one. */
  tokenRefused: boolean;
  logs: WorkbenchLogLine[];
  requests: WorkbenchRequest[];
  diagnostics: WorkbenchDiagnostic[];
  lastReload?: RefreshResult;
  /** What the latest save of each spec changed since its last good version, the most recent first. */
  specChanges: SpecChangesReport[];
  /** Counts reloads (and server restarts), so views that depend on the served API know when to fetch again. */
  reloadCount: number;
}

/** How long to wait before asking again whether a server that cannot be reached is back (doubling to 8 s). */
const firstRetryMs = 500;
const maxRetryMs = 8000;

/**
 * One connection to the server's event stream, shared by every panel: log lines, captured requests,
 * reloads and diagnostics. The browser's EventSource reconnects by itself (sending Last-Event-ID, so
 * the server replays what was missed) while the server cannot be reached; it gives up when the server
 * answers with anything but a stream, as a restarted server does to the old token (401). Then a call
 * of the API tells why: a refused token asks for the new one (`tokenRefused`, and `onUnauthorized` of
 * the API), anything else is tried again later. Each stream starts with the server start's `hello`:
 * a new instance is a restarted server, whose event ids start again and whose state replaces ours.
 * Subscribe with React's useSyncExternalStore.
 */
export class EventStore extends ExternalStore<ServerState> {
  private source: EventSource | undefined;
  private instance: string | undefined;
  private seenIds = 0;
  /** The id of the last event the open stream replays (what happened before it opened); 0 for none. */
  private replayUntil = 0;
  /** A reload came in the replay: the views fetch again once, when the replay ends, not once per reload. */
  private replayedReload = false;
  /** The replay's reloads all happened before this page started: what it fetched already follows them. */
  private replayPredatesPage = false;
  /** The owner wants the stream open (between connect and close). */
  private wanted = false;
  /** Counts closes, so an answer to an older recovery attempt is ignored. */
  private generation = 0;
  private retryMs = firstRetryMs;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly fileListeners = new Set<(change: WorkspaceFileChange) => void>();

  constructor(private readonly api: WorkbenchApi) {
    super({
      connected: false,
      tokenRefused: false,
      logs: [],
      requests: [],
      diagnostics: [],
      specChanges: [],
      reloadCount: 0,
    });
    // The workbench's calls of the other APIs carry the same token, which keeps them out of the requests panel.
    markOwnCalls(api);
    // The API and this store live as long as each other: a new token (from the prompt) opens the stream again.
    api.onTokenReplaced(() => {
      if (!this.wanted) return;
      this.generation++;
      this.shut();
      this.update({ tokenRefused: false });
      this.open();
    });
  }

  /** Opens the stream and loads the current diagnostics. */
  connect(): void {
    this.wanted = true;
    this.open();
  }

  close(): void {
    this.wanted = false;
    this.generation++;
    this.shut();
  }

  private open(): void {
    if (this.source || !this.wanted) return;
    const source = new EventSource(this.api.eventsUrl());
    this.source = source;
    source.onopen = () => {
      this.retryMs = firstRetryMs;
      this.update({ connected: true, tokenRefused: false });
    };
    source.onerror = () => {
      this.update({ connected: false });
      if (source.readyState === EventSource.CLOSED) this.recover(source);
    };
    source.addEventListener('hello', (event) => {
      this.hello(JSON.parse((event as MessageEvent<string>).data) as WorkbenchStreamHello);
    });
    const on = <T>(type: string, apply: (data: T, replayed: boolean) => Partial<ServerState>) =>
      source.addEventListener(type, (event) => {
        const message = event as MessageEvent<string>;
        // A reconnect replays from Last-Event-ID (`<instance>:<n>`); anything older was already applied.
        const id = Number(message.lastEventId.split(':')[1]);
        if (Number.isFinite(id) && id > 0) {
          if (id <= this.seenIds) return;
          this.seenIds = id;
        }
        // The replay (up to 500 events at once for a new page) is shown once, when it ends, not event by event.
        const replayed = id <= this.replayUntil;
        this.update(apply(JSON.parse(message.data) as T, replayed), !replayed || id === this.replayUntil);
        if (replayed && id === this.replayUntil) this.endReplay();
      });
    on<WorkbenchLogLine>('log', (line) => ({ logs: [...this.state.logs, line].slice(-maxLogLines) }));
    on<WorkbenchRequest>('request', (request) => ({
      requests: keepRequests([...this.state.requests, request], maxRequests, maxOwnRequests),
    }));
    on<RefreshResult>('reload', (result, replayed) => {
      if (!replayed) return { lastReload: result, reloadCount: this.state.reloadCount + 1 };
      if (!this.replayPredatesPage) this.replayedReload = true;
      return { lastReload: result };
    });
    on<SpecChangesReport>('changes', (report) => ({
      specChanges: [report, ...this.state.specChanges.filter((r) => r.path !== report.path)],
    }));
    on<WorkbenchDiagnostics>('diagnostics', (data) => ({ diagnostics: data.diagnostics }));
    on<WorkspaceFileChange>('file', (change) => {
      for (const listener of this.fileListeners) listener(change);
      return {};
    });
    this.loadDiagnostics();
  }

  private shut(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
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

  /**
   * A stream's first message: where its replay ends, and which server start it is: one other than the last
   * one seen restarted, so start over.
   */
  private hello({ instance, replayUntil, lastReloadAgoMs }: WorkbenchStreamHello): void {
    const restarted = this.instance !== undefined && this.instance !== instance;
    // On the page's first stream, a last replayed reload older than the page (both ages: no clocks compared) came
    // before every request the page made: fetching again would only repeat the start (the workspace listing, the
    // API docs) while the first file opens. A reconnect's replay is what the page missed.
    this.replayPredatesPage =
      this.instance === undefined && lastReloadAgoMs !== undefined && lastReloadAgoMs > performance.now();
    this.instance = instance;
    this.replayUntil = replayUntil;
    if (!restarted) return;
    this.seenIds = 0;
    // The restarted server may serve other files, routes and problems: views that follow reloads fetch again.
    this.update({ reloadCount: this.state.reloadCount + 1 });
    this.loadDiagnostics();
  }

  /**
   * The browser gave up on `source`: ask the API why. A refused token is the prompt's business (the
   * API's `onUnauthorized`); a token still good, or a server still away, opens the stream again (later).
   */
  private recover(source: EventSource): void {
    if (this.source !== source) return;
    this.shut();
    const generation = ++this.generation;
    this.api.diagnostics().then(
      () => generation === this.generation && this.open(),
      (error: unknown) => {
        if (generation !== this.generation) return;
        if (error instanceof ApiError && error.status === 401) return this.update({ tokenRefused: true });
        this.retryTimer = setTimeout(() => this.open(), this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, maxRetryMs);
      },
    );
  }

  /** The replay is over: the reloads it brought count as one, so each view fetches again once. */
  private endReplay(): void {
    if (!this.replayedReload) return;
    this.replayedReload = false;
    this.update({ reloadCount: this.state.reloadCount + 1 });
  }

  private loadDiagnostics(): void {
    void this.api.diagnostics().then(
      (data) => this.update({ diagnostics: data.diagnostics }),
      () => undefined,
    );
  }

  /** Replaces the state with `change` applied and, unless told not to (yet), tells the subscribers. */
  private update(change: Partial<ServerState>, notify = true): void {
    this.replaceState({ ...this.state, ...change }, notify);
  }
}

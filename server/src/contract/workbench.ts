/** Wire shapes of `/api/workbench`, and the desktop app's bridge. */

import type { AnswerMode, ContractViolationInfo, RefreshResult } from './gateway.js';

/** One file or folder of the workbench's workspace tree (`GET /api/workbench/files`). */
export interface WorkspaceEntry {
  /** Workspace path with `/` separators: `specs/library-api.openapi.yaml`, `health.yaml`. */
  path: string;
  name: string;
  type: 'file' | 'directory';
  /** Bytes (files only). */
  size?: number;
  mtimeMs: number;
  /** Folders only: their entries, folders first, then by name. */
  children?: WorkspaceEntry[];
}

/** `GET /api/workbench/files`: the editable parts of the workspace (specs/, handlers/, query/, health.yaml). */
export interface WorkspaceTree {
  /** The workspace folder's name, for titles. */
  workspace: string;
  entries: WorkspaceEntry[];
}

/** One line of a workspace file that contains the searched text. */
export interface WorkspaceSearchMatch {
  path: string;
  /** 1-based, as editors count. */
  line: number;
  /** 1-based column of the first match in the line. */
  column: number;
  /** The line, cut to a few hundred characters around the match. */
  text: string;
}

/** `GET /api/workbench/search?q=`: the lines of the workspace's files that contain `q`, ignoring case. */
export interface WorkspaceSearchResult {
  matches: WorkspaceSearchMatch[];
  /** True when more lines matched than the answer holds, or a file was too big to search. */
  truncated: boolean;
}

/** `GET /api/workbench/files/content?path=`. */
export interface WorkspaceFile {
  path: string;
  content: string;
  size: number;
  mtimeMs: number;
  /** A hash of the content: send it back as the `baseVersion` of a save (the server refuses a stale one). */
  version: string;
}

/** Answer of a write, create or rename: the file as it is now on disk. */
export interface WorkspaceFileInfo {
  path: string;
  type: 'file' | 'directory';
  size: number;
  mtimeMs: number;
  /** Files only: the content's version, as {@link WorkspaceFile.version}. */
  version?: string;
}

/** `PUT /api/workbench/files/content?path=`: the new content and the version it was based on. */
export interface WorkspaceWrite {
  content: string;
  /**
   * The `version` of the file the edit started from. When given, the server saves only if the file on disk
   * still has it (or is missing when `version` named none), otherwise 409 `WB_STALE_SAVE`. Without it, it
   * overwrites (for API clients that do not read first).
   */
  baseVersion?: string;
}

/** A file of the workspace changed on disk (through this API, another editor, git, a generator). */
export interface WorkspaceFileChange {
  /** Workspace path (`specs/a.openapi.yaml`). */
  path: string;
  /** The content's version now; absent when the file is gone (deleted, renamed away, a folder removed). */
  version?: string;
}

/**
 * A finding about one workspace file: a load error of a spec or handler, a spec warning, or a lint finding of a
 * spec (which never stops it serving).
 */
export interface WorkbenchDiagnostic {
  /** Workspace path of the file (`specs/...`, `handlers/...`). */
  path: string;
  /** Spectral's `info` and `hint` findings are `info`. */
  severity: 'error' | 'warning' | 'info';
  message: string;
  line?: number;
  column?: number;
  /** What found it: `lint` for Spectral's findings; absent for the server's own (load errors, warnings). */
  source?: 'lint';
  /** The lint rule (`oas3-valid-media-example`, a workspace rule). */
  rule?: string;
  /**
   * On the error of a file that cannot be loaded now, while its last good version keeps serving: when that
   * version was loaded (ms since the epoch).
   */
  lastGoodLoadedAt?: number;
}

/** `GET /api/workbench/diagnostics`. */
export interface WorkbenchDiagnostics {
  diagnostics: WorkbenchDiagnostic[];
}

/**
 * One frame of a logged error's stack. `place` says whose code it is: the workspace's (a handler, with a
 * workspace path), the server's own, a package's in `node_modules`, or Node's internals (`node:`, native).
 */
export interface StackFrame {
  /** The function, as the stack names it (`Router.dispatch`, `async handle`); absent for anonymous code. */
  function?: string;
  file: string;
  line?: number;
  column?: number;
  place: 'workspace' | 'server' | 'node_modules' | 'node';
}

/** The error of a log line (its `err` field), with the stack parsed into frames. */
export interface LoggedError {
  type?: string;
  message: string;
  frames: StackFrame[];
}

/** A log line of the server, as streamed to the workbench. */
export interface WorkbenchLogLine {
  /** Numbers the lines of one server start, from 1: what a captured request's `logId` names. */
  id?: number;
  time: number;
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  msg: string;
  /** The line's other fields (size-capped; the error's stack is in {@link error} instead). */
  fields?: Record<string, unknown>;
  /** The line's error (`err`), with its stack as frames. */
  error?: LoggedError;
}

/**
 * Who sent a captured request: the workbench itself (its calls carry the workbench token), a try-out
 * (Swagger UI's "Try it out", or a replay from the requests panel), or anyone else.
 */
export type RequestOrigin = 'workbench' | 'try-out' | 'external';

/** One side (request or response) of a captured request. */
export interface CapturedMessage {
  headers: Record<string, string>;
  /** The body as text, cut at the capture limit; absent when there was none. */
  body?: string;
  /** The body's size in bytes when known. */
  size?: number;
  truncated?: boolean;
}

/** A request the server answered, captured for the request inspector. */
export interface WorkbenchRequest {
  id: number;
  /** The server's id of the request (Fastify's `reqId`, `req-12`), as its log lines carry it. */
  requestId: string;
  origin: RequestOrigin;
  /** For an answer of 5xx: the {@link WorkbenchLogLine.id} of the error the server logged for it. */
  logId?: number;
  time: number;
  method: string;
  /** Path and query string. */
  url: string;
  status: number;
  durationMs: number;
  /** What served it: a spec's generated route, a handler, or a system route of the server. */
  source: 'spec' | 'handler' | 'system';
  /** The spec or handler file, for gateway routes. */
  file?: string;
  request: CapturedMessage;
  response: CapturedMessage;
  /** The mode that answered a gateway route (its `x-adaptive-mode` header). */
  mode?: AnswerMode;
  /** Contract violations the proxy or a stateful answer reported (`x-adaptive-violations`). */
  violations?: ContractViolationInfo[];
  /** The injected fault (`x-mock-fault`): `delay=300ms, error=503`. */
  fault?: string;
  /** What chose the answer of a route of a mock table (`x-adaptive-mock-rule`): `rule 2`, `route` or `prefer`. */
  mockRule?: string;
}

/** The events of `GET /api/workbench/events` (server-sent events; `event:` is the `type`). */
export type WorkbenchEvent =
  | { type: 'reload'; data: RefreshResult }
  | { type: 'diagnostics'; data: WorkbenchDiagnostics }
  | { type: 'log'; data: WorkbenchLogLine }
  | { type: 'request'; data: WorkbenchRequest }
  | { type: 'file'; data: WorkspaceFileChange }
  | { type: 'changes'; data: SpecChangesReport };

/**
 * The first message of every event stream (`event: hello`, without an id): the server start it comes from.
 * A client that sees a new `instance` knows the server restarted; event ids are `<instance>:<n>`.
 */
export interface WorkbenchStreamHello {
  instance: string;
  /**
   * The id (`n` of `<instance>:<n>`) of the last event the stream replays before live ones, 0 when it
   * replays nothing: a client tells history (a new page gets the recent events) from news.
   */
  replayUntil: number;
  /**
   * How long before this hello (milliseconds, by the server's clock) the last reload the stream replays happened;
   * absent when it replays none. A page younger than that asked for everything it shows after that reload, so
   * the replayed reloads give it nothing to fetch again.
   */
  lastReloadAgoMs?: number;
}

/** A command of the desktop app's native menu that the renderer carries out. */
export type MenuCommand = 'new-spec' | 'new-handler';

/** What the desktop app's preload exposes to the renderer as `window.workbench` (absent in a browser). */
export interface WorkbenchBridge {
  serverUrl: string;
  token: string;
  /** Shows a folder picker and opens the chosen workspace; resolves with it, or null when cancelled. */
  openWorkspace(): Promise<string | null>;
  recentWorkspaces(): Promise<string[]>;
  openRecentWorkspace(folder: string): Promise<void>;
  /** Shows a workspace file (path relative to the workspace) in the system file manager. */
  revealFile(file: string): Promise<void>;
  /** Calls `listener` with each command of the native menu until the returned function is called. */
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
}

/** The mode a spec's generated routes answer in, as the workbench switches it. */
export type SpecMode = 'static' | 'dynamic' | 'stateful' | 'proxy';

/** One spec of `GET /api/workbench/mock`: the mode in effect and what decides it. */
export interface SpecModeInfo {
  /** Workspace path: `specs/petstore.openapi.yaml`. */
  path: string;
  mount: string;
  mode: SpecMode;
  /** What decides the mode: the workspace default, or the spec's root extension. */
  setBy: 'workspace' | 'x-mock' | 'x-adaptive-state' | 'x-adaptive-proxy';
  /** The proxy's upstream URL. */
  upstream?: string;
  /** Upstream answers kept for recording (proxied specs). */
  recorded: number;
}

/** `GET /api/workbench/mock`: the workspace defaults (`MOCK_EXAMPLES`, `MOCK_STATE`) and every loaded spec. */
export interface MockOverview {
  defaults: { examples: 'static' | 'dynamic'; state: boolean };
  specs: SpecModeInfo[];
}

/** `POST /api/workbench/mock/mode`: the spec text with its root extensions set for `mode` (not written). */
export interface SpecModeRequest {
  path: string;
  mode: SpecMode;
  /** Required for `proxy` when the spec names no upstream yet. */
  upstream?: string;
}

/** A proposed edit of a spec file, for the user to review and save (nothing is written). */
export interface SpecEditProposal {
  path: string;
  /** The file as it is on disk now. */
  original: string;
  proposed: string;
  /** The example's name (recording). */
  name?: string;
  /** How the recorded example breaks its schema (recording); empty when it satisfies it. */
  violations?: ContractViolationInfo[];
}

/** One upstream answer the proxy kept for recording. */
export interface RecordedExchangeInfo {
  id: number;
  time: number;
  mount: string;
  /** The spec file (as the gateway names it). */
  file: string;
  method: string;
  /** The request's path and query. */
  url: string;
  /** The operation's path template. */
  path: string;
  status: number;
  /** The declared response it falls under: `200`, `2XX`, `default`. */
  response: string;
  /** The declared media type it falls under. */
  mediaType: string;
  size: number;
  /** Contract violations found in the exchange. */
  violations: number;
}

/** `GET /api/workbench/mock/recordings?mount=`: newest first. */
export interface RecordedExchanges {
  mount: string;
  exchanges: RecordedExchangeInfo[];
}

/** `POST /api/workbench/mock/recordings/proposal`: which exchange, and the example's name (default `recorded-<n>`). */
export interface RecordingProposalRequest {
  mount: string;
  id: number;
  name?: string;
}

/** One change between two versions of a spec, as `adaptive-gateway diff` and the workbench list it. */
export interface SpecChangeInfo {
  verdict: 'breaking' | 'non-breaking';
  /** `property-removed`, `parameter-made-required`...: docs/breaking-changes.md lists them with their verdicts. */
  kind: string;
  /** `GET /orders response 200 application/json [].id`. */
  where: string;
  /** The JSON pointer of the changed element in the spec. */
  pointer: string;
  message: string;
}

/** The `changes` event: what a save of a spec changed since its last good version. */
export interface SpecChangesReport {
  /** Workspace path: `specs/orders.yaml`. */
  path: string;
  /** When the new version loaded (ms since the epoch). */
  time: number;
  breaking: number;
  changes: SpecChangeInfo[];
}

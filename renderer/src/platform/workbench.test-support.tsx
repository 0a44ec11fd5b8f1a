import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import type { WorkspaceTree } from '../../../server/src/contract/index.js';
import { WorkbenchApi } from '../api/client.js';
import { EventStore } from '../api/event-store.js';
import { FakeEventSource } from '../api/fake-event-source.test-support.js';
import { DocumentStore } from '../state/documents.js';
import { Drafts } from '../state/drafts.js';
import { fakeStorage } from '../state/fake-storage.test-support.js';
import { SessionStore } from '../state/session.js';
import { TabsStore } from '../state/tabs.js';
import { WorkbenchContext, type Workbench } from './workbench-context.js';

/** One call the page made: `GET /api/workbench/mock?x=1` keeps its query in `url`. */
export interface FakeCall {
  method: string;
  url: string;
  body: unknown;
  /** The request's headers, names in lower case. */
  headers: Record<string, string>;
}

/**
 * What a route of the fake server answers: a JSON body, or a status with a `{detail, code}` body; either may come
 * later (a promise), and a promise that never settles is a server that never answers.
 */
export type FakeAnswer = unknown | { status: number; body: unknown };

/** The HTTP answer for what a route gave. */
function fakeResponse(answer: FakeAnswer): Response {
  const failed = typeof answer === 'object' && answer !== null && 'status' in answer && 'body' in answer;
  const status = failed ? (answer as { status: number }).status : 200;
  const body = failed ? (answer as { body: unknown }).body : answer;
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status: body === undefined && status === 200 ? 204 : status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * The server's side of a component test: `routes` keyed by `METHOD /path` (the query string left out) answer
 * the page's `fetch` calls; anything else is a 404. Every call is recorded in `calls`, in order; an aborted
 * call fails as the browser's does.
 */
export function fakeServer(routes: Record<string, (call: FakeCall) => FakeAnswer>): { calls: FakeCall[] } {
  const calls: FakeCall[] = [];
  vi.stubGlobal(
    'fetch',
    (url: string, init: RequestInit = {}) =>
      new Promise<Response>((resolve, reject) => {
        const call = {
          method: init.method ?? 'GET',
          url,
          body: init.body ? JSON.parse(String(init.body)) : undefined,
          headers: Object.fromEntries(new Headers(init.headers).entries()),
        };
        calls.push(call);
        init.signal?.addEventListener('abort', () => reject(new DOMException('The call was aborted', 'AbortError')));
        const route = routes[`${call.method} ${url.split('?')[0]}`];
        const answer = route ? route(call) : { status: 404, body: { detail: `no route ${call.method} ${url}` } };
        Promise.resolve(answer).then((settled) => resolve(fakeResponse(settled)), reject);
      }),
  );
  return { calls };
}

/** The workbench a component finds in its context: real stores over a real API client, spies for the shell's parts. */
export function testWorkbench(tree: WorkspaceTree = { workspace: 'test', entries: [] }) {
  fakeStorage();
  const api = new WorkbenchApi('test-token');
  const firstListing = Promise.resolve(tree);
  return {
    api,
    events: new EventStore(api),
    documents: new DocumentStore(api, new Drafts(firstListing.then((t) => t.workspace))),
    tabs: new TabsStore({ open: [] }),
    firstListing,
    session: new SessionStore(),
    openFile: vi.fn(),
    showPanel: vi.fn(),
    notify: vi.fn(),
    colorScheme: 'light',
  } satisfies Workbench;
}

/** Renders `ui` inside {@link testWorkbench}'s context (or the one given). */
export function renderInWorkbench(
  ui: ReactElement,
  workbench: Workbench = testWorkbench(),
): RenderResult & { workbench: Workbench } {
  const result = render(<WorkbenchContext.Provider value={workbench}>{ui}</WorkbenchContext.Provider>);
  return { ...result, workbench };
}

/**
 * Renders `ui` as {@link renderInWorkbench} does, with the workbench's event stream open over a
 * {@link FakeEventSource} (and the diagnostics the store loads on connecting answered empty): `emit` sends an event
 * (`request`, `log`, `diagnostics`...) as the server would, numbered after the ones before it.
 */
export function renderOverEvents(
  ui: ReactElement,
  workbench: Workbench = testWorkbench(),
): RenderResult & { workbench: Workbench; emit(type: string, data: unknown): void } {
  fakeServer({ 'GET /api/workbench/diagnostics': () => ({ diagnostics: [] }) });
  vi.stubGlobal('EventSource', FakeEventSource);
  const result = renderInWorkbench(ui, workbench);
  workbench.events.connect();
  const source = FakeEventSource.made.at(-1)!;
  let id = 0;
  act(() => {
    source.open();
    source.emit('hello', { instance: 'test', replayUntil: 0 });
  });
  return { ...result, emit: (type, data) => act(() => source.emit(type, data, `test:${++id}`)) };
}

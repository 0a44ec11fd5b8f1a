import { gatewayFetch, tokenHeader, type WorkbenchApi } from './client.js';

/** The header that marks a try-out sent from the workbench page (the server's `tryOutHeader`). */
export const tryOutHeader = 'x-workbench-try-out';

/** The workspace API whose token marks the workbench's own calls; set when the workbench starts. */
let api: WorkbenchApi | undefined;

/** Marks the calls of {@link ownFetch} with `workbench`'s token (the one in use at each call). */
export function markOwnCalls(workbench: WorkbenchApi): void {
  api = workbench;
}

/**
 * `fetch` for the workbench's own calls of the server's APIs (queries, job polls, health refreshes, the
 * docs' document): they carry the workbench token, by which the requests panel tells them from the
 * calls it is there to show, and hides them unless asked. Like every call of those APIs they carry the
 * signed-in user's credentials ({@link gatewayFetch}).
 */
export function ownFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (api) headers.set(tokenHeader, api.token);
  return gatewayFetch(url, { ...init, headers });
}

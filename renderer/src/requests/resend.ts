import { resendableHeaders } from './curl.js';
import { tryOutHeader } from '../api/own-fetch.js';
import type { WorkbenchRequest } from '../../../server/src/contract/index.js';

/** A request as the edit form holds it. */
export interface RequestDraft {
  method: string;
  /** Path and query string on this server. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The answer to a resent request, as the panel shows it. */
export interface ResendAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
}

/** Methods whose requests carry no body in `fetch`. */
const bodyless = new Set(['GET', 'HEAD']);

/** A captured request as a draft to send again (its credentials were not kept: see {@link resendableHeaders}). */
export function draftOf(request: WorkbenchRequest): RequestDraft {
  return {
    method: request.method,
    url: request.url,
    headers: resendableHeaders(request.request.headers).headers,
    body: request.request.body ?? '',
  };
}

/** Headers as `name: value` lines, for the edit form. */
export function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** `name: value` lines back to headers; throws, naming the line, on one that is not a header. */
export function parseHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`Line ${index + 1} is not "name: value"`);
    headers[name.toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * Sends `draft` to this server as a try-out (marked so, and without the workbench token: it shows in
 * the requests panel as the user's own request) and reads the answer. A path that does not start with
 * `/` is refused: a draft goes to this server only.
 */
export async function resend(draft: RequestDraft): Promise<ResendAnswer> {
  if (!draft.url.startsWith('/') || draft.url.startsWith('//')) throw new Error('The path must start with one /');
  const method = draft.method.trim().toUpperCase();
  const response = await fetch(draft.url, {
    method,
    headers: { ...draft.headers, [tryOutHeader]: 'replay' },
    body: bodyless.has(method) || draft.body === '' ? undefined : draft.body,
    cache: 'no-store',
  });
  return {
    status: response.status,
    statusText: response.statusText,
    headers: Object.fromEntries(response.headers.entries()),
    body: await response.text(),
  };
}

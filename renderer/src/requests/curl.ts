import type { WorkbenchRequest } from '../../../server/src/contract/index.js';
import { tokenHeader } from '../api/client.js';
import { tryOutHeader } from '../api/own-fetch.js';

/**
 * Headers a copied or resent request leaves out: the workbench's own marks (its token, the try-out mark),
 * and those the client computes itself (a copied `content-length` would be wrong after an edit); also
 * every `sec-*` header (below).
 */
const leftOutHeaders = new Set([
  tokenHeader,
  tryOutHeader,
  'host',
  'content-length',
  'connection',
  'accept-encoding',
  'transfer-encoding',
]);

/** The value the server shows in place of a credential. */
export const redactedValue = '[redacted]';

/** `text` as one POSIX shell word: single-quoted, each `'` as `'\''`. Newlines and any Unicode stay as they are. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The headers of a captured request worth sending again, and the credentials the capture did not keep. */
export function resendableHeaders(headers: Record<string, string>): {
  headers: Record<string, string>;
  redacted: string[];
} {
  const kept: Record<string, string> = {};
  const redacted: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    // `sec-*` headers are the browser's own (fetch may not set them): noise in a command, refused in a resend.
    if (leftOutHeaders.has(lower) || lower.startsWith('sec-')) continue;
    if (value === redactedValue) redacted.push(name);
    else kept[name] = value;
  }
  return { headers: kept, redacted };
}

/** What a copy-as-curl gives: the command, and what it could not carry (credentials, a cut body). */
export interface CurlCommand {
  command: string;
  redacted: string[];
  truncatedBody: boolean;
}

/**
 * The request as a curl command for a POSIX shell, against `origin` (`http://127.0.0.1:8080`): method,
 * URL, headers (less the workbench's and the redacted ones) and body, every word single-quoted. A body
 * with a NUL byte, which no shell word can hold, is sent from a `printf` on standard input.
 */
export function toCurl(request: WorkbenchRequest, origin: string): CurlCommand {
  const { headers, redacted } = resendableHeaders(request.request.headers);
  const parts = ['curl'];
  const body = request.request.body;
  if (request.method !== 'GET' || body !== undefined) parts.push('-X', shellQuote(request.method));
  parts.push(shellQuote(origin + request.url));
  for (const [name, value] of Object.entries(headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  let command: string;
  if (body !== undefined && body.includes('\0')) {
    // `%b` reads `\0` and up to three octal digits: four zeros end the escape before a digit of the body.
    const escaped = body.replaceAll('\\', '\\\\').replaceAll('\0', '\\0000');
    command = `printf %b ${shellQuote(escaped)} | ${parts.join(' ')} --data-binary @-`;
  } else {
    if (body !== undefined) parts.push('--data-raw', shellQuote(body));
    command = parts.join(' ');
  }
  return { command, redacted, truncatedBody: request.request.truncated === true };
}

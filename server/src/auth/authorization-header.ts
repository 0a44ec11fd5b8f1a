import { authFailure } from './auth-failure.js';

/** What a request presents: nothing, a Basic user name and password, or a Bearer token. */
export type Credentials =
  { scheme: 'none' } | { scheme: 'basic'; username: string; password: string } | { scheme: 'bearer'; token: string };

/**
 * Longest Authorization value looked at. Real access tokens stay far below it; a longer one is refused
 * before any decoding or key lookup.
 */
export const maxAuthorizationLength = 16 * 1024;

const base64 = /^[A-Za-z0-9+/]+={0,2}$/;
const token68 = /^[A-Za-z0-9\-._~+/]+=*$/;
/** RFC 7617: neither the user-id nor the password may contain control characters (U+0000–U+001F, U+007F). */
const hasControlCharacter = (text: string): boolean => [...text].some((char) => char < ' ' || char === '\u007f');
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * How many Authorization headers the raw request carried. Node keeps only the first one in
 * `request.headers`, so a second, different credential would otherwise pass unseen by the gateway
 * while an upstream might read it.
 */
export function countAuthorizationHeaders(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].length === 13 && rawHeaders[i].toLowerCase() === 'authorization') count++;
  }
  return count;
}

function malformed(reason: string, bearer: boolean) {
  return authFailure('AUTH_MALFORMED', [reason], bearer ? 'invalid_request' : undefined);
}

function parseBasic(encoded: string): Credentials {
  if (encoded === '') throw malformed('Basic credentials are empty', false);
  if (encoded.length % 4 !== 0 || !base64.test(encoded)) throw malformed('Basic credentials are not base64', false);
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(encoded, 'base64'));
  } catch {
    throw malformed('Basic credentials are not UTF-8', false);
  }
  // The user name ends at the first colon; the password may contain more (RFC 7617 §2).
  const colon = decoded.indexOf(':');
  if (colon === -1) throw malformed('Basic credentials have no colon between user name and password', false);
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (username === '') throw malformed('Basic credentials have an empty user name', false);
  if (hasControlCharacter(decoded)) throw malformed('Basic credentials contain control characters', false);
  return { scheme: 'basic', username, password };
}

/**
 * Reads the credentials of one request. Throws an {@link AuthFailure}: 400 when more than one
 * Authorization header was sent, 401 when the header is too long, malformed or of another scheme.
 */
export function readCredentials(authorization: string | undefined, headerCount: number): Credentials {
  if (headerCount > 1) throw authFailure('AUTH_AMBIGUOUS');
  if (authorization === undefined) return { scheme: 'none' };
  if (authorization.length > maxAuthorizationLength) {
    throw malformed(`the header is longer than ${maxAuthorizationLength} characters`, true);
  }
  const value = authorization.trim();
  if (value === '') throw malformed('the header is empty', false);
  const space = value.indexOf(' ');
  const scheme = (space === -1 ? value : value.slice(0, space)).toLowerCase();
  const rest = space === -1 ? '' : value.slice(space + 1).trimStart();
  if (scheme === 'basic') return parseBasic(rest);
  if (scheme === 'bearer') {
    if (rest === '') throw malformed('the Bearer token is empty', true);
    if (!token68.test(rest)) throw malformed('the Bearer token has characters a token cannot contain', true);
    return { scheme: 'bearer', token: rest };
  }
  throw malformed('only the Basic and Bearer schemes are accepted', false);
}

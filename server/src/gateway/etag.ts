import crypto from 'node:crypto';

/** A strong ETag of exact bytes (or text): a quoted SHA-1, base64url, so that equal bodies share it across restarts. */
export function strongEtag(body: string | Buffer): string {
  return `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Whether an `If-None-Match` header names `etag` (or is `*`): the weak comparison RFC 9110 §13.1.2 asks for,
 * so a `W/` tag a cache made of ours still matches.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  // The usual case, one tag exactly as we sent it, needs no split.
  if (ifNoneMatch === etag) return true;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

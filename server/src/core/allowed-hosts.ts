import type http from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DecidedLately } from './decided-lately.js';
import { httpError } from './errors.js';

/** The names a loopback server always answers to: no DNS name an attacker controls resolves to them by name. */
export const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/** `host` (a bound address or name) as a Host header spells it: IPv6 in brackets, lower case. */
export function hostName(host: string): string {
  const name = host.trim().toLowerCase();
  return name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
}

/** The name part of a Host header value (`a.example:8080` -> `a.example`, `[::1]:80` -> `[::1]`). */
function nameOfHost(value: string): string {
  const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':', 1)[0];
  // A fully qualified name's trailing dot names the same host.
  return name.toLowerCase().replace(/\.$/, '');
}

/** Whether `value` (a Host header) names one of `allowed`: exact names, or `.example.com` for it and its subdomains. */
export function isAllowedHost(value: string, allowed: readonly string[]): boolean {
  const name = nameOfHost(value);
  return allowed.some((entry) =>
    entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry,
  );
}

/** Host values decided lately: clients send the same few, so most requests cost one map lookup. */
const decidedMax = 256;

/** Whether a Host header value may be served under `allowed` (`*`: any), decided once per value lately seen. */
export function hostAllowance(allowed: '*' | readonly string[]): (host: string) => boolean {
  if (allowed === '*') return () => true;
  const decided = new DecidedLately<boolean>(decidedMax);
  return (host) => {
    let ok = decided.get(host);
    if (ok === undefined) {
      ok = isAllowedHost(host, allowed);
      decided.set(host, ok);
    }
    return ok;
  };
}

/**
 * The `onRequest` hook that refuses a request whose `Host` is not {@link hostAllowance allowed} with 421
 * HOST_NOT_ALLOWED, so a page of another site that rebinds its DNS name to this server's address (DNS
 * rebinding) cannot use it. An HTTP/1.1 request without `Host` is 400 MALFORMED_REQUEST (RFC 9112 §3.2).
 */
export function hostCheck(allowed: (host: string) => boolean) {
  // A callback hook, not an async one: it runs on every request, and an async hook costs a promise each time.
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const host = request.headers.host;
    if (host === undefined) {
      if (request.raw.httpVersion === '1.0') return done();
      const error = httpError('MALFORMED_REQUEST', ['it has no Host header, which HTTP/1.1 requires']);
      reply.code(error.status).header('connection', 'close').send(error.body());
      return;
    }
    if (allowed(host)) return done();
    const error = httpError('HOST_NOT_ALLOWED', [JSON.stringify(host.slice(0, 200))]);
    reply.code(error.status).send(error.body());
  };
}

/**
 * Fastify's `rewriteUrl`: a request in absolute form (`GET http://example.com/x HTTP/1.1`, RFC 9112
 * §3.2.2) is routed by its path, and its authority replaces `Host`, as the RFC says; other targets pass
 * unchanged.
 */
export function originFormUrl(request: http.IncomingMessage): string {
  const url = request.url ?? '/';
  if (url.charCodeAt(0) === 47) return url;
  const match = /^https?:\/\/(?:[^/?#@]*@)?([^/?#]*)([^#]*)/i.exec(url);
  if (!match) return url;
  request.headers.host = match[1];
  return match[2].startsWith('/') ? match[2] : `/${match[2]}`;
}

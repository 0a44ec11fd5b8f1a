import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { httpError } from '../core/errors.js';

/** The header that carries the workbench token on every call of the workspace API. */
export const tokenHeader = 'x-workbench-token';

/** A new random per-launch token (192 bits, URL-safe). */
export function newWorkbenchToken(): string {
  return randomBytes(24).toString('base64url');
}

/** True when `given` is `expected`, compared in constant time. */
export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Builds the check every workspace API route runs first: the token from the `X-Workbench-Token` header,
 * or, where the browser cannot set headers (EventSource), from `?token=`. Missing or wrong -> 401.
 */
export function tokenCheck(
  token: string,
  options: { allowQuery: boolean },
): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const header = request.headers[tokenHeader];
    const fromQuery = options.allowQuery ? (request.query as Record<string, unknown> | undefined)?.token : undefined;
    const given = typeof header === 'string' ? header : typeof fromQuery === 'string' ? fromQuery : undefined;
    if (given === undefined) throw httpError('WB_TOKEN_MISSING', [tokenHeader]);
    if (!sameToken(given, token)) throw httpError('WB_TOKEN_WRONG');
  };
}

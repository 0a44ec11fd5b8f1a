import type { FastifyRequest } from 'fastify';
import type { AuthClaims } from '../../handler-sdk/types.js';

/**
 * The verified claims the authentication layer attached to `request.auth`, or `null` when it attached
 * none (no credentials, or authentication off). Handlers see this as `ctx.auth`.
 */
export function requestAuth(request: FastifyRequest): AuthClaims | null {
  return (request as FastifyRequest & { auth?: AuthClaims | null }).auth ?? null;
}

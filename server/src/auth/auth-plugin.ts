import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../core/config.js';
import { HttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { AuthFailure, authFailure, challengeHeaders } from './auth-failure.js';
import { countAuthorizationHeaders, readCredentials } from './authorization-header.js';
import type { Authenticator } from './authenticator.js';
import type { AuthClaims } from './identity.js';
import { classifyRequest } from './request-path.js';
import type { RouteAccess } from '../core/routes.js';
import { countAuthentication } from '../observability/metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The authenticator when `AUTH_ENABLED=true`, else null. */
    authentication: Authenticator | null;
  }
  interface FastifyRequest {
    /** Verified claims of the caller (after token exchange: the platform token's), or null. */
    auth: AuthClaims | null;
    /**
     * The platform access token to send upstream: the caller's own platform token, the token obtained
     * by exchange or by the password grant; null without one (local Basic users, no credentials).
     */
    upstreamToken: string | null;
  }
}

/**
 * True when the request may see what authenticated callers see: it carried verified credentials, or
 * authentication is off (`AUTH_ENABLED=false` trusts every caller). For `/api/health` and the like,
 * which answer everyone but show details only to authenticated callers.
 */
export function isAuthenticated(request: FastifyRequest): boolean {
  return request.auth !== null || request.server.authentication === null;
}

/**
 * The access a request needs: what its route declares (`config.access`; protected when it declares
 * nothing, so a route nobody thought about fails closed), or the path rule for a request no route
 * matched. CORS preflights (`OPTIONS` with `Access-Control-Request-Method`) carry no credentials by
 * design and pass.
 */
function requestAccess(request: FastifyRequest): RouteAccess {
  const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
  if (request.is404) return classifyRequest(request.method, request.url, preflight);
  const access = request.routeOptions.config.access ?? 'protected';
  return access === 'protected' && preflight ? 'public' : access;
}

function refuse(reply: FastifyReply, error: HttpError, authenticator: Authenticator): FastifyReply {
  reply.code(error.status).header('cache-control', 'no-store');
  if (error.status === 401)
    reply.header(
      'www-authenticate',
      challengeHeaders(authenticator.challenges, error instanceof AuthFailure ? error.bearerError : undefined),
    );
  if (error instanceof AuthFailure && error.retryAfterS !== undefined)
    reply.header('retry-after', String(error.retryAfterS));
  return reply.send(error.body());
}

/**
 * Registers authentication on the root instance, so that it covers every route, including the ones
 * registered after it. Call before the other plugins. With `AUTH_ENABLED=false` it only declares
 * `request.auth` (always null). Throws a `ConfigFileError` for a bad users file.
 */
export async function registerAuthentication(app: FastifyInstance, config: Config, log: Logger): Promise<void> {
  app.decorateRequest('auth', null);
  app.decorateRequest('upstreamToken', null);
  if (!config.authEnabled) {
    app.decorate('authentication', null);
    return;
  }
  // Imported only here: a server without authentication (every mock server) never loads the JWT, bcrypt and
  // Redis clients behind it, a tenth of a mock server's start-up.
  const { Authenticator } = await import('./authenticator.js');
  const authenticator = Authenticator.create(config.auth, log);
  app.decorate('authentication', authenticator);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const access = requestAccess(request);
    if (access === 'public') return;
    try {
      const credentials = readCredentials(
        request.headers.authorization,
        countAuthorizationHeaders(request.raw.rawHeaders),
      );
      const identity = await authenticator.identify(credentials, request.ip);
      if (identity === null) {
        if (access === 'protected') return refuse(reply, authFailure('AUTH_REQUIRED'), authenticator);
        return;
      }
      countAuthentication(identity.exchanged ? 'exchange' : credentials.scheme);
      request.auth = identity.claims;
      request.upstreamToken = identity.upstreamToken;
      // The request goes on as if the caller had sent the platform token (service document part 5).
      if (identity.exchanged) request.headers.authorization = `Bearer ${identity.upstreamToken}`;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      countAuthentication('', error.code);
      // Failed logins and bad tokens are worth an operator's eye (requests without any are not logged).
      log.info(
        { method: request.method, url: request.url.split('?')[0], status: error.status, reason: error.detail },
        'authentication refused',
      );
      return refuse(reply, error, authenticator);
    }
  });
  app.addHook('onClose', async () => {
    await authenticator.close();
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BrowserLogin, SignInScheme, WorkbenchAuthInfo, WorkbenchSessionCheck } from '../contract/index.js';
import type { Config } from '../core/config.js';
import { httpError, HttpError } from '../core/errors.js';
import { tokenCheck } from './token.js';

/** Options of {@link authInfoApi}. */
export interface AuthInfoOptions {
  config: Config;
  /** The per-launch workbench token. */
  token: string;
}

/** What the UI asks for at sign-in: OpenID scopes only, the audience comes from the provider's client setup. */
const browserLoginScope = 'openid profile';

/** A short name for the "Sign in with …" button: the Keycloak realm, else the issuer's host. */
export function providerName(issuer: string): string {
  const url = new URL(issuer);
  const realm = /\/realms\/([^/]+)\/?$/.exec(url.pathname);
  return realm ? decodeURIComponent(realm[1]) : url.host;
}

/**
 * The origins the workbench page must be allowed to call for the provider's login (its CSP `connect-src`):
 * the issuer's, where the token endpoint is; none without the login.
 */
export function browserLoginOrigins(config: Config): string[] {
  const { issuer, workbenchClientId } = config.auth;
  return config.authEnabled && issuer && workbenchClientId ? [new URL(issuer).origin] : [];
}

type Authentication = NonNullable<FastifyInstance['authentication']>;

async function browserLogin(
  authentication: Authentication,
  clientId: string,
): Promise<Pick<WorkbenchAuthInfo, 'browserLogin' | 'browserLoginError'>> {
  const issuer = authentication.platformIssuer;
  if (!issuer) return {};
  try {
    const endpoints = await authentication.loginEndpoints();
    // The page may call only the issuer's origin (its content security policy): a token endpoint elsewhere
    // would fail in the browser with nothing to tell why.
    const tokenOrigin = new URL(endpoints.tokenEndpoint).origin;
    if (tokenOrigin !== new URL(issuer).origin)
      return { browserLoginError: `its token endpoint is on ${tokenOrigin}, not on the issuer's origin` };
    const login: BrowserLogin = {
      issuer,
      name: providerName(issuer),
      clientId,
      scope: browserLoginScope,
      ...endpoints,
    };
    return { browserLogin: login };
  } catch (error) {
    // The other schemes still work: the UI says why the provider's button is missing.
    if (error instanceof HttpError) return { browserLoginError: error.detail };
    throw error;
  }
}

/** `GET /auth`: what the UI may offer, from the auth settings (and the provider's discovery for its login). */
async function authInfo(app: FastifyInstance, config: Config): Promise<WorkbenchAuthInfo> {
  const authentication = app.authentication;
  if (!config.authEnabled || !authentication) return { required: false, schemes: [] };
  const schemes: SignInScheme[] = [];
  if (authentication.challenges.basic) schemes.push('basic');
  if (authentication.challenges.bearer) schemes.push('bearer');
  const clientId = config.auth.workbenchClientId;
  if (!clientId) return { required: true, schemes };
  const login = await browserLogin(authentication, clientId);
  if (login.browserLogin) schemes.push('oidc');
  return { required: true, schemes, ...login };
}

/** The name the session check shows for a verified caller. */
function subjectOf(claims: Record<string, unknown>): string {
  for (const claim of ['preferred_username', 'sub']) {
    const value = claims[claim];
    if (typeof value === 'string' && value) return value;
  }
  return 'unknown';
}

/**
 * `GET /auth/session` (only with authentication on): checks the request's `Authorization` exactly as the
 * gateway would (same schemes, throttling and answers) and says whom it signs in. Its 401 carries no
 * `WWW-Authenticate`, so a browser never answers it with its own Basic prompt.
 */
async function sessionCheck(authentication: Authentication, request: FastifyRequest): Promise<WorkbenchSessionCheck> {
  const identity = await authentication.identifyHeader(
    request.headers.authorization,
    request.raw.rawHeaders,
    request.ip,
  );
  if (identity === null) throw httpError('AUTH_REQUIRED');
  const scheme = /^basic /i.test(request.headers.authorization ?? '') ? 'basic' : 'bearer';
  const { exp } = identity.claims;
  return {
    scheme,
    subject: subjectOf(identity.claims),
    ...(scheme === 'bearer' && typeof exp === 'number' ? { expiresAt: exp * 1000 } : {}),
  };
}

/**
 * The sign-in support of the workbench under `/api/workbench/auth`: what sign-in the gateway accepts, and
 * a check of credentials before the UI keeps them. Both need the workbench token like the rest of the area;
 * the user's credentials stay separate from it.
 */
export async function authInfoApi(api: FastifyInstance, options: AuthInfoOptions): Promise<void> {
  api.addHook('onRequest', tokenCheck(options.token, { allowQuery: false }));
  api.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  api.get('/auth', async (): Promise<WorkbenchAuthInfo> => authInfo(api, options.config));
  // Without authentication there is nothing to check: the route does not exist (404).
  const authentication = options.config.authEnabled ? api.authentication : null;
  if (authentication) api.get('/auth/session', async (request) => sessionCheck(authentication, request));
}

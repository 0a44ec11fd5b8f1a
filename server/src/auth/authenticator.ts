import { decodeJwt, type JWTPayload } from 'jose';
import type { AuthSettings } from '../core/config.js';
import { httpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { authFailure, invalidToken, type Challenges } from './auth-failure.js';
import { countAuthorizationHeaders, readCredentials, type Credentials } from './authorization-header.js';
import { BasicAuthenticator } from './basic-authenticator.js';
import { MemoryExchangeStore, RedisExchangeStore, type ExchangeStore } from './exchange-store.js';
import { callIdp, IdpUnavailable, unavailableError } from './idp-http.js';
import { isObject } from '../core/json.js';
import type { Identity } from './identity.js';
import { TokenEndpoint } from './token-endpoint.js';
import { TokenExchanger } from './token-exchange.js';
import { TrustedIssuer } from './trusted-issuer.js';
import { loadUsersFile, usersFileExposure } from './users-file.js';

export const authRealm = 'adaptive-gateway';

/**
 * Checks the credentials of a request: Basic against the users file or the identity provider, Bearer
 * against the platform issuer, or against a trusted external issuer followed by token exchange.
 */
export class Authenticator {
  readonly challenges: Challenges;

  private constructor(
    private readonly basic: BasicAuthenticator | undefined,
    private readonly platform: TrustedIssuer | undefined,
    private readonly exchanger: TokenExchanger | undefined,
    private readonly store: ExchangeStore | null,
    private readonly settings: AuthSettings,
  ) {
    this.challenges = { basic: basic !== undefined, bearer: platform !== undefined, realm: authRealm };
  }

  /**
   * Builds the authenticator from validated settings (the cross-checks are in `loadConfig`). Reads the
   * users file, so it throws a `ConfigFileError` for a bad one. Nothing is fetched from an identity
   * provider yet: discovery and keys are loaded on first use, so a provider that is down at start
   * costs failed requests (502/504), not a failed start.
   */
  static create(settings: AuthSettings, log: Logger): Authenticator {
    const timing = { timeoutMs: settings.idpTimeoutMs, jwksCooldownMs: settings.jwksCooldownMs };
    const platform = settings.issuer
      ? new TrustedIssuer(settings.issuer, { ...timing, audiences: settings.audience ? [settings.audience] : [] })
      : undefined;
    const tokenEndpoint =
      platform && settings.clientId && settings.clientSecret
        ? new TokenEndpoint(platform, settings.clientId, settings.clientSecret, settings.idpTimeoutMs, log)
        : undefined;

    let basic: BasicAuthenticator | undefined;
    if (settings.usersFile) {
      basic = new BasicAuthenticator(
        { kind: 'file', users: loadUsersFile(settings.usersFile) },
        settings.loginThrottle,
      );
      const exposure = usersFileExposure(settings.usersFile);
      if (exposure !== undefined) log.warn(exposure);
    } else if (tokenEndpoint)
      basic = new BasicAuthenticator({ kind: 'identity-provider', tokenEndpoint }, settings.loginThrottle);
    else
      log.info(
        'Basic authentication is off: set AUTH_USERS_FILE, or IDP_CLIENT_ID and IDP_CLIENT_SECRET for the ' +
          'password grant',
      );

    let store: ExchangeStore | null = null;
    let exchanger: TokenExchanger | undefined;
    const external = settings.exchangeIssuers.filter((issuer) => issuer !== settings.issuer);
    if (platform && tokenEndpoint && external.length > 0) {
      if (settings.cacheExchangedTokens) {
        store = settings.redisUrl
          ? new RedisExchangeStore(settings.redisUrl, settings.redisKeyPrefix, log)
          : new MemoryExchangeStore();
      }
      const issuers = new Map(
        external.map((issuer) => [
          issuer,
          new TrustedIssuer(issuer, { ...timing, audiences: settings.exchangeAudiences }),
        ]),
      );
      exchanger = new TokenExchanger({ issuers, platform, tokenEndpoint, store, log });
    }
    return new Authenticator(basic, platform, exchanger, store, settings);
  }

  /**
   * The identity behind `credentials`, or null when there are none. Throws an HTTP error when they fail.
   * `address` is the client's, by which failed Basic logins are throttled.
   */
  async identify(credentials: Credentials, address: string): Promise<Identity | null> {
    if (credentials.scheme === 'none') return null;
    if (credentials.scheme === 'basic') {
      if (!this.basic) throw authFailure('AUTH_MALFORMED', ['the Basic scheme is not accepted by this server']);
      return this.basic.authenticate(credentials.username, credentials.password, address);
    }
    return this.identifyBearer(credentials.token);
  }

  /**
   * {@link identify} for a raw `Authorization` header (`rawHeaders`: the request's, so that two headers are
   * refused as in the authentication hook). For a route that checks credentials itself.
   */
  identifyHeader(header: string | undefined, rawHeaders: readonly string[], address: string): Promise<Identity | null> {
    return this.identify(readCredentials(header, countAuthorizationHeaders(rawHeaders)), address);
  }

  /** The platform issuer, when bearer tokens are accepted. */
  get platformIssuer(): string | undefined {
    return this.platform?.issuer;
  }

  /**
   * The platform provider's authorization and token endpoints, from its discovery (cached by the issuer).
   * Throws an HTTP error (502/504) when the provider cannot be used or publishes neither.
   */
  async loginEndpoints(): Promise<{ authorizationEndpoint: string; tokenEndpoint: string }> {
    if (!this.platform) throw httpError('IDP_BAD_GATEWAY', ['no identity provider is configured']);
    let metadata;
    try {
      metadata = await this.platform.metadata();
    } catch (error) {
      if (error instanceof IdpUnavailable) throw unavailableError(error, this.settings.idpTimeoutMs);
      throw error;
    }
    const { authorization_endpoint: authorizationEndpoint, token_endpoint: tokenEndpoint } = metadata;
    if (!authorizationEndpoint || !tokenEndpoint)
      throw httpError('IDP_BAD_GATEWAY', ['its discovery document names no authorization or token endpoint']);
    return { authorizationEndpoint, tokenEndpoint };
  }

  private async identifyBearer(token: string): Promise<Identity> {
    let claims: JWTPayload;
    try {
      // Read, not trusted: `iss` only chooses whose keys verify the token.
      claims = decodeJwt(token);
    } catch {
      throw invalidToken('it is not a signed JWT');
    }
    if (typeof claims.iss !== 'string') throw invalidToken('it names no issuer');
    if (this.platform && claims.iss === this.platform.issuer) {
      return { claims: await this.platform.verify(token), upstreamToken: token, exchanged: false };
    }
    if (this.exchanger?.trusts(claims.iss)) return this.exchanger.identify(token, claims.iss, claims.jti);
    throw invalidToken('its issuer is not trusted by this server');
  }

  /**
   * For the health view: which schemes are on and, with an identity provider, that its discovery
   * document can be fetched now. Throws when it cannot.
   */
  async healthCheck(): Promise<Record<string, unknown>> {
    const details: Record<string, unknown> = {
      enabled: true,
      basic: this.settings.usersFile ? 'users-file' : this.basic ? 'identity-provider' : 'off',
      bearer: this.platform !== undefined,
      token_exchange_issuers: this.exchanger ? this.settings.exchangeIssuers.length : 0,
      token_exchange_cache: this.store?.kind ?? 'off',
    };
    if (this.platform) {
      // Fresh on every call, unlike the verifier's cached metadata: health must see the provider as it is now.
      const discovery = await callIdp(this.platform.discoveryUrl, this.settings.idpTimeoutMs);
      if (discovery.status !== 200) throw new Error(`the identity provider's discovery answered ${discovery.status}`);
      const jwksUri = isObject(discovery.json) ? discovery.json.jwks_uri : undefined;
      if (typeof jwksUri !== 'string') throw new Error("the identity provider's discovery document has no jwks_uri");
      const jwks = await callIdp(jwksUri, this.settings.idpTimeoutMs);
      const keys = isObject(jwks.json) && Array.isArray(jwks.json.keys) ? jwks.json.keys.length : 0;
      if (jwks.status !== 200) throw new Error(`the identity provider's JWKS answered ${jwks.status}`);
      if (keys === 0) throw new Error("the identity provider's JWKS has no keys");
      details.issuer = this.platform.issuer;
      details.keys = keys;
    }
    return details;
  }

  /** Closes the connection to the cache store. */
  async close(): Promise<void> {
    await this.basic?.close();
    await this.store?.close();
  }
}

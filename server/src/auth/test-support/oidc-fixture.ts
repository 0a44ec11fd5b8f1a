import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { errors, Provider, type KoaContext } from 'oidc-provider';

/**
 * A real OpenID provider (oidc-provider) on a loopback port, laid out like Keycloak:
 * issuer `http://127.0.0.1:<port>/realms/<realm>`. Discovery, JWKS and client credentials are the
 * provider's own; the password grant and the RFC 8693 token-exchange grant are registered as custom
 * grants and mint the provider's own JWT access tokens. Tests steer it (token lifetime, `jti`, exchange
 * policy, misbehaviour, key rotation, outages) and read its counters.
 */

export const tokenExchangeGrant = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** How the token endpoint misbehaves: refuse with a status, answer garbage, or never answer. */
export type Misbehaviour = 'none' | 'status-500' | 'garbage' | 'hang';

export interface ProviderClient {
  clientId: string;
  /** Absent for a public client (a browser app: no secret, PKCE required). */
  clientSecret?: string;
  grantTypes: string[];
  /** Where the authorization code flow may send the browser back (with `authorization_code`). */
  redirectUris?: string[];
}

export interface ProviderOptions {
  realm: string;
  clients: ProviderClient[];
  /** User name -> password, for the password grant. */
  users: Record<string, string>;
  /** Audience (and resource indicator) of the access tokens it issues. */
  audience: string;
}

interface SigningKey {
  kid: string;
  alg: string;
  privateJwk: JWK;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function newKey(alg: 'RS256' | 'ES256' | 'EdDSA'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, {
    extractable: true,
    ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}),
  });
  const kid = `${alg.toLowerCase()}-${crypto.randomBytes(6).toString('hex')}`;
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateJwk, privateKey, publicJwk };
}

/** One running provider and the knobs tests turn. */
export class IdentityProviderFixture {
  readonly realm: string;
  serverUrl = '';
  /** Requests seen, by kind. */
  readonly counters = { discovery: 0, jwks: 0, password: 0, exchange: 0, token: 0 };
  /** The form fields of the last token-exchange request (the subject token replaced by its length). */
  lastExchangeForm?: Record<string, string | undefined>;
  /** Lifetime of the access tokens it issues, in seconds. */
  accessTokenTtl = 300;
  /** `jti` of the next tokens: a fixed value, or null for none; undefined: the provider's own. */
  jtiOverride: string | null | undefined;
  misbehaviour: Misbehaviour = 'none';
  /** Issuers whose tokens the exchange grant accepts (checked against their own JWKS). */
  readonly exchangeTrust = new Map<string, IdentityProviderFixture>();
  /** Clients allowed to exchange (the provider-side token-exchange policy); others get 403. */
  readonly exchangeClients = new Set<string>();
  /** Signing keys, the first one signs. `extraKeys` are published but never used by the provider. */
  keys: SigningKey[] = [];
  extraKeys: SigningKey[] = [];

  private server?: http.Server;
  private port = 0;
  private handler?: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  private readonly hanging = new Set<() => void>();

  constructor(private readonly options: ProviderOptions) {
    this.realm = options.realm;
  }

  get issuer(): string {
    return `${this.serverUrl}/realms/${this.realm}`;
  }

  /** Starts on a free loopback port (or the port it had before, after {@link stop}). */
  async start(): Promise<void> {
    if (this.keys.length === 0) {
      this.keys = [await newKey('RS256')];
      this.extraKeys = [await newKey('ES256'), await newKey('EdDSA')];
    }
    const server = http.createServer((req, res) => this.route(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    this.serverUrl = `http://127.0.0.1:${this.port}`;
    if (!this.handler) this.handler = this.buildProvider().callback();
  }

  /** Stops listening (the provider is "down"); {@link start} brings it back on the same port. */
  async stop(): Promise<void> {
    for (const release of this.hanging) release();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Publishes a new signing key (first) next to the old ones, as a provider rotating its keys does. */
  async rotateKeys(): Promise<void> {
    this.keys = [await newKey('RS256'), ...this.keys];
    this.handler = this.buildProvider().callback();
  }

  private route(req: http.IncomingMessage, res: http.ServerResponse): void {
    const prefix = `/realms/${this.realm}`;
    const url = req.url ?? '/';
    if (url !== prefix && !url.startsWith(`${prefix}/`)) {
      res.writeHead(404).end();
      return;
    }
    const path = url.slice(prefix.length).split('?')[0];
    if (path === '/.well-known/openid-configuration') this.counters.discovery++;
    if (path === '/jwks') this.counters.jwks++;
    if (path === '/token' && req.method === 'POST') {
      this.counters.token++;
      if (this.misbehave(res)) return;
    }
    // Mounted the way Express mounts it: the provider reads its mount path from originalUrl.
    Object.assign(req, { originalUrl: url });
    req.url = url.slice(prefix.length) || '/';
    this.handler!(req, res);
  }

  private misbehave(res: http.ServerResponse): boolean {
    switch (this.misbehaviour) {
      case 'none':
        return false;
      case 'status-500':
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"server_error"}');
        return true;
      case 'garbage':
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body>Service temporarily unavailable</body></html>');
        return true;
      case 'hang': {
        const release = () => res.destroy();
        this.hanging.add(release);
        res.on('close', () => this.hanging.delete(release));
        return true;
      }
    }
  }

  /** The grant of a browser login: OpenID scopes and the API audience, as a first-party client gets. */
  private async grantFor(ctx: KoaContext): Promise<unknown> {
    const { oidc } = ctx;
    const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(oidc.client.clientId);
    if (grantId) return oidc.provider.Grant.find(grantId);
    const grant = new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session?.accountId });
    grant.addOIDCScope('openid profile');
    grant.addResourceScope(`urn:${this.options.audience}`, 'openid api');
    await grant.save();
    return grant;
  }

  private resourceServer(provider: Provider): unknown {
    return new provider.ResourceServer(`urn:${this.options.audience}`, this.resourceServerInfo());
  }

  private resourceServerInfo() {
    return {
      audience: this.options.audience,
      scope: 'openid api',
      accessTokenFormat: 'jwt',
      accessTokenTTL: this.accessTokenTtl,
      jwt: { sign: { alg: 'RS256' } },
    };
  }

  private buildProvider(): Provider {
    const { clients, users } = this.options;
    const provider = new Provider(this.issuer, {
      jwks: { keys: [...this.keys, ...this.extraKeys].map((key) => key.privateJwk) },
      clients: clients.map((client) => ({
        client_id: client.clientId,
        ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
        grant_types: client.grantTypes,
        response_types: client.redirectUris ? ['code'] : [],
        redirect_uris: client.redirectUris ?? [],
        token_endpoint_auth_method: client.clientSecret ? 'client_secret_post' : 'none',
      })),
      // The browser login (authorization code + PKCE): the provider's own login form, no consent step.
      loadExistingGrant: async (ctx: KoaContext) => this.grantFor(ctx),
      findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
      ttl: {
        AccessToken: () => this.accessTokenTtl,
        ClientCredentials: () => this.accessTokenTtl,
        IdToken: 3600,
        RefreshToken: 3600,
      },
      features: {
        devInteractions: { enabled: true },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => `urn:${this.options.audience}`,
          useGrantedResource: () => true,
          getResourceServerInfo: () => this.resourceServerInfo(),
        },
      },
      formats: {
        customizers: {
          jwt: async (_ctx: unknown, token: { fixtureClaims?: JWTPayload }, jwt: { payload: JWTPayload }) => {
            Object.assign(jwt.payload, token.fixtureClaims);
            if (this.jtiOverride === null) delete jwt.payload.jti;
            else if (this.jtiOverride !== undefined) jwt.payload.jti = this.jtiOverride;
          },
        },
      },
    });
    provider.proxy = false;

    const issueAccessToken = async (
      ctx: KoaContext,
      accountId: string,
      gty: string,
      extra: Record<string, unknown> = {},
    ) => {
      const token = new provider.AccessToken({
        accountId,
        client: ctx.oidc.client,
        scope: 'openid api',
        gty,
        grantId: crypto.randomUUID(),
      });
      token.resourceServer = this.resourceServer(provider);
      Object.assign(token, { fixtureClaims: extra });
      return token.save();
    };

    provider.registerGrantType(
      'password',
      async (ctx) => {
        this.counters.password++;
        const { username = '', password = '' } = ctx.oidc.params;
        const expected = Object.hasOwn(users, username) ? users[username] : undefined;
        if (expected === undefined || expected !== password) throw new errors.InvalidGrant('invalid user credentials');
        const accessToken = await issueAccessToken(ctx, username, 'password', { preferred_username: username });
        const idToken = new provider.IdToken({ sub: username }, { ctx });
        idToken.scope = 'openid';
        idToken.set('at_hash', accessToken);
        const refreshToken = new provider.RefreshToken({
          accountId: username,
          client: ctx.oidc.client,
          grantId: crypto.randomUUID(),
          gty: 'password',
          scope: 'openid',
        });
        ctx.body = {
          access_token: accessToken,
          token_type: 'Bearer',
          expires_in: this.accessTokenTtl,
          id_token: await idToken.issue({ use: 'idtoken' }),
          refresh_token: await refreshToken.save(),
          scope: 'openid api',
        };
      },
      ['username', 'password', 'scope'],
    );

    provider.registerGrantType(
      tokenExchangeGrant,
      async (ctx) => {
        this.counters.exchange++;
        const params = ctx.oidc.params;
        this.lastExchangeForm = {
          grant_type: tokenExchangeGrant,
          client_id: ctx.oidc.client.clientId,
          subject_token_type: params.subject_token_type,
          requested_token_type: params.requested_token_type,
          scope: params.scope,
        };
        if (params.subject_token_type !== 'urn:ietf:params:oauth:token-type:jwt')
          throw new errors.InvalidRequest('unsupported subject_token_type');
        if (!this.exchangeClients.has(ctx.oidc.client.clientId)) {
          ctx.status = 403;
          ctx.body = { error: 'access_denied', error_description: 'Client not allowed to exchange' };
          return;
        }
        const subject = await this.verifySubject(params.subject_token ?? '');
        if (!subject) throw new errors.InvalidGrant('invalid subject token');
        const accessToken = await issueAccessToken(ctx, String(subject.sub), 'token-exchange', {
          exchanged_from: subject.iss,
        });
        ctx.body = {
          access_token: accessToken,
          issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          token_type: 'Bearer',
          expires_in: this.accessTokenTtl,
        };
      },
      ['subject_token', 'subject_token_type', 'requested_token_type', 'scope', 'audience'],
    );

    return provider;
  }

  /** The provider-side check of a subject token: signed by a trusted issuer's key. */
  private async verifySubject(token: string): Promise<JWTPayload | undefined> {
    for (const trusted of this.exchangeTrust.values()) {
      try {
        const jwks = createRemoteJWKSet(new URL(`${trusted.issuer}/jwks`));
        return (await jwtVerify(token, jwks, { issuer: trusted.issuer })).payload;
      } catch {
        // Not this issuer's.
      }
    }
    return undefined;
  }

  /** Runs the password grant; returns the provider's whole answer. */
  async passwordGrant(
    clientId: string,
    clientSecret: string,
    username: string,
    password: string,
  ): Promise<{ status: number; body: Record<string, string> }> {
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: clientId,
        client_secret: clientSecret,
        username,
        password,
        scope: 'openid',
      }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }

  /** An access token for `username` issued by this provider through its password grant. */
  async accessToken(clientId: string, clientSecret: string, username: string): Promise<string> {
    const { status, body } = await this.passwordGrant(clientId, clientSecret, username, this.options.users[username]);
    if (status !== 200) throw new Error(`password grant failed: ${JSON.stringify(body)}`);
    return body.access_token;
  }

  /** A client-credentials token, from the provider's built-in grant. */
  async clientCredentialsToken(clientId: string, clientSecret: string): Promise<string> {
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: 'api',
      }),
    });
    const body = (await response.json()) as Record<string, string>;
    if (response.status !== 200) throw new Error(`client credentials failed: ${JSON.stringify(body)}`);
    return body.access_token;
  }

  /**
   * A token built by hand and signed with one of this provider's keys (the current signing key unless
   * `key` says otherwise): for the tokens an attacker or a broken provider would send.
   */
  async craft(
    payload: JWTPayload,
    options: { key?: SigningKey; header?: Record<string, unknown>; withoutExp?: boolean } = {},
  ): Promise<string> {
    const key = options.key ?? this.keys[0];
    const now = Math.floor(Date.now() / 1000);
    const claims: JWTPayload = {
      iss: this.issuer,
      aud: this.options.audience,
      sub: 'mallory',
      iat: now,
      exp: now + 300,
      jti: crypto.randomUUID(),
      ...payload,
    };
    if (options.withoutExp) delete claims.exp;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt', ...options.header })
      .sign(key.privateKey);
  }
}

/** Starts a provider. */
export async function startIdentityProvider(options: ProviderOptions): Promise<IdentityProviderFixture> {
  const fixture = new IdentityProviderFixture(options);
  await fixture.start();
  return fixture;
}

import crypto from 'node:crypto';
import { decodeJwt } from 'jose';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exchangeCacheKey } from './token-exchange.js';
import {
  externalClient,
  gatewayClient,
  platformEnv,
  startAuthServer,
  startExternalProvider,
  startProviders,
  type AuthServer,
  type WhoAmI,
} from './test-support/auth-server.js';
import type { IdentityProviderFixture } from './test-support/oidc-fixture.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keyPrefix = `aw-test-auth-${process.pid}-${crypto.randomBytes(4).toString('hex')}:`;

let platform: IdentityProviderFixture;
let external: IdentityProviderFixture;
let partner2: IdentityProviderFixture;
let server: AuthServer;
let redis: Redis;
const servers: AuthServer[] = [];

/** A server that exchanges tokens of `external` (and `partner2`), caching in Redis unless `env` says otherwise. */
async function exchangingServer(env: Record<string, string> = {}): Promise<AuthServer> {
  const started = await startAuthServer(
    platformEnv(platform, {
      OIDC_TOKEN_EXCHANGE_IDP_LIST: `${external.issuer}, ${partner2.issuer}`,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      IDP_TIMEOUT_MS: '500',
      ...env,
    }),
  );
  servers.push(started);
  return started;
}

beforeAll(async () => {
  ({ platform, external } = await startProviders());
  partner2 = await startExternalProvider('partner2');
  platform.exchangeTrust.set(partner2.issuer, partner2);
  redis = new Redis(redisUrl);
  server = await exchangingServer();
});

afterEach(() => {
  platform.misbehaviour = 'none';
  platform.accessTokenTtl = 300;
  external.accessTokenTtl = 300;
  external.jtiOverride = undefined;
  partner2.jtiOverride = undefined;
});

afterAll(async () => {
  for (const started of servers) await started.close();
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await Promise.all([platform?.stop(), external?.stop(), partner2?.stop()]);
});

const partnerToken = (user = 'bob', provider = external) =>
  provider.accessToken(externalClient.clientId, externalClient.clientSecret, user);

type Response = Awaited<ReturnType<AuthServer['app']['inject']>>;

function call(token: string, target: AuthServer = server): Promise<Response> {
  return target.app.inject({
    method: 'GET',
    url: '/api/v1/query/_whoami',
    headers: { authorization: `Bearer ${token}` },
  });
}

async function exchangesDuring(action: () => Promise<unknown>): Promise<number> {
  const before = platform.counters.exchange;
  await action();
  return platform.counters.exchange - before;
}

const sleepUntil = (epochMs: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, epochMs - Date.now()) + 50));

describe('token exchange with a trusted provider', () => {
  it(
    "exchanges a listed issuer's token with the service document's form and continues with the platform " + 'token',
    async () => {
      const token = await partnerToken();
      let response: Response | undefined;
      expect(await exchangesDuring(async () => (response = await call(token)))).toBe(1);
      expect(response!.statusCode).toBe(200);
      const body = response!.json<WhoAmI>();
      expect(body.auth).toMatchObject({
        sub: 'bob',
        iss: platform.issuer,
        aud: gatewayClient.clientId,
        exchanged_from: external.issuer,
      });
      expect(decodeJwt(body.upstreamToken!).iss).toBe(platform.issuer);
      expect(body.authorization).toBe(`Bearer ${body.upstreamToken}`);
      expect(platform.lastExchangeForm).toEqual({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        client_id: gatewayClient.clientId,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        scope: 'openid',
      });
    },
  );

  it(
    'hostile: cache hit: a second request with the same token makes no exchange, and Redis holds the entry ' +
      'until the expiry',
    async () => {
      const token = await partnerToken();
      expect(await exchangesDuring(() => call(token))).toBe(1);
      let second: Response | undefined;
      expect(await exchangesDuring(async () => (second = await call(token)))).toBe(0);
      expect(second!.statusCode).toBe(200);
      expect(second!.json<WhoAmI>().auth?.sub).toBe('bob');
      const { iss, jti, exp } = decodeJwt(token);
      const key = keyPrefix + exchangeCacheKey(iss!, jti, '');
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(exp! * 1000 - Date.now() + 1000);
      expect(await redis.get(key)).not.toContain(token);
    },
  );

  it('hostile: exchange disabled by "default" refuses external tokens', async () => {
    const disabled = await exchangingServer({ OIDC_TOKEN_EXCHANGE_IDP_LIST: `${external.issuer},default` });
    const token = await partnerToken();
    let response: Response | undefined;
    expect(await exchangesDuring(async () => (response = await call(token, disabled)))).toBe(0);
    expect(response!.statusCode).toBe(401);
    expect(response!.json<{ detail: string }>().detail).toMatch(/issuer is not trusted/);
  });

  it('hostile: a token of an issuer that is not listed is refused without an exchange', async () => {
    const listsOnlyPartner2 = await exchangingServer({ OIDC_TOKEN_EXCHANGE_IDP_LIST: partner2.issuer });
    const token = await partnerToken();
    expect(await exchangesDuring(async () => expect((await call(token, listsOnlyPartner2)).statusCode).toBe(401))).toBe(
      0,
    );
  });

  it('hostile: a locally invalid external token never reaches the identity provider', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await external.craft({ iat: now - 900, exp: now - 300 });
    const [header, payload] = (await partnerToken()).split('.');
    const forged = `${header}.${payload}.${crypto.randomBytes(256).toString('base64url')}`;
    const wrongKey = await platform.craft({ iss: external.issuer, aud: 'partner-api' });
    const tokenRequests = platform.counters.token;
    for (const [token, detail] of [
      [expired, /expired/],
      [forged, /signature/],
      [wrongKey, /no key/],
    ] as const) {
      const response = await call(token);
      expect(response.statusCode).toBe(401);
      expect(response.json<{ detail: string }>().detail).toMatch(detail);
    }
    expect(platform.counters.token).toBe(tokenRequests);
  });

  it('hostile: the identity provider refusing the subject token (400) is 401', async () => {
    platform.exchangeTrust.delete(external.issuer);
    try {
      const response = await call(await partnerToken());
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        detail: 'Invalid bearer token: the identity provider refused to exchange it',
        code: 'AUTH_INVALID_TOKEN',
      });
      expect(response.headers['www-authenticate']).toContain('Bearer realm="adaptive-gateway", error="invalid_token"');
    } finally {
      platform.exchangeTrust.set(external.issuer, external);
    }
  });

  it('hostile: the identity provider refusing the gateway client (401) is 502', async () => {
    const wrongSecret = await exchangingServer({ IDP_CLIENT_SECRET: 'not-the-secret' });
    const response = await call(await partnerToken(), wrongSecret);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      detail: "The identity provider could not be used: it refused the gateway's client",
      code: 'IDP_BAD_GATEWAY',
    });
  });

  it('hostile: the identity provider denying the exchange by policy (403) is 403', async () => {
    platform.exchangeClients.delete(gatewayClient.clientId);
    try {
      const response = await call(await partnerToken());
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        detail: 'The identity provider does not allow this token to be exchanged',
        code: 'AUTH_FORBIDDEN',
      });
    } finally {
      platform.exchangeClients.add(gatewayClient.clientId);
    }
  });

  it('hostile: the identity provider answering garbage is 502', async () => {
    const token = await partnerToken();
    platform.misbehaviour = 'garbage';
    const response = await call(token);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      detail: 'The identity provider could not be used: it answered with an unexpected body',
      code: 'IDP_BAD_GATEWAY',
    });
  });

  it('hostile: the identity provider failing (500) is 502', async () => {
    const token = await partnerToken();
    platform.misbehaviour = 'status-500';
    expect((await call(token)).statusCode).toBe(502);
  });

  it('hostile: the identity provider timing out is 504', async () => {
    const token = await partnerToken();
    platform.misbehaviour = 'hang';
    const response = await call(token);
    expect(response.statusCode).toBe(504);
    expect(response.json()).toEqual({
      detail: 'The identity provider did not answer within 500 ms',
      code: 'IDP_TIMEOUT',
    });
  });

  it('hostile: the identity provider being down is 502, and the next request works once it is back', async () => {
    const token = await partnerToken();
    await platform.stop();
    try {
      const response = await call(token);
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({
        detail: 'The identity provider could not be used: it cannot be reached',
        code: 'IDP_BAD_GATEWAY',
      });
    } finally {
      await platform.start();
    }
    expect((await call(token)).statusCode).toBe(200);
  });

  it("hostile: the cache entry ends at the platform token's expiry", async () => {
    platform.accessTokenTtl = 2;
    const token = await partnerToken();
    const first = await call(token);
    const platformExp = decodeJwt(first.json<WhoAmI>().upstreamToken!).exp!;
    expect(await exchangesDuring(() => call(token))).toBe(0);
    await sleepUntil(platformExp * 1000);
    let after: Response | undefined;
    expect(await exchangesDuring(async () => (after = await call(token)))).toBe(1);
    expect(after!.statusCode).toBe(200);
  });

  it("hostile: the cache entry ends at the external token's expiry when that comes first", async () => {
    external.accessTokenTtl = 2;
    const token = await partnerToken();
    expect(await exchangesDuring(() => call(token))).toBe(1);
    expect(await exchangesDuring(() => call(token))).toBe(0);
    await sleepUntil(decodeJwt(token).exp! * 1000);
    // Within the clock tolerance the gateway still accepts the token and asks again; the provider decides.
    expect(await exchangesDuring(() => call(token))).toBe(1);
  });

  it('hostile: equal jti from two issuers are two cache entries', async () => {
    external.jtiOverride = 'shared-jti';
    partner2.jtiOverride = 'shared-jti';
    const fromPartner = await partnerToken('bob', external);
    const fromPartner2 = await partnerToken('dave', partner2);
    expect(
      await exchangesDuring(async () => {
        expect((await call(fromPartner)).json<WhoAmI>().auth).toMatchObject({
          sub: 'bob',
          exchanged_from: external.issuer,
        });
        expect((await call(fromPartner2)).json<WhoAmI>().auth).toMatchObject({
          sub: 'dave',
          exchanged_from: partner2.issuer,
        });
      }),
    ).toBe(2);
    expect(
      await exchangesDuring(async () => {
        expect((await call(fromPartner)).json<WhoAmI>().auth?.sub).toBe('bob');
        expect((await call(fromPartner2)).json<WhoAmI>().auth?.sub).toBe('dave');
      }),
    ).toBe(0);
  });

  it("hostile: a jti reused by one issuer for another user never hands out the first user's token", async () => {
    external.jtiOverride = `reused-${crypto.randomUUID()}`;
    const bob = await partnerToken('bob');
    const dave = await partnerToken('dave');
    expect((await call(bob)).json<WhoAmI>().auth?.sub).toBe('bob');
    expect((await call(dave)).json<WhoAmI>().auth?.sub).toBe('dave');
  });

  it('hostile: a token without jti is cached under its hash', async () => {
    external.jtiOverride = null;
    const token = await partnerToken();
    expect(decodeJwt(token).jti).toBeUndefined();
    expect(await exchangesDuring(() => call(token))).toBe(1);
    expect(await exchangesDuring(() => call(token))).toBe(0);
    expect(
      await redis.exists(
        keyPrefix +
          exchangeCacheKey(external.issuer, undefined, crypto.createHash('sha256').update(token).digest('base64url')),
      ),
    ).toBe(1);
  });

  it('hostile: a forged Redis entry is verified again and not trusted', async () => {
    const token = await partnerToken();
    const { iss, jti, exp } = decodeJwt(token);
    const forgedPlatformToken = await external.craft({
      iss: platform.issuer,
      aud: gatewayClient.clientId,
      sub: 'admin',
    });
    const subjectHash = crypto.createHash('sha256').update(token).digest('base64url');
    await redis.set(
      keyPrefix + exchangeCacheKey(iss!, jti, subjectHash),
      JSON.stringify({ t: forgedPlatformToken, h: subjectHash, e: exp! * 1000 }),
      'PX',
      60_000,
    );
    let response: Response | undefined;
    expect(await exchangesDuring(async () => (response = await call(token)))).toBe(1);
    expect(response!.json<WhoAmI>().auth?.sub).toBe('bob');
  });

  it('hostile: caching disabled (ENABLE_REDIS_CACHING=false) exchanges on every request', async () => {
    const uncached = await exchangingServer({ ENABLE_REDIS_CACHING: 'false' });
    const token = await partnerToken();
    expect(
      await exchangesDuring(async () => {
        for (let i = 0; i < 3; i++) expect((await call(token, uncached)).statusCode).toBe(200);
      }),
    ).toBe(3);
  });

  it('hostile: Redis down means exchanging without the cache, not failing', async () => {
    const redisDown = await exchangingServer({ REDIS_URL: 'redis://127.0.0.1:1' });
    const token = await partnerToken();
    expect(
      await exchangesDuring(async () => {
        for (let i = 0; i < 2; i++) expect((await call(token, redisDown)).statusCode).toBe(200);
      }),
    ).toBe(2);
  });

  it('caches in memory without REDIS_URL', async () => {
    const inMemory = await exchangingServer({ REDIS_URL: '' });
    const token = await partnerToken();
    expect(
      await exchangesDuring(async () => {
        for (let i = 0; i < 3; i++) expect((await call(token, inMemory)).statusCode).toBe(200);
      }),
    ).toBe(1);
  });

  it('hostile: 50 concurrent first requests with one token make one exchange', async () => {
    const token = await partnerToken();
    let responses: Response[] = [];
    expect(
      await exchangesDuring(async () => (responses = await Promise.all(Array.from({ length: 50 }, () => call(token))))),
    ).toBe(1);
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    expect(new Set(responses.map((response) => response.json<WhoAmI>().upstreamToken)).size).toBe(1);
  });
});

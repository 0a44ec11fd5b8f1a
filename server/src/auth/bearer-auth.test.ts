import crypto from 'node:crypto';
import { base64url, decodeJwt, exportSPKI, importJWK, SignJWT, UnsecuredJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gatewayClient,
  platformEnv,
  rawRequest,
  startAuthServer,
  startProviders,
  type AuthServer,
  type WhoAmI,
} from './test-support/auth-server.js';
import type { IdentityProviderFixture } from './test-support/oidc-fixture.js';

let platform: IdentityProviderFixture;
let external: IdentityProviderFixture;
let server: AuthServer;
let port: number;

beforeAll(async () => {
  ({ platform, external } = await startProviders());
  server = await startAuthServer(platformEnv(platform, { OIDC_TOKEN_EXCHANGE_IDP_LIST: external.issuer }));
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await server?.close();
  await platform?.stop();
  await external?.stop();
});

function whoami(authorization?: string) {
  return server.app.inject({
    method: 'GET',
    url: '/api/adaptive/_whoami',
    headers: authorization === undefined ? {} : { authorization },
  });
}

/** Asserts a 401 whose body names no token and whose challenge offers both schemes. */
async function expectRefused(authorization: string, detail: RegExp) {
  const response = await whoami(authorization);
  expect(response.statusCode).toBe(401);
  const body = response.json<{ detail: string }>();
  expect(body.detail).toMatch(detail);
  expect(JSON.stringify(body)).not.toContain(authorization.slice(7, 40));
  expect(response.headers['www-authenticate']).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^Bearer realm="adaptive-gateway", error="invalid_(token|request)"$/),
    ]),
  );
  return response;
}

const userToken = () => platform.accessToken(gatewayClient.clientId, gatewayClient.clientSecret, 'carol');

describe('df_bearer_jwt with the platform issuer', () => {
  it('accepts an access token of the platform and exposes its claims and the token', async () => {
    const token = await userToken();
    const response = await whoami(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    const body = response.json<WhoAmI>();
    expect(body.auth).toMatchObject({ sub: 'carol', iss: platform.issuer, aud: gatewayClient.clientId });
    expect(body.upstreamToken).toBe(token);
  });

  it('accepts a client-credentials token and a lower-case scheme name', async () => {
    const token = await platform.clientCredentialsToken(gatewayClient.clientId, gatewayClient.clientSecret);
    const response = await whoami(`bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<WhoAmI>().auth?.sub).toBe(gatewayClient.clientId);
  });

  it('accepts ES256, another algorithm of the allow-list, with a key the issuer publishes', async () => {
    const token = await platform.craft({ sub: 'es-user' }, { key: platform.extraKeys[0] });
    expect((await whoami(`Bearer ${token}`)).statusCode).toBe(200);
  });

  it('covers routes registered after the hook, on both prefixes', async () => {
    for (const url of ['/api/adaptive/_whoami', '/api/v1/query/_whoami', '/api/adaptive/actuator/info']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('hostile: no credentials get 401 with a challenge for each scheme', async () => {
    const response = await whoami();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      detail: expect.stringContaining('Authentication is required'),
      code: 'AUTH_REQUIRED',
    });
    expect(response.headers['www-authenticate']).toEqual([
      'Basic realm="adaptive-gateway", charset="UTF-8"',
      'Bearer realm="adaptive-gateway"',
    ]);
  });

  it('hostile: alg "none" is refused', async () => {
    const token = new UnsecuredJWT({
      iss: platform.issuer,
      aud: gatewayClient.clientId,
      sub: 'mallory',
      exp: Math.floor(Date.now() / 1000) + 300,
    }).encode();
    await expectRefused(`Bearer ${token}`, /not a signed JWT|algorithm/);
  });

  it("hostile: HS256 signed with the issuer's RSA public key is refused", async () => {
    const publicPem = await exportSPKI((await importJWK(platform.keys[0].publicJwk, 'RS256')) as CryptoKey);
    const token = await new SignJWT({
      iss: platform.issuer,
      aud: gatewayClient.clientId,
      sub: 'mallory',
      exp: Math.floor(Date.now() / 1000) + 300,
    })
      .setProtectedHeader({ alg: 'HS256', kid: platform.keys[0].kid, typ: 'at+jwt' })
      .sign(new TextEncoder().encode(publicPem));
    await expectRefused(`Bearer ${token}`, /algorithm is not one of/);
  });

  it('hostile: an algorithm off the list (EdDSA) is refused even with a key the issuer publishes', async () => {
    const token = await platform.craft({}, { key: platform.extraKeys[1] });
    await expectRefused(`Bearer ${token}`, /algorithm is not one of/);
  });

  it(
    'hostile: an unknown kid is refused, and a flood of them refetches the JWKS at most once per ' + 'cooldown',
    async () => {
      await whoami(`Bearer ${await userToken()}`);
      const before = platform.counters.jwks;
      for (let i = 0; i < 10; i++) {
        const token = await platform.craft({}, { header: { kid: `unknown-${i}` } });
        await expectRefused(`Bearer ${token}`, /no key of the issuer matches/);
      }
      expect(platform.counters.jwks - before).toBeLessThanOrEqual(1);
    },
  );

  it('hostile: a tampered payload fails the signature', async () => {
    const [header, payload, signature] = (await userToken()).split('.');
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as Record<string, unknown>;
    const tampered = base64url.encode(JSON.stringify({ ...claims, sub: 'admin' }));
    await expectRefused(`Bearer ${header}.${tampered}.${signature}`, /signature does not verify/);
  });

  it('hostile: an expired token is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(`Bearer ${await platform.craft({ iat: now - 600, exp: now - 120 })}`, /expired/);
  });

  it('hostile: a token not valid yet (nbf) is refused', async () => {
    await expectRefused(
      `Bearer ${await platform.craft({ nbf: Math.floor(Date.now() / 1000) + 600 })}`,
      /not valid yet/,
    );
  });

  it('hostile: a token without exp is refused', async () => {
    await expectRefused(`Bearer ${await platform.craft({}, { withoutExp: true })}`, /no "exp" claim/);
  });

  it('hostile: a token of an untrusted issuer is refused', async () => {
    await expectRefused(
      `Bearer ${await platform.craft({ iss: 'https://idp.attacker.example/realms/platform' })}`,
      /issuer is not trusted/,
    );
  });

  it('hostile: the issuer with a trailing slash is another issuer', async () => {
    await expectRefused(`Bearer ${await platform.craft({ iss: `${platform.issuer}/` })}`, /issuer is not trusted/);
  });

  it("hostile: a platform token signed with the external issuer's key is refused", async () => {
    const token = await external.craft({ iss: platform.issuer, aud: gatewayClient.clientId });
    await expectRefused(`Bearer ${token}`, /no key of the issuer matches/);
  });

  it("hostile: an external token signed with the platform's key is refused before any exchange", async () => {
    const exchanges = platform.counters.exchange;
    const token = await platform.craft({ iss: external.issuer, aud: 'partner-api' });
    await expectRefused(`Bearer ${token}`, /no key of the issuer matches/);
    expect(platform.counters.exchange).toBe(exchanges);
  });

  it('hostile: a token without audience is refused', async () => {
    await expectRefused(`Bearer ${await platform.craft({ aud: undefined })}`, /no "aud" claim/);
  });

  it('hostile: a token for another audience is refused', async () => {
    await expectRefused(`Bearer ${await platform.craft({ aud: 'some-other-api' })}`, /audience/);
  });

  it('hostile: the ID token of a login is not accepted as a bearer token', async () => {
    const { body } = await platform.passwordGrant(
      gatewayClient.clientId,
      gatewayClient.clientSecret,
      'carol',
      'carol-password',
    );
    expect(decodeJwt(body.id_token).aud).toBe(gatewayClient.clientId);
    await expectRefused(`Bearer ${body.id_token}`, /not an access token/);
  });

  it('hostile: an ID token marked by type is refused', async () => {
    await expectRefused(
      `Bearer ${await platform.craft({ typ: 'ID' }, { header: { typ: 'JWT' } })}`,
      /not an access token/,
    );
    await expectRefused(
      `Bearer ${await platform.craft({ nonce: 'n-0S6_WzA2Mj' }, { header: { typ: 'JWT' } })}`,
      /not an access token/,
    );
  });

  it('hostile: refresh tokens are not accepted as bearer tokens', async () => {
    const { body } = await platform.passwordGrant(
      gatewayClient.clientId,
      gatewayClient.clientSecret,
      'carol',
      'carol-password',
    );
    await expectRefused(`Bearer ${body.refresh_token}`, /not a signed JWT/);
    // Keycloak issues refresh tokens as JWTs marked typ "Refresh".
    await expectRefused(
      `Bearer ${await platform.craft({ typ: 'Refresh' }, { header: { typ: 'JWT' } })}`,
      /not an access token/,
    );
  });

  it('hostile: a 100 KB token is refused without being decoded', async () => {
    const response = await whoami(`Bearer ${'a'.repeat(100 * 1024)}`);
    expect(response.statusCode).toBe(401);
    expect(response.json<{ detail: string }>().detail).toMatch(/longer than/);
    expect(response.body.length).toBeLessThan(300);
    // Through a socket, Node refuses the oversized header before the server sees it.
    const raw = await rawRequest(
      port,
      `GET /api/adaptive/_whoami HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${'a'.repeat(100 * 1024)}`,
    );
    expect(raw.status).toBe(431);
  });

  it('hostile: two Authorization headers are refused with 400', async () => {
    const token = await userToken();
    const raw = await rawRequest(
      port,
      `GET /api/adaptive/_whoami HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        `Authorization: Bearer ` +
        `${await platform.craft({ sub: 'admin' })}`,
    );
    expect(raw.status).toBe(400);
    expect(raw.body).toContain('only one Authorization header');
    expect(raw.body).not.toContain(token.slice(0, 30));
  });

  it('hostile: Basic and Bearer together are refused with 400', async () => {
    const basic = Buffer.from('carol:carol-password').toString('base64');
    const raw = await rawRequest(
      port,
      `GET /api/adaptive/_whoami HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic ${basic}\r\n` +
        `Authorization: Bearer ` +
        `${await userToken()}`,
    );
    expect(raw.status).toBe(400);
  });

  it('hostile: key rotation: a token signed with a new key is accepted once the JWKS is refetched', async () => {
    const own = await startProviders();
    const rotating = await startAuthServer(platformEnv(own.platform, { IDP_JWKS_COOLDOWN_MS: '0' }));
    const token = () => own.platform.accessToken(gatewayClient.clientId, gatewayClient.clientSecret, 'carol');
    try {
      const before = await token();
      expect(
        (await rotating.app.inject({ url: '/api/adaptive/_whoami', headers: { authorization: `Bearer ${before}` } }))
          .statusCode,
      ).toBe(200);
      await own.platform.rotateKeys();
      const after = await token();
      expect(decodeJwt(after).sub).toBe('carol');
      expect(after.split('.')[0]).not.toBe(before.split('.')[0]);
      for (const token of [after, before]) {
        expect(
          (await rotating.app.inject({ url: '/api/adaptive/_whoami', headers: { authorization: `Bearer ${token}` } }))
            .statusCode,
        ).toBe(200);
      }
    } finally {
      await rotating.close();
      await own.platform.stop();
      await own.external.stop();
    }
  });

  it('never answers with the token, whatever the failure', async () => {
    const part = () => crypto.randomBytes(40).toString('base64url');
    const secret = `eyJ${part()}.${part()}.sig`;
    const response = await whoami(`Bearer ${secret}`);
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain(secret.slice(0, 20));
  });
});

import path from 'node:path';
import bcrypt from 'bcryptjs';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbenchAuthInfo, WorkbenchSessionCheck } from '../contract/index.js';
import { loadConfig } from '../core/config.js';
import { buildServer } from '../main/app.js';
import { gatewayClient, platformEnv } from '../auth/test-support/auth-server.js';
import { startIdentityProvider, type IdentityProviderFixture } from '../auth/test-support/oidc-fixture.js';
import { makeWorkspace, removeWorkspace } from '../test-support/workspace.js';
import { providerName } from './auth-info.js';

const token = 'test-token-0123456789abcdefghij';
const workbenchHeaders = { 'x-workbench-token': token };
const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

interface Started {
  app: FastifyInstance;
  close(): Promise<void>;
}

/** A workbench server (buildServer with WORKBENCH=true) on a fresh workspace with a users file. */
async function startWorkbench(env: Record<string, string>): Promise<Started> {
  const workspace = makeWorkspace({
    'users.htpasswd': `ops:${bcrypt.hashSync('s3cret', 4)}\n`,
    'health.yaml': 'components: {}\n',
    'renderer/index.html': '<!doctype html><title>workbench</title>',
  });
  const config = loadConfig(
    { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', WORKBENCH: 'true', HEALTH_CONFIG: 'health.yaml', ...env },
    { workspace },
  );
  const app = await buildServer(config, {
    logger: pino({ level: 'silent' }),
    workbenchToken: token,
    rendererDir: path.join(workspace, 'renderer'),
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      removeWorkspace(workspace);
    },
  };
}

const workbenchClient = { clientId: 'adaptive-workbench', grantTypes: ['authorization_code'] };

describe('GET /api/workbench/auth', () => {
  let provider: IdentityProviderFixture;
  beforeAll(async () => {
    provider = await startIdentityProvider({
      realm: 'platform',
      audience: gatewayClient.clientId,
      users: { carol: 'carol-password' },
      clients: [
        { ...gatewayClient, grantTypes: ['password'] },
        { ...workbenchClient, redirectUris: ['http://127.0.0.1:9/workbench/'] },
      ],
    });
  });
  afterAll(async () => provider?.stop());

  it('says nothing is required when authentication is off, and has no session check', async () => {
    const server = await startWorkbench({ AUTH_ENABLED: 'false' });
    try {
      const info = await server.app.inject({ url: '/api/workbench/auth', headers: workbenchHeaders });
      expect(info.statusCode).toBe(200);
      expect(info.json<WorkbenchAuthInfo>()).toEqual({ required: false, schemes: [] });
      const session = await server.app.inject({
        url: '/api/workbench/auth/session',
        headers: { ...workbenchHeaders, authorization: basic('ops:s3cret') },
      });
      expect(session.statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('offers Basic, bearer and the provider login with the endpoints of its discovery', async () => {
    const server = await startWorkbench({
      AUTH_ENABLED: 'true',
      AUTH_USERS_FILE: 'users.htpasswd',
      IDP_WORKBENCH_CLIENT_ID: workbenchClient.clientId,
      ...platformEnv(provider),
    });
    try {
      const info = await server.app.inject({ url: '/api/workbench/auth', headers: workbenchHeaders });
      expect(info.statusCode).toBe(200);
      expect(info.headers['cache-control']).toBe('no-store');
      expect(info.json<WorkbenchAuthInfo>()).toEqual({
        required: true,
        schemes: ['basic', 'bearer', 'oidc'],
        browserLogin: {
          issuer: provider.issuer,
          name: 'platform',
          clientId: 'adaptive-workbench',
          authorizationEndpoint: `${provider.issuer}/auth`,
          tokenEndpoint: `${provider.issuer}/token`,
          scope: 'openid profile',
        },
      });
    } finally {
      await server.close();
    }
  });

  it("lets the page call the provider's origin (for its token endpoint) only with the provider login", async () => {
    const connectSrc = async (env: Record<string, string>) => {
      const server = await startWorkbench({ AUTH_ENABLED: 'true', AUTH_USERS_FILE: 'users.htpasswd', ...env });
      try {
        const page = await server.app.inject({ url: '/workbench/' });
        expect(page.statusCode).toBe(200);
        return /connect-src ([^;]*)/.exec(String(page.headers['content-security-policy']))?.[1];
      } finally {
        await server.close();
      }
    };
    const withLogin = { ...platformEnv(provider), IDP_WORKBENCH_CLIENT_ID: workbenchClient.clientId };
    expect(await connectSrc(withLogin)).toBe(`'self' ${provider.serverUrl}`);
    expect(await connectSrc(platformEnv(provider))).toBe("'self'");
    expect(await connectSrc({})).toBe("'self'");
  });

  it('offers only Basic with a users file and no provider, and needs the workbench token', async () => {
    const server = await startWorkbench({ AUTH_ENABLED: 'true', AUTH_USERS_FILE: 'users.htpasswd' });
    try {
      const info = await server.app.inject({ url: '/api/workbench/auth', headers: workbenchHeaders });
      expect(info.json<WorkbenchAuthInfo>()).toEqual({ required: true, schemes: ['basic'] });
      const withoutToken = await server.app.inject({ url: '/api/workbench/auth' });
      expect(withoutToken.statusCode).toBe(401);
      expect(withoutToken.json()).toMatchObject({ code: 'WB_TOKEN_MISSING' });
    } finally {
      await server.close();
    }
  });

  it('leaves the provider login out, and says why, when the provider cannot be reached', async () => {
    const server = await startWorkbench({
      AUTH_ENABLED: 'true',
      IDP_ISSUER: 'http://127.0.0.1:9/realms/gone',
      IDP_CLIENT_ID: gatewayClient.clientId,
      IDP_WORKBENCH_CLIENT_ID: workbenchClient.clientId,
      IDP_TIMEOUT_MS: '2000',
    });
    try {
      const info = await server.app.inject({ url: '/api/workbench/auth', headers: workbenchHeaders });
      expect(info.statusCode).toBe(200);
      const body = info.json<WorkbenchAuthInfo>();
      expect(body.schemes).toEqual(['bearer']);
      expect(body.browserLogin).toBeUndefined();
      expect(body.browserLoginError).toMatch(/identity provider could not be used: it cannot be reached/);
    } finally {
      await server.close();
    }
  });

  it('names the provider by its realm, else by its host', () => {
    expect(providerName('https://sso.example/realms/platform')).toBe('platform');
    expect(providerName('https://login.example.com/tenant-1/v2.0')).toBe('login.example.com');
  });
});

describe('GET /api/workbench/auth/session', () => {
  let provider: IdentityProviderFixture;
  let server: Started;
  beforeAll(async () => {
    provider = await startIdentityProvider({
      realm: 'platform',
      audience: gatewayClient.clientId,
      users: { carol: 'carol-password' },
      clients: [{ ...gatewayClient, grantTypes: ['password'] }],
    });
    server = await startWorkbench({
      AUTH_ENABLED: 'true',
      AUTH_USERS_FILE: 'users.htpasswd',
      ...platformEnv(provider),
    });
  });
  afterAll(async () => {
    await server?.close();
    await provider?.stop();
  });

  const check = (authorization?: string, headers: Record<string, string> = workbenchHeaders) =>
    server.app.inject({
      url: '/api/workbench/auth/session',
      headers: authorization === undefined ? headers : { ...headers, authorization },
    });

  it('names the Basic user whose password is right', async () => {
    const response = await check(basic('ops:s3cret'));
    expect(response.statusCode).toBe(200);
    expect(response.json<WorkbenchSessionCheck>()).toEqual({ scheme: 'basic', subject: 'ops' });
  });

  it('refuses a wrong password with the reason and no challenge (which would open the browser prompt)', async () => {
    const response = await check(basic('ops:wrong'));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Invalid username or password', code: 'AUTH_BAD_CREDENTIALS' });
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it("names the bearer token's user and its expiry", async () => {
    const accessToken = await provider.accessToken(gatewayClient.clientId, gatewayClient.clientSecret, 'carol');
    const response = await check(`Bearer ${accessToken}`);
    expect(response.statusCode).toBe(200);
    const body = response.json<WorkbenchSessionCheck>();
    expect(body).toMatchObject({ scheme: 'bearer', subject: 'carol' });
    expect(body.expiresAt).toBeGreaterThan(Date.now());
  });

  it('refuses a token of another issuer, a malformed header and none at all, each with its reason', async () => {
    const forged = await check('Bearer not-a-jwt');
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'AUTH_INVALID_TOKEN' });
    expect(forged.json<{ detail: string }>().detail).toMatch(/not a signed JWT/);
    const malformed = await check('Basic %%%');
    expect(malformed.json()).toMatchObject({ code: 'AUTH_MALFORMED' });
    const none = await check();
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'AUTH_REQUIRED' });
  });

  it('checks the workbench token before the credentials', async () => {
    const response = await check(basic('ops:s3cret'), { 'x-workbench-token': 'wrong' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'WB_TOKEN_WRONG' });
  });
});

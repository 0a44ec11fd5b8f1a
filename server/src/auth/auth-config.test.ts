import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../core/config-file.js';
import { ConfigError, loadConfig } from '../core/config.js';
import { parseUsersFile, usersFileExposure } from './users-file.js';
import { startAuthServer, type AuthServer } from './test-support/auth-server.js';

const hash = '$2y$04$6R0sXnhoOj1fZtj4DQ4vA.IaSs6Q4w3Jyf5bJHj8m/Hk6Xg0B0wzC';

describe('authentication settings', () => {
  it('builds the issuer from IDP_SERVER_URL and IDP_REALM, the audience from the client id', () => {
    const { auth } = loadConfig(
      { IDP_SERVER_URL: 'https://sso.example.com/auth/', IDP_REALM: 'platform', IDP_CLIENT_ID: 'gateway' },
      {},
    );
    expect(auth).toMatchObject({
      issuer: 'https://sso.example.com/auth/realms/platform',
      clientId: 'gateway',
      audience: 'gateway',
      exchangeIssuers: [],
      cacheExchangedTokens: true,
      idpTimeoutMs: 5000,
    });
    expect(loadConfig({ IDP_ISSUER: 'https://login.example.com/', IDP_AUDIENCE: 'api' }, {}).auth).toMatchObject({
      issuer: 'https://login.example.com/',
      audience: 'api',
    });
  });

  it('reads the exchange list; "default" anywhere disables exchange', () => {
    expect(
      loadConfig({ OIDC_TOKEN_EXCHANGE_IDP_LIST: ' https://a.example/realms/x , https://b.example ' }, {}).auth
        .exchangeIssuers,
    ).toEqual(['https://a.example/realms/x', 'https://b.example']);
    expect(loadConfig({ OIDC_TOKEN_EXCHANGE_IDP_LIST: 'https://a.example,default' }, {}).auth.exchangeIssuers).toEqual(
      [],
    );
    expect(loadConfig({ ENABLE_REDIS_CACHING: 'false', REDIS_URL: 'redis://127.0.0.1:6379/2' }, {}).auth).toMatchObject(
      { cacheExchangedTokens: false, redisUrl: 'redis://127.0.0.1:6379/2' },
    );
  });

  it.each([
    [{ AUTH_ENABLED: 'true' }, 'AUTH_ENABLED', /IDP_SERVER_URL and IDP_REALM.*AUTH_USERS_FILE/],
    [{ IDP_REALM: 'platform' }, 'IDP_SERVER_URL', /when IDP_REALM is set/],
    [{ IDP_SERVER_URL: 'https://sso.example.com' }, 'IDP_REALM', /when IDP_SERVER_URL is set/],
    [{ IDP_SERVER_URL: 'ftp://sso.example.com', IDP_REALM: 'x' }, 'IDP_SERVER_URL', /http\(s\) URL/],
    [{ IDP_SERVER_URL: 'https://sso.example.com', IDP_REALM: '../admin' }, 'IDP_REALM', /realm name/],
    [{ OIDC_TOKEN_EXCHANGE_IDP_LIST: 'not a url' }, 'OIDC_TOKEN_EXCHANGE_IDP_LIST', /http\(s\) URL/],
    [
      { AUTH_ENABLED: 'true', AUTH_USERS_FILE: 'u', OIDC_TOKEN_EXCHANGE_IDP_LIST: 'https://a.example' },
      'OIDC_TOKEN_EXCHANGE_IDP_LIST',
      /IDP_CLIENT_ID, IDP_CLIENT_SECRET/,
    ],
    [{ AUTH_ENABLED: 'true', IDP_ISSUER: 'https://login.example.com' }, 'IDP_AUDIENCE', /audience/],
    [{ REDIS_URL: 'http://user:pw@127.0.0.1' }, 'REDIS_URL', /redis:\/\//],
    [{ IDP_TIMEOUT_MS: '0' }, 'IDP_TIMEOUT_MS', /integer/],
  ])('refuses %o naming %s', (env, variable, message) => {
    let error: unknown;
    try {
      loadConfig(env, {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toMatch(message);
    expect((error as ConfigError).message).not.toContain('pw@');
  });
});

describe('the users file', () => {
  it('reads bcrypt entries, skips comments and blank lines', () => {
    expect([
      ...parseUsersFile(`# users\n\nops:${hash}\r\nalice:${hash.replace('$2y$', '$2b$')}\n`, 'users').keys(),
    ]).toEqual(['ops', 'alice']);
  });

  it.each([
    ['ops:$apr1$abc$defghijklmnopqrstuvwx', 1, /not a bcrypt hash/],
    ['ops:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=', 1, /not a bcrypt hash/],
    ['# c\nops:plaintext', 2, /not a bcrypt hash/],
    [`ops:${hash}\nops:${hash}`, 2, /appears twice/],
    ['just-a-name', 1, /user:bcrypt-hash/],
  ])('refuses %j at line %i without quoting the hash', (text, line, message) => {
    let error: unknown;
    try {
      parseUsersFile(text, '/etc/gateway/users');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as ConfigFileError).line).toBe(line);
    expect((error as ConfigFileError).message).toMatch(message);
    expect((error as ConfigFileError).message).not.toMatch(/apr1|W6ph5|plaintext/);
  });

  it('is named exposed while its group or others may read it, and not once it is chmod 600', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aw-users-')), 'users');
    fs.writeFileSync(file, `ops:${hash}\n`, { mode: 0o644 });
    expect(usersFileExposure(file)).toMatch(/readable beyond its owner \(mode 644\).*chmod 600/);
    fs.chmodSync(file, 0o640);
    expect(usersFileExposure(file)).toMatch(/mode 640/);
    fs.chmodSync(file, 0o600);
    expect(usersFileExposure(file)).toBeUndefined();
    fs.rmSync(path.dirname(file), { recursive: true });
  });

  it('makes the server refuse to start when the file is missing', async () => {
    await expect(startAuthServer({ AUTH_USERS_FILE: path.join(os.tmpdir(), 'no-such-users-file') })).rejects.toThrow(
      /AUTH_USERS_FILE cannot be read: ENOENT/,
    );
  });
});

describe('with AUTH_ENABLED=false', () => {
  let server: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer({ AUTH_ENABLED: 'false' });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('enforces nothing, leaves request.auth null and counts every caller as authenticated', async () => {
    const info = await server.app.inject({
      method: 'GET',
      url: '/api/adaptive/actuator/info',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ auth_enabled: false });
    const whoami = await server.app.inject({ method: 'GET', url: '/api/adaptive/_whoami' });
    expect(whoami.json()).toMatchObject({ auth: null, upstreamToken: null, authenticated: true });
    expect(server.app.authentication).toBeNull();
  });
});

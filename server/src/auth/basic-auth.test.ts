import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gatewayClient,
  platformEnv,
  startAuthServer,
  startProviders,
  type AuthServer,
  type WhoAmI,
} from './test-support/auth-server.js';
import type { IdentityProviderFixture } from './test-support/oidc-fixture.js';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

function writeUsersFile(lines: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-users-'));
  const file = path.join(dir, 'users.htpasswd');
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

describe('df_basic with AUTH_USERS_FILE', () => {
  let server: AuthServer;
  let usersFile: string;

  beforeAll(async () => {
    // htpasswd -B writes $2y$; bcryptjs writes $2b$: both are read.
    usersFile = writeUsersFile([
      '# local users',
      `ops:${bcrypt.hashSync('s3cret', 4).replace(/^\$2b\$/, '$2y$')}`,
      '',
      `alice:${bcrypt.hashSync('alice:has:colons', 4)}`,
      `jürgen:${bcrypt.hashSync('pässwört', 4)}`,
    ]);
    server = await startAuthServer({ AUTH_USERS_FILE: usersFile });
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(path.dirname(usersFile), { recursive: true, force: true });
  });

  const whoami = (authorization?: string) =>
    server.app.inject({
      method: 'GET',
      url: '/api/adaptive/_whoami',
      headers: authorization === undefined ? {} : { authorization },
    });

  async function expectMalformed(authorization: string, detail: RegExp) {
    const response = await whoami(authorization);
    expect(response.statusCode).toBe(401);
    expect(response.json<{ detail: string }>().detail).toMatch(detail);
    expect(response.headers['www-authenticate']).toEqual(['Basic realm="adaptive-gateway", charset="UTF-8"']);
  }

  it('accepts a user of the file (a $2y$ hash) and exposes a claim set without a token', async () => {
    const response = await whoami(basic('ops:s3cret'));
    expect(response.statusCode).toBe(200);
    expect(response.json<WhoAmI>()).toEqual({
      auth: { sub: 'ops', preferred_username: 'ops', auth_method: 'basic' },
      upstreamToken: null,
      authorization: basic('ops:s3cret'),
      authenticated: true,
    });
    expect((await whoami(basic('ops:s3cret'))).statusCode).toBe(200);
  });

  it('accepts UTF-8 user names and passwords', async () => {
    expect((await whoami(basic('jürgen:pässwört'))).statusCode).toBe(200);
  });

  it('offers only Basic when no identity provider is configured, and refuses Bearer tokens', async () => {
    const response = await whoami('Bearer eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIn0.c2ln');
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toEqual(['Basic realm="adaptive-gateway", charset="UTF-8"']);
  });

  it('hostile: a password with colons is split at the first colon only', async () => {
    expect((await whoami(basic('alice:has:colons'))).statusCode).toBe(401);
    expect((await whoami(basic('alice:alice:has:colons'))).statusCode).toBe(200);
  });

  it('hostile: an unknown user and a wrong password get the same answer', async () => {
    const unknown = await whoami(basic('nobody:s3cret'));
    const wrong = await whoami(basic('ops:wrong'));
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.headers['www-authenticate']).toEqual(wrong.headers['www-authenticate']);
    expect(unknown.json()).toEqual({ detail: 'Invalid username or password', code: 'AUTH_BAD_CREDENTIALS' });
  });

  it('hostile: missing Basic credentials', async () => {
    await expectMalformed('Basic', /empty/);
  });

  it('hostile: empty Basic credentials', async () => {
    await expectMalformed('Basic    ', /empty/);
    await expectMalformed(basic(':s3cret'), /empty user name/);
  });

  it('hostile: Basic credentials that are not base64', async () => {
    await expectMalformed('Basic %%%%', /not base64/);
    await expectMalformed('Basic b3Bz', /no colon/);
    await expectMalformed('Basic b3BzOnMzY3JldA', /not base64/);
    await expectMalformed('Basic b3Bz-nMzY3JldA==', /not base64/);
  });

  it('hostile: Basic credentials without a colon', async () => {
    await expectMalformed(basic('ops'), /no colon/);
  });

  it('hostile: Basic credentials that are not UTF-8 or hold control characters', async () => {
    await expectMalformed(`Basic ${Buffer.from([0x6f, 0x70, 0x73, 0x3a, 0xff, 0xfe]).toString('base64')}`, /not UTF-8/);
    await expectMalformed(basic('ops:s3cret\u0000admin'), /control characters/);
  });

  it('hostile: another scheme is refused', async () => {
    await expectMalformed('Digest username="ops"', /only the Basic and Bearer schemes/);
  });
});

describe('df_basic with the identity provider password grant', () => {
  let platform: IdentityProviderFixture;
  let external: IdentityProviderFixture;
  let server: AuthServer;

  beforeAll(async () => {
    ({ platform, external } = await startProviders());
    server = await startAuthServer(platformEnv(platform, { IDP_TIMEOUT_MS: '300' }));
  });

  afterAll(async () => {
    await server?.close();
    await platform?.stop();
    await external?.stop();
  });

  const whoami = (authorization: string) =>
    server.app.inject({ method: 'GET', url: '/api/v1/query/_whoami', headers: { authorization } });

  it('logs in at the identity provider and continues with its token', async () => {
    const response = await whoami(basic('carol:carol-password'));
    expect(response.statusCode).toBe(200);
    const body = response.json<WhoAmI>();
    expect(body.auth).toMatchObject({ sub: 'carol', iss: platform.issuer, aud: gatewayClient.clientId });
    expect(body.upstreamToken).toMatch(/^eyJ/);
  });

  it('remembers a successful login for a short time, never a failed one', async () => {
    const before = platform.counters.password;
    for (let i = 0; i < 3; i++) expect((await whoami(basic('alice:alice:has:colons'))).statusCode).toBe(200);
    expect(platform.counters.password - before).toBe(1);
    for (let i = 0; i < 2; i++) expect((await whoami(basic('alice:wrong'))).statusCode).toBe(401);
    expect(platform.counters.password - before).toBe(3);
  });

  it('hostile: an unknown user and a wrong password get the same answer from the identity provider path', async () => {
    const unknown = await whoami(basic('nobody:carol-password'));
    const wrong = await whoami(basic('carol:wrong'));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.headers['www-authenticate']).toEqual(wrong.headers['www-authenticate']);
  });

  it('hostile: the identity provider timing out is 504, being down is 502', async () => {
    platform.misbehaviour = 'hang';
    try {
      const slow = await whoami(basic('dave:x'));
      expect(slow.statusCode).toBe(504);
      expect(slow.json()).toEqual({
        detail: 'The identity provider did not answer within 300 ms',
        code: 'IDP_TIMEOUT',
      });
    } finally {
      platform.misbehaviour = 'none';
    }
    await platform.stop();
    try {
      const down = await whoami(basic('dave:y'));
      expect(down.statusCode).toBe(502);
      expect(down.json<{ detail: string }>().detail).toMatch(/cannot be reached/);
    } finally {
      await platform.start();
    }
  });
});

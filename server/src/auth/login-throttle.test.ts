import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';
import { startAuthServer, type AuthServer } from './test-support/auth-server.js';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

describe('LoginThrottle', () => {
  let now = 0;
  const throttle = () => new LoginThrottle({ burst: 3, perMinute: 6 }, () => now);

  it('allows a burst, then one attempt per refill interval, and says how long to wait', () => {
    const t = throttle();
    expect([0, 1, 2].map(() => t.take(['user:a']))).toEqual([0, 0, 0]);
    expect(t.take(['user:a'])).toBe(10);
    now += 5_000;
    expect(t.take(['user:a'])).toBe(5);
    now += 5_000;
    expect(t.take(['user:a'])).toBe(0);
    expect(t.take(['user:a'])).toBe(10);
  });

  it('refuses when any bucket is empty and takes from none of them then', () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) t.take(['user:a', 'address:1']);
    expect(t.take(['user:b', 'address:1'])).toBeGreaterThan(0);
    expect([0, 1, 2].map(() => t.take(['user:b', 'address:2']))).toEqual([0, 0, 0]);
  });

  it('gives a successful attempt back', () => {
    const t = throttle();
    for (let i = 0; i < 10; i++) {
      expect(t.take(['user:a'])).toBe(0);
      t.refund(['user:a']);
    }
  });
});

describe('Basic logins under a burst of wrong passwords', () => {
  let server: AuthServer;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-throttle-'));
    const file = path.join(dir, 'users.htpasswd');
    fs.writeFileSync(
      file,
      [
        `ops:${bcrypt.hashSync('s3cret', 10)}`,
        `dev:${bcrypt.hashSync('dev-pass', 10)}`,
        `slow:${bcrypt.hashSync('slow-pass', 12)}`,
      ].join('\n'),
    );
    server = await startAuthServer({ AUTH_USERS_FILE: file, AUTH_LOGIN_BURST: '5', AUTH_LOGIN_PER_MINUTE: '6' });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const whoami = (authorization: string, remoteAddress: string) =>
    server.app.inject({ method: 'GET', url: '/api/adaptive/_whoami', headers: { authorization }, remoteAddress });

  it(
    'checks at most the burst of 100 concurrent wrong passwords and refuses the rest with 429 and ' + 'Retry-After',
    async () => {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => whoami(basic(`ops:wrong-${i}`), '10.0.0.1')),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(95);
      const refused = answers.find((a) => a.statusCode === 429)!;
      expect(refused.json()).toEqual({
        detail: 'Too many failed logins for this user name or from 10.0.0.1; retry in 10 s',
        code: 'LOGIN_THROTTLED',
      });
      expect(refused.headers['retry-after']).toBe('10');
      // The right password of the throttled user waits too; another user from another address does not.
      expect((await whoami(basic('ops:s3cret'), '10.0.0.2')).statusCode).toBe(429);
      expect((await whoami(basic('dev:dev-pass'), '10.0.0.3')).statusCode).toBe(200);
      // Nor does anyone from the throttled address with a login already known to be good.
      expect((await whoami(basic('dev:dev-pass'), '10.0.0.1')).statusCode).toBe(200);
      expect((await whoami(basic('dev:other'), '10.0.0.1')).statusCode).toBe(429);
    },
  );

  it('compares bcrypt hashes off the event loop', async () => {
    const before = performance.eventLoopUtilization();
    const response = await whoami(basic('slow:wrong'), '10.0.0.9');
    const used = performance.eventLoopUtilization(before);
    expect(response.statusCode).toBe(401);
    // A cost-12 comparison is hundreds of milliseconds of CPU; on the event loop it would fill it.
    expect(used.utilization).toBeLessThan(0.5);
  });
});

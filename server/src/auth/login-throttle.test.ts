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
  // Pair buckets of 3 (6 a minute), address buckets of 6, user buckets of 30.
  const throttle = (maxBuckets?: number) => new LoginThrottle({ burst: 3, perMinute: 6 }, () => now, maxBuckets);

  it('allows a burst per user and address, then one attempt per refill interval, and says how long to wait', () => {
    const t = throttle();
    expect([0, 1, 2].map(() => t.take('a', '1'))).toEqual([0, 0, 0]);
    expect(t.take('a', '1')).toBe(10);
    now += 5_000;
    expect(t.take('a', '1')).toBe(5);
    now += 5_000;
    expect(t.take('a', '1')).toBe(0);
    expect(t.take('a', '1')).toBe(10);
  });

  it('keeps a user whose password one address guesses able to log in from another', () => {
    const t = throttle();
    for (let i = 0; i < 10; i++) t.take('a', '1');
    expect(t.take('a', '1')).toBeGreaterThan(0);
    expect(t.take('a', '2')).toBe(0);
  });

  it('bounds one address trying many users (password spraying) at twice the pair burst', () => {
    const t = throttle();
    expect(Array.from({ length: 6 }, (_, i) => t.take(`user-${i}`, '1'))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(t.take('user-7', '1')).toBeGreaterThan(0);
    expect(t.take('user-7', '2')).toBe(0);
  });

  it('bounds a user across all addresses at ten times the pair burst, except where the user logged in lately', () => {
    const t = throttle();
    expect(t.take('a', 'home')).toBe(0);
    t.refund('a', 'home');
    for (let address = 0; address < 10; address++) {
      expect([0, 1, 2].map(() => t.take('a', `attacker-${address}`))).toEqual([0, 0, 0]);
    }
    // Thirty failures from ten addresses: a new address waits, the user's known-good address does not.
    expect(t.take('a', 'attacker-11')).toBeGreaterThan(0);
    expect(t.take('b', 'attacker-11')).toBe(0);
    expect(t.take('a', 'home')).toBe(0);
  });

  it('takes from no bucket when it refuses', () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) t.take('a', '1');
    expect(t.take('a', '1')).toBeGreaterThan(0);
    // The refused attempts took nothing from the address: three more users from it still go on.
    expect([0, 1, 2].map((i) => t.take(`b${i}`, '1'))).toEqual([0, 0, 0]);
  });

  it('gives a successful attempt back', () => {
    const t = throttle();
    for (let i = 0; i < 10; i++) {
      expect(t.take('a', '1')).toBe(0);
      t.refund('a', '1');
    }
  });

  it('holds a bounded number of entries under a flood of random user names and addresses', () => {
    const t = throttle(1_000);
    for (let i = 0; i < 50_000; i++) t.take(`random-${i}`, `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
    // Three bucket scopes and the known-good addresses, at most 1,000 each.
    expect(t.size).toBeLessThanOrEqual(4_000);
    // From one address a flood stores no more than that address lets through.
    const single = throttle(1_000);
    for (let i = 0; i < 50_000; i++) single.take(`random-${i}`, '10.0.0.1');
    expect(single.size).toBeLessThanOrEqual(6 * 2 + 1);
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
        // A cheap hash: the global-bound test makes 50 wrong comparisons against it.
        `qa:${bcrypt.hashSync('qa-pass', 4)}`,
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

  it('checks at most the burst of 100 concurrent wrong passwords from one address and refuses the rest', async () => {
    const [answers, others] = await Promise.all([
      Promise.all(Array.from({ length: 100 }, (_, i) => whoami(basic(`ops:wrong-${i}`), '10.0.0.1'))),
      // Other users from other addresses, during the attack.
      Promise.all([whoami(basic('dev:dev-pass'), '10.0.0.3'), whoami(basic('dev:dev-pass'), '10.0.0.4')]),
    ]);
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(95);
    expect(others.map((a) => a.statusCode)).toEqual([200, 200]);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json()).toEqual({
      detail: 'Too many failed logins for this user name or from 10.0.0.1; retry in 10 s',
      code: 'LOGIN_THROTTLED',
    });
    expect(refused.headers['retry-after']).toBe('10');
    // The attacker's address stays throttled for that user, even with the right password.
    expect((await whoami(basic('ops:s3cret'), '10.0.0.1')).statusCode).toBe(429);
    // The user, from their own address, is not locked out.
    expect((await whoami(basic('ops:s3cret'), '10.0.0.2')).statusCode).toBe(200);
  });

  it('refuses a user everywhere once many addresses together exhaust its global bound', async () => {
    // Ten addresses, each within its own bound (5), exhaust the user's (50).
    for (let address = 0; address < 10; address++) {
      const statuses = await Promise.all(
        Array.from({ length: 5 }, (_, i) => whoami(basic(`qa:wrong-${i}`), `10.1.0.${address}`)),
      );
      expect(statuses.map((a) => a.statusCode)).toEqual([401, 401, 401, 401, 401]);
    }
    expect((await whoami(basic('qa:qa-pass'), '10.1.1.1')).statusCode).toBe(429);
    expect((await whoami(basic('dev:dev-pass'), '10.1.1.1')).statusCode).toBe(200);
  });

  it('compares bcrypt hashes off the event loop', async () => {
    const before = performance.eventLoopUtilization();
    const response = await whoami(basic('slow:wrong'), '10.0.0.9');
    const used = performance.eventLoopUtilization(before);
    expect(response.statusCode).toBe(401);
    // A cost-12 comparison is hundreds of milliseconds of CPU; on the event loop it would fill it.
    expect(used.utilization).toBeLessThan(0.5);
  });
});

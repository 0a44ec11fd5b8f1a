import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { authFailure, loginThrottled } from './auth-failure.js';
import { BcryptWorker } from './bcrypt-worker.js';
import { LoginThrottle } from './login-throttle.js';
import { type LoginThrottleSettings } from '../core/settings.js';
import type { Identity } from './identity.js';
import type { TokenEndpoint } from './token-endpoint.js';
import { TtlCache, type Clock } from './ttl-cache.js';
import { bcryptCost } from './users-file.js';

/** How long a successful Basic login is remembered (never beyond its platform token's expiry). */
export const loginCacheMs = 60_000;
const loginCacheEntries = 10_000;

/** Where Basic users are checked: a users file, or the platform identity provider's password grant. */
export type BasicUserSource =
  { kind: 'file'; users: Map<string, string> } | { kind: 'identity-provider'; tokenEndpoint: TokenEndpoint };

/**
 * `df_basic`: checks a user name and password. Successful logins are remembered for a short time under
 * an HMAC of the credentials with a per-process random key, so neither the password nor a plain hash of
 * it is ever kept. An unknown user and a wrong password get the same answer after the same work: an
 * unknown user is compared against a dummy hash of the file's usual cost. Logins not remembered are
 * throttled per user name and address, per address and per user name ({@link LoginThrottle}: 429 past the
 * limit), and the bcrypt comparison runs in a worker thread ({@link BcryptWorker}), off the event loop.
 */
export class BasicAuthenticator {
  private readonly cacheKey = crypto.randomBytes(32);
  private readonly logins: TtlCache<Identity>;
  private readonly dummyHash: string;
  private readonly throttle: LoginThrottle;
  private readonly bcrypt = new BcryptWorker();

  constructor(
    private readonly source: BasicUserSource,
    throttle: LoginThrottleSettings,
    private readonly now: Clock = Date.now,
  ) {
    this.logins = new TtlCache(loginCacheEntries, now);
    this.throttle = new LoginThrottle(throttle, now);
    const costs = source.kind === 'file' ? [...source.users.values()].map(bcryptCost) : [];
    const usualCost = costs.sort((a, b) => a - b)[Math.floor(costs.length / 2)] ?? 10;
    this.dummyHash = bcrypt.hashSync(crypto.randomBytes(16).toString('hex'), usualCost);
  }

  /**
   * The identity of `username`, or an {@link AuthFailure}: 401, 429 when `username` or `address` (the
   * client's) has failed too often lately, or 403/502/504 from the identity provider.
   */
  async authenticate(username: string, password: string, address: string): Promise<Identity> {
    const key = crypto
      .createHmac('sha256', this.cacheKey)
      .update(username)
      .update('\0')
      .update(password)
      .digest('base64url');
    const remembered = this.logins.get(key);
    if (remembered) return remembered;
    const waitS = this.throttle.take(username, address);
    if (waitS > 0) throw loginThrottled(address, waitS);
    const { identity, expiresAt } =
      this.source.kind === 'file'
        ? await this.checkFile(username, password)
        : await this.checkIdentityProvider(username, password);
    this.throttle.refund(username, address);
    this.logins.set(key, identity, Math.min(this.now() + loginCacheMs, expiresAt));
    return identity;
  }

  /** Stops the bcrypt worker. */
  close(): Promise<void> {
    return this.bcrypt.close();
  }

  private async checkFile(username: string, password: string): Promise<{ identity: Identity; expiresAt: number }> {
    const hash = this.source.kind === 'file' ? this.source.users.get(username) : undefined;
    // bcrypt's own comparison is constant-time; the dummy hash makes an unknown user cost the same.
    const matches = await this.bcrypt.compare(password, hash ?? this.dummyHash);
    if (!matches || hash === undefined) throw authFailure('AUTH_BAD_CREDENTIALS');
    return {
      identity: {
        claims: { sub: username, preferred_username: username, auth_method: 'basic' },
        upstreamToken: null,
        exchanged: false,
      },
      expiresAt: Number.POSITIVE_INFINITY,
    };
  }

  private async checkIdentityProvider(
    username: string,
    password: string,
  ): Promise<{ identity: Identity; expiresAt: number }> {
    if (this.source.kind !== 'identity-provider') throw new Error('no identity provider for Basic users');
    const issued = await this.source.tokenEndpoint.password(username, password);
    const claims = await this.source.tokenEndpoint.verifyIssued(issued.accessToken);
    return {
      identity: { claims, upstreamToken: issued.accessToken, exchanged: false },
      expiresAt: (claims.exp as number) * 1000,
    };
  }
}

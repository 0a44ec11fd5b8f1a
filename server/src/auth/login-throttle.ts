import type { LoginThrottleSettings } from '../core/settings.js';
import { TtlCache, type Clock } from './ttl-cache.js';

/** Buckets kept at most per scope; past that the oldest go first (a flood of names cannot grow the process). */
const defaultMaxBuckets = 100_000;

/**
 * How many times the settings' burst and rate each scope gets. One address guessing one user's password
 * meets the pair's bucket first; an address trying many users (password spraying) meets its own at twice
 * that; the user's global bucket is ten times the pair's, so it only empties when many addresses guess
 * together (a distributed attack), never from one attacker alone.
 */
const scopes = { pair: 1, address: 2, user: 10 } as const;
type Scope = keyof typeof scopes;

/** How long an address keeps counting as a known-good place for a user after a good login there. */
const knownGoodMs = 24 * 60 * 60_000;

interface Bucket {
  tokens: number;
  at: number;
}

/** One token bucket per key of one scope, forgotten once full again. */
class Buckets {
  private readonly entries: TtlCache<Bucket>;
  private readonly burst: number;
  private readonly msPerToken: number;

  constructor(settings: LoginThrottleSettings, factor: number, maxBuckets: number, now: Clock) {
    this.entries = new TtlCache(maxBuckets, now);
    this.burst = settings.burst * factor;
    this.msPerToken = 60_000 / (settings.perMinute * factor);
  }

  /** The tokens of `key` at `now`, refilled for the time since it was last used. */
  tokens(key: string, now: number): number {
    const stored = this.entries.get(key);
    if (!stored) return this.burst;
    return Math.min(this.burst, stored.tokens + (now - stored.at) / this.msPerToken);
  }

  /** Milliseconds until `key` has one token, 0 when it has one now. */
  waitMs(key: string, now: number): number {
    return Math.max(0, (1 - this.tokens(key, now)) * this.msPerToken);
  }

  /** Adds `delta` tokens to `key` (never past the burst). */
  add(key: string, delta: number, now: number): void {
    const tokens = Math.min(this.burst, this.tokens(key, now) + delta);
    // A bucket is forgotten once it would be full again: a full bucket and none are the same.
    this.entries.set(key, { tokens, at: now }, now + (this.burst - tokens) * this.msPerToken + 1);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Token buckets of failed Basic logins in three scopes: per user name and client address together, per
 * client address, and per user name across all addresses (with a bound ten times the pair's). A login
 * attempt not already known to be good takes a token from each before its password is checked and gives
 * them back when the password was right, so only failures count, and a burst of concurrent wrong attempts
 * is bounded like a sequence. An empty bucket refuses the attempt without checking the password.
 *
 * An attacker at one address empties the pair's bucket long before the user's, so the user still logs
 * in from elsewhere. Only many addresses together empty the user's bucket; even then an address where
 * the user logged in lately (a known-good address) is not held by it, only by its own buckets.
 */
export class LoginThrottle {
  private readonly buckets: Record<Scope, Buckets>;
  private readonly knownGood: TtlCache<true>;

  constructor(
    settings: LoginThrottleSettings,
    private readonly now: Clock = Date.now,
    maxBuckets = defaultMaxBuckets,
  ) {
    const scoped = (scope: Scope) => new Buckets(settings, scopes[scope], maxBuckets, now);
    this.buckets = { pair: scoped('pair'), address: scoped('address'), user: scoped('user') };
    this.knownGood = new TtlCache(maxBuckets, now);
  }

  /** The bucket keys an attempt of `username` from `address` takes from. */
  private keys(username: string, address: string): [Scope, string][] {
    const pair = JSON.stringify([username, address]);
    const keys: [Scope, string][] = [
      ['pair', pair],
      ['address', address],
    ];
    if (!this.knownGood.get(pair)) keys.push(['user', username]);
    return keys;
  }

  /**
   * Takes one attempt of `username` from `address`. Returns 0 when the attempt may go on, else the
   * seconds until it could (and takes nothing).
   */
  take(username: string, address: string): number {
    const now = this.now();
    const keys = this.keys(username, address);
    const waitMs = Math.max(...keys.map(([scope, key]) => this.buckets[scope].waitMs(key, now)));
    if (waitMs > 0) return Math.ceil(waitMs / 1000);
    for (const [scope, key] of keys) this.buckets[scope].add(key, -1, now);
    return 0;
  }

  /** Gives back the attempt {@link take} took (the credentials were good) and marks the address known-good. */
  refund(username: string, address: string): void {
    const now = this.now();
    // The user's bucket is refunded before the address turns known-good (after which it is not taken from).
    for (const [scope, key] of this.keys(username, address)) this.buckets[scope].add(key, 1, now);
    this.knownGood.set(JSON.stringify([username, address]), true, now + knownGoodMs);
  }

  /** Entries held, all scopes together (bounded whatever names and addresses arrive). */
  get size(): number {
    return Object.values(this.buckets).reduce((sum, b) => sum + b.size, 0) + this.knownGood.size;
  }
}

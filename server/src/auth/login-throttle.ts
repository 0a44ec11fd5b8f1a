import type { LoginThrottleSettings } from '../core/settings.js';
import { TtlCache, type Clock } from './ttl-cache.js';

/** Buckets kept at most; past that the oldest go first (a flood of names cannot grow the process). */
const maxBuckets = 100_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets of failed Basic logins, one per user name and one per client address. A login attempt
 * that is not already known to be good takes a token from both before its password is checked and
 * gives them back when the password was right, so only failures are counted, and a burst of
 * concurrent wrong attempts is bounded like a sequence of them. An empty bucket refuses the attempt
 * without checking the password (no bcrypt work at all).
 */
export class LoginThrottle {
  private readonly buckets: TtlCache<Bucket>;
  private readonly msPerToken: number;

  constructor(
    private readonly settings: LoginThrottleSettings,
    private readonly now: Clock = Date.now,
  ) {
    this.buckets = new TtlCache(maxBuckets, now);
    this.msPerToken = 60_000 / settings.perMinute;
  }

  /** The bucket of `key` as it is now, refilled for the time since it was last used. */
  private bucket(key: string): Bucket {
    const now = this.now();
    const stored = this.buckets.get(key);
    if (!stored) return { tokens: this.settings.burst, at: now };
    return { tokens: Math.min(this.settings.burst, stored.tokens + (now - stored.at) / this.msPerToken), at: now };
  }

  private store(key: string, bucket: Bucket): void {
    // A bucket is forgotten once it would be full again: a full bucket and none are the same.
    this.buckets.set(key, bucket, bucket.at + (this.settings.burst - bucket.tokens) * this.msPerToken + 1);
  }

  /**
   * Takes one attempt from every bucket of `keys`. Returns 0 when the attempt may go on, else the
   * seconds until it could (and takes nothing).
   */
  take(keys: readonly string[]): number {
    const buckets = keys.map((key) => this.bucket(key));
    const short = Math.max(...buckets.map((b) => 1 - b.tokens));
    if (short > 0) return Math.ceil((short * this.msPerToken) / 1000);
    keys.forEach((key, i) => this.store(key, { tokens: buckets[i].tokens - 1, at: buckets[i].at }));
    return 0;
  }

  /** Gives back the attempt {@link take} took: the credentials were good. */
  refund(keys: readonly string[]): void {
    for (const key of keys) {
      const bucket = this.bucket(key);
      this.store(key, { tokens: Math.min(this.settings.burst, bucket.tokens + 1), at: bucket.at });
    }
  }
}

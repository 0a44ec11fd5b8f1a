import { Redis } from 'ioredis';
import type { Logger } from '../core/logger.js';
import type { AuthClaims } from './identity.js';
import { TtlCache, type Clock } from './ttl-cache.js';

/** One cached exchange: the platform token, which subject token it was issued for, and until when it holds. */
export interface CachedExchange {
  platformToken: string;
  /** SHA-256 (base64url) of the exact subject token that was verified and exchanged. */
  subjectHash: string;
  /** Milliseconds since the epoch: the earlier of the subject and platform tokens' expiries. */
  expiresAt: number;
  /** The platform token's verified claims; only a store in this process keeps them. */
  claims?: AuthClaims;
}

/** Where exchanged tokens are cached. A failing store throws; the caller then exchanges without it. */
export interface ExchangeStore {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<CachedExchange | undefined>;
  set(key: string, entry: CachedExchange): Promise<void>;
  close(): Promise<void>;
}

const memoryEntries = 10_000;

/** The cache of one process: bounded, entries dropped at their expiry. */
export class MemoryExchangeStore implements ExchangeStore {
  readonly kind = 'memory';
  private readonly entries: TtlCache<CachedExchange>;

  constructor(now: Clock = Date.now) {
    this.entries = new TtlCache(memoryEntries, now);
  }

  async get(key: string): Promise<CachedExchange | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, entry: CachedExchange): Promise<void> {
    this.entries.set(key, entry, entry.expiresAt);
  }

  async close(): Promise<void> {}
}

/** How long a Redis command may take before the exchange goes on without the cache. */
const redisCommandTimeoutMs = 500;
const redisErrorLogIntervalMs = 30_000;

function isCachedExchange(value: unknown): value is { t: string; h: string; e: number } {
  const entry = value as { t?: unknown; h?: unknown; e?: unknown } | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.t === 'string' &&
    typeof entry.h === 'string' &&
    typeof entry.e === 'number'
  );
}

/**
 * The cache shared by every replica, in Redis. Entries expire in Redis at their `expiresAt` (PX). Claims
 * are not stored: a token read back from Redis is verified again, so whoever can write to Redis cannot
 * make the gateway accept a token the platform did not sign. The client never queues commands while
 * disconnected, so a Redis outage costs a failed command, not a wait.
 */
export class RedisExchangeStore implements ExchangeStore {
  readonly kind = 'redis';
  private readonly client: Redis;
  private lastErrorLoggedAt = 0;

  constructor(
    url: string,
    private readonly keyPrefix: string,
    log: Logger,
    private readonly now: Clock = Date.now,
  ) {
    this.client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      commandTimeout: redisCommandTimeoutMs,
      retryStrategy: (attempt) => Math.min(attempt * 500, 5000),
    });
    this.client.on('error', (error: Error) => {
      if (this.now() - this.lastErrorLoggedAt < redisErrorLogIntervalMs) return;
      this.lastErrorLoggedAt = this.now();
      log.warn({ reason: error.message }, 'token exchange cache: Redis unavailable, exchanging without cache');
    });
    this.client.connect().catch(() => undefined);
  }

  async get(key: string): Promise<CachedExchange | undefined> {
    const raw = await this.client.get(this.keyPrefix + key);
    if (raw === null) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (!isCachedExchange(value) || value.e <= this.now()) return undefined;
    return { platformToken: value.t, subjectHash: value.h, expiresAt: value.e };
  }

  async set(key: string, entry: CachedExchange): Promise<void> {
    const ttlMs = Math.floor(entry.expiresAt - this.now());
    if (ttlMs <= 0) return;
    await this.client.set(
      this.keyPrefix + key,
      JSON.stringify({ t: entry.platformToken, h: entry.subjectHash, e: entry.expiresAt }),
      'PX',
      ttlMs,
    );
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

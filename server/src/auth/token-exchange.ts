import crypto from 'node:crypto';
import type { Logger } from '../core/logger.js';
import type { CachedExchange, ExchangeStore } from './exchange-store.js';
import type { AuthClaims, Identity } from './identity.js';
import type { TokenEndpoint } from './token-endpoint.js';
import type { TrustedIssuer } from './trusted-issuer.js';
import type { Clock } from './ttl-cache.js';
import { authMetrics, observeExchange } from '../observability/metrics.js';

const storeErrorLogIntervalMs = 30_000;

function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('base64url');
}

/** True when two base64url digests are equal, compared in constant time. */
function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * The cache key of a subject token: its issuer and `jti` (DESIGN.md §5), or the hash of the whole token
 * when it has no `jti`. Issuer and `jti` are hashed together so that equal `jti`s of two issuers never meet.
 */
export function exchangeCacheKey(issuer: string, jti: unknown, subjectHash: string): string {
  return typeof jti === 'string' && jti !== ''
    ? `token-exchange:jti:${sha256(`${issuer}\n${jti}`)}`
    : `token-exchange:token:${subjectHash}`;
}

export interface TokenExchangerParts {
  /** The trusted external issuers, by their exact `iss`. */
  issuers: Map<string, TrustedIssuer>;
  platform: TrustedIssuer;
  tokenEndpoint: TokenEndpoint;
  /** Null when caching is off (`ENABLE_REDIS_CACHING=false`). */
  store: ExchangeStore | null;
  log: Logger;
  now?: Clock;
}

/**
 * Token exchange with trusted providers (service document part 5). A subject token is verified against
 * its own issuer's keys first (an invalid one never reaches the identity provider), exchanged at the
 * platform's token endpoint, and the platform token verified like any bearer token. Results are cached
 * until the earlier of the two expiries; a cached entry only serves the byte-identical token it was made
 * for, so a `jti` reused by a careless issuer cannot hand one user another's platform token. Concurrent
 * first requests for one token share one exchange. A failing cache store is logged and bypassed.
 */
export class TokenExchanger {
  private readonly inFlight = new Map<string, Promise<Identity>>();
  private readonly now: Clock;
  private lastStoreErrorAt = 0;

  constructor(private readonly parts: TokenExchangerParts) {
    this.now = parts.now ?? Date.now;
  }

  /** Whether tokens of `issuer` are exchanged. */
  trusts(issuer: string): boolean {
    return this.parts.issuers.has(issuer);
  }

  /** The platform identity for `token`, whose (not yet verified) `iss` is a trusted issuer. */
  async identify(token: string, issuer: string, jti: unknown): Promise<Identity> {
    const subjectHash = sha256(token);
    const key = exchangeCacheKey(issuer, jti, subjectHash);
    const cached = await this.cached(key, subjectHash);
    if (this.parts.store) authMetrics.exchangeCache.inc({ result: cached ? 'hit' : 'miss' });
    if (cached) return cached;
    let flight = this.inFlight.get(subjectHash);
    if (!flight) {
      const exchange = () => this.exchange(token, issuer, key, subjectHash);
      flight = observeExchange(exchange).finally(() => this.inFlight.delete(subjectHash));
      this.inFlight.set(subjectHash, flight);
    }
    return flight;
  }

  private async cached(key: string, subjectHash: string): Promise<Identity | undefined> {
    const { store, platform } = this.parts;
    if (!store) return undefined;
    let entry: CachedExchange | undefined;
    try {
      entry = await store.get(key);
    } catch (error) {
      this.storeFailed(error);
      return undefined;
    }
    if (!entry || entry.expiresAt <= this.now() || !sameDigest(entry.subjectHash, subjectHash)) return undefined;
    let claims = entry.claims;
    if (!claims) {
      // Read from a shared store: trusted only once the platform's signature verifies again.
      try {
        claims = (await platform.verify(entry.platformToken)) as AuthClaims;
      } catch {
        return undefined;
      }
    }
    return { claims, upstreamToken: entry.platformToken, exchanged: true };
  }

  private async exchange(token: string, issuer: string, key: string, subjectHash: string): Promise<Identity> {
    const { issuers, tokenEndpoint, store } = this.parts;
    const subject = await issuers.get(issuer)!.verify(token);
    const issued = await tokenEndpoint.exchange(token);
    const claims = (await tokenEndpoint.verifyIssued(issued.accessToken)) as AuthClaims;
    const expiries = [(subject.exp as number) * 1000, (claims.exp as number) * 1000];
    if (issued.expiresIn !== undefined) expiries.push(this.now() + issued.expiresIn * 1000);
    const entry: CachedExchange = {
      platformToken: issued.accessToken,
      subjectHash,
      expiresAt: Math.min(...expiries),
      claims,
    };
    if (store) {
      try {
        await store.set(key, entry);
      } catch (error) {
        this.storeFailed(error);
      }
    }
    return { claims, upstreamToken: issued.accessToken, exchanged: true };
  }

  private storeFailed(error: unknown): void {
    if (this.now() - this.lastStoreErrorAt < storeErrorLogIntervalMs) return;
    this.lastStoreErrorAt = this.now();
    this.parts.log.warn(
      { store: this.parts.store?.kind, reason: (error as Error).message },
      'token exchange cache unavailable: exchanging without it',
    );
  }
}

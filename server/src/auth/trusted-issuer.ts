import crypto from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { httpError, type HttpError } from '../core/errors.js';
import { notAnAccessToken } from './access-token-rule.js';
import { invalidToken } from './auth-failure.js';
import { callIdp, IdpUnavailable, unavailableError } from './idp-http.js';
import { isObject } from '../core/json.js';
import { TtlCache } from './ttl-cache.js';

/** Signature algorithms accepted: the RSA, RSA-PSS and ECDSA families. `none` and HMAC never are. */
export const allowedAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

/** Clock difference tolerated on `exp` and `nbf`, in seconds. */
export const clockToleranceSeconds = 30;

/** How long discovery metadata is reused, and how long a failed discovery is remembered before a retry. */
const metadataLifetimeMs = 60 * 60 * 1000;
const failedDiscoveryRetryMs = 1000;

/** Verified tokens remembered (by hash) so that a token's signature is checked once, not per request. */
const verifiedTokens = 10_000;
const verifiedTokenLifetimeMs = 5 * 60 * 1000;

/** The parts of an issuer's OpenID Provider Metadata the gateway uses. */
export interface IssuerMetadata {
  issuer: string;
  jwks_uri: string;
  token_endpoint?: string;
  /** For the workbench's browser login (authorization code + PKCE). */
  authorization_endpoint?: string;
}

export interface TrustedIssuerOptions {
  timeoutMs: number;
  /** Shortest time between two JWKS fetches caused by an unknown `kid`. */
  jwksCooldownMs: number;
  /** Audiences a token must carry (one of them); empty: not checked. */
  audiences: string[];
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Turns a jose failure into the answer: 401 for the token's own faults, 502/504 for the key source. */
function verificationFailure(error: unknown, timeoutMs: number): HttpError {
  if (error instanceof errors.JWTExpired) return invalidToken('the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing') return invalidToken(`the token has no "${error.claim}" claim`);
    if (error.claim === 'nbf') return invalidToken('the token is not valid yet');
    if (error.claim === 'iss') return invalidToken('the token comes from another issuer');
    if (error.claim === 'aud') return invalidToken('the token is not meant for this audience');
    return invalidToken(`the "${error.claim}" claim is invalid`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return invalidToken(`the signing algorithm is not one of ${allowedAlgorithms.join(', ')}`);
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalidToken('the signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return invalidToken('no key of the issuer matches the token');
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWKInvalid
  ) {
    return invalidToken('the token is malformed or uses an unsupported feature');
  }
  if (error instanceof errors.JWKSTimeout) return httpError('IDP_TIMEOUT', [timeoutMs]);
  // JWKS unreachable (fetch failed), not 200, not JSON, or not a key set.
  return httpError('IDP_BAD_GATEWAY', ['its key set (JWKS) cannot be fetched']);
}

/**
 * One OpenID provider the gateway trusts: its discovery metadata (fetched once, reused for an hour), its
 * key set (cached by jose; an unknown `kid` refetches it at most once per cooldown), and verification
 * of access tokens it issued. A verified token is remembered under its SHA-256 until its `exp` (at most
 * five minutes): only the byte-identical token skips the signature check, and never past its expiry.
 */
export class TrustedIssuer {
  private readonly verified = new TtlCache<JWTPayload>(verifiedTokens);
  private metadataPromise?: Promise<IssuerMetadata>;
  private metadataExpiresAt = 0;
  private keySet?: { uri: string; keys: ReturnType<typeof createRemoteJWKSet> };

  constructor(
    readonly issuer: string,
    private readonly options: TrustedIssuerOptions,
  ) {}

  /** The URL of the discovery document (OpenID Connect Discovery §4). */
  get discoveryUrl(): string {
    return `${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  }

  private async discover(): Promise<IssuerMetadata> {
    const answer = await callIdp(this.discoveryUrl, this.options.timeoutMs);
    const document = answer.json;
    if (answer.status !== 200 || !isObject(document))
      throw new IdpUnavailable('garbage', `discovery answered ${answer.status} without a JSON document`);
    // OIDC Discovery §4.3: the document must name exactly the issuer it was fetched for.
    if (document.issuer !== this.issuer)
      throw new IdpUnavailable('garbage', 'the discovery document names another issuer');
    if (!isHttpUrl(document.jwks_uri)) throw new IdpUnavailable('garbage', 'the discovery document has no jwks_uri');
    const tokenEndpoint = isHttpUrl(document.token_endpoint) ? document.token_endpoint : undefined;
    const authorizationEndpoint = isHttpUrl(document.authorization_endpoint)
      ? document.authorization_endpoint
      : undefined;
    return {
      issuer: this.issuer,
      jwks_uri: document.jwks_uri,
      token_endpoint: tokenEndpoint,
      authorization_endpoint: authorizationEndpoint,
    };
  }

  /**
   * The issuer's metadata. Concurrent callers share one discovery request; a failure is remembered for
   * a second so that an unreachable provider is not hammered. Throws {@link IdpUnavailable}.
   */
  metadata(): Promise<IssuerMetadata> {
    if (this.metadataPromise && Date.now() < this.metadataExpiresAt) return this.metadataPromise;
    const previous = this.metadataPromise;
    const attempt = this.discover().then(
      (metadata) => {
        this.metadataExpiresAt = Date.now() + metadataLifetimeMs;
        return metadata;
      },
      async (error: unknown) => {
        this.metadataExpiresAt = Date.now() + failedDiscoveryRetryMs;
        // A refresh that fails keeps the metadata that worked before.
        if (previous) return previous.catch(() => Promise.reject(error));
        throw error;
      },
    );
    this.metadataPromise = attempt;
    this.metadataExpiresAt = Number.POSITIVE_INFINITY;
    return attempt;
  }

  private keys(uri: string) {
    if (this.keySet?.uri !== uri) {
      this.keySet = {
        uri,
        keys: createRemoteJWKSet(new URL(uri), {
          timeoutDuration: this.options.timeoutMs,
          cooldownDuration: this.options.jwksCooldownMs,
        }),
      };
    }
    return this.keySet.keys;
  }

  /**
   * Verifies that `token` is an access token of this issuer: signature by a key of its JWKS with an
   * allowed algorithm, exact `iss`, `aud` (when configured), `exp` present and not past, `nbf` reached
   * (both with {@link clockToleranceSeconds}), and the access-token rule. Throws an HTTP error: 401 for
   * the token, 502/504 when the issuer's metadata or keys cannot be had.
   */
  async verify(token: string): Promise<JWTPayload> {
    const hash = crypto.createHash('sha256').update(token).digest('base64url');
    const remembered = this.verified.get(hash);
    if (remembered) return remembered;
    let metadata: IssuerMetadata;
    try {
      metadata = await this.metadata();
    } catch (error) {
      if (error instanceof IdpUnavailable) throw unavailableError(error, this.options.timeoutMs);
      throw error;
    }
    let verified;
    try {
      verified = await jwtVerify(token, this.keys(metadata.jwks_uri), {
        issuer: this.issuer,
        audience: this.options.audiences.length > 0 ? this.options.audiences : undefined,
        algorithms: allowedAlgorithms,
        clockTolerance: clockToleranceSeconds,
        requiredClaims: ['exp'],
      });
    } catch (error) {
      throw verificationFailure(error, this.options.timeoutMs);
    }
    const reason = notAnAccessToken(verified.protectedHeader, verified.payload);
    if (reason) throw invalidToken(`not an access token: ${reason}`);
    const payload = Object.freeze(verified.payload);
    this.verified.set(hash, payload, Math.min((payload.exp as number) * 1000, Date.now() + verifiedTokenLifetimeMs));
    return payload;
  }
}

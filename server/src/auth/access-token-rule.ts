import type { JWTHeaderParameters, JWTPayload } from 'jose';

/** Header `typ` values of an access token: RFC 9068, and the generic `JWT` that Keycloak and others use. */
const accessTokenHeaderTypes = new Set(['at+jwt', 'application/at+jwt', 'jwt']);
const explicitAccessTokenHeaderTypes = new Set(['at+jwt', 'application/at+jwt']);

/** Claims that only ID tokens carry (OIDC Core §2, §3.3.2.11). */
const idTokenClaims = ['nonce', 'at_hash', 'c_hash', 's_hash'] as const;

/**
 * Why a verified JWT is not an access token, or undefined when it is one. The rule:
 * 1. a header `typ`, when present, is `at+jwt` (RFC 9068) or `JWT`; `id_token+jwt`, `logout+jwt`,
 *    `dpop+jwt` and the like are refused;
 * 2. a `typ` claim, when present (Keycloak), is `Bearer`; `ID`, `Refresh`, `Offline` and `Logout` are refused;
 * 3. a token marked as neither (no `at+jwt` header, no `Bearer` claim) must not carry the ID token
 *    claims `nonce`, `at_hash`, `c_hash` or `s_hash`.
 * Refresh tokens of providers that issue them as JWTs are also refused earlier: they are signed with a
 * shared secret (HS*) that the algorithm allow-list excludes, and opaque ones are not JWTs at all.
 */
export function notAnAccessToken(header: JWTHeaderParameters, payload: JWTPayload): string | undefined {
  const headerType = typeof header.typ === 'string' ? header.typ.toLowerCase() : undefined;
  if (headerType !== undefined && !accessTokenHeaderTypes.has(headerType))
    return 'its header "typ" marks a token other than an access token';
  const claimType = payload.typ;
  if (claimType !== undefined && (typeof claimType !== 'string' || claimType.toLowerCase() !== 'bearer')) {
    return 'its "typ" claim marks a token other than an access token (ID, refresh, ...)';
  }
  const marked =
    (headerType !== undefined && explicitAccessTokenHeaderTypes.has(headerType)) || claimType !== undefined;
  if (!marked) {
    const found = idTokenClaims.find((claim) => payload[claim] !== undefined);
    if (found) return `it carries the ID token claim "${found}"`;
  }
  return undefined;
}

/** Verified claims of the caller: a JWT payload, or the claims given to a local Basic user. */
export type AuthClaims = Record<string, unknown> & { sub?: string };

/** Who a request comes from, once its credentials are verified. */
export interface Identity {
  claims: AuthClaims;
  /** The platform access token to send upstream; null for a local Basic user (no token exists). */
  upstreamToken: string | null;
  /** True when `upstreamToken` was obtained by token exchange and replaces the caller's token. */
  exchanged: boolean;
}

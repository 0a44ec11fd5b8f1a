import { HttpError, httpError, type FixedStatusCode } from '../core/errors.js';

/** The `error` attribute of a Bearer challenge (RFC 6750 §3.1). */
export type BearerError = 'invalid_request' | 'invalid_token';

/**
 * A refused request: a catalogued HTTP error, plus the Bearer `error` to put in the 401 challenge.
 * Details name what was wrong, never the credentials themselves.
 */
export class AuthFailure extends HttpError {
  constructor(
    error: HttpError,
    readonly bearerError?: BearerError,
    /** Seconds the client should wait before it tries again (`Retry-After`). */
    readonly retryAfterS?: number,
  ) {
    super(error.status, error.detail, error.code, error.extra);
    this.name = 'AuthFailure';
  }
}

/** Builds the catalogued failure `code` with `args`, marked with a Bearer challenge error when given. */
export function authFailure(
  code: FixedStatusCode,
  args: readonly unknown[] = [],
  bearerError?: BearerError,
): AuthFailure {
  return new AuthFailure(httpError(code, args), bearerError);
}

/** Too many failed logins lately for the user name or from `address`: 429 with `Retry-After`. */
export function loginThrottled(address: string, waitS: number): AuthFailure {
  return new AuthFailure(httpError('LOGIN_THROTTLED', [address, waitS]), undefined, waitS);
}

/** A token the gateway cannot accept: 401 with `error="invalid_token"`. */
export function invalidToken(reason: string): AuthFailure {
  return authFailure('AUTH_INVALID_TOKEN', [reason], 'invalid_token');
}

/** The schemes a 401 answer offers. */
export interface Challenges {
  basic: boolean;
  bearer: boolean;
  realm: string;
}

/** The `WWW-Authenticate` values of a 401 answer: one challenge per accepted scheme. */
export function challengeHeaders(challenges: Challenges, bearerError?: BearerError): string[] {
  const values: string[] = [];
  if (challenges.basic) values.push(`Basic realm="${challenges.realm}", charset="UTF-8"`);
  if (challenges.bearer)
    values.push(`Bearer realm="${challenges.realm}"${bearerError ? `, error="${bearerError}"` : ''}`);
  return values;
}

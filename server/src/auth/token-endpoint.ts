import type { JWTPayload } from 'jose';
import { HttpError, httpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { authFailure, invalidToken } from './auth-failure.js';
import { callIdp, IdpUnavailable, unavailableError } from './idp-http.js';
import { isObject } from '../core/json.js';
import type { TrustedIssuer } from './trusted-issuer.js';

/** The grant of RFC 8693 and the token types the service document's exchange call uses (part 5, item 9). */
export const tokenExchangeGrant = 'urn:ietf:params:oauth:grant-type:token-exchange';
const jwtTokenType = 'urn:ietf:params:oauth:token-type:jwt';
const accessTokenType = 'urn:ietf:params:oauth:token-type:access_token';

/** A successful token endpoint answer. */
export interface IssuedToken {
  accessToken: string;
  /** `expires_in` of the answer, in seconds, when given. */
  expiresIn?: number;
}

type Grant = 'password' | 'token-exchange';

/**
 * The platform identity provider's token endpoint, called with the gateway's own client
 * (`client_secret_post`, as in the service document's calls).
 */
export class TokenEndpoint {
  constructor(
    private readonly platform: TrustedIssuer,
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  /** Resource owner password grant (part 5, item 10): the token of a Basic user. */
  password(username: string, password: string): Promise<IssuedToken> {
    return this.call('password', { grant_type: 'password', username, password, scope: 'openid' });
  }

  /** Token exchange (RFC 8693, part 5 item 9): a platform token for a trusted provider's `subjectToken`. */
  exchange(subjectToken: string): Promise<IssuedToken> {
    return this.call('token-exchange', {
      grant_type: tokenExchangeGrant,
      subject_token: subjectToken,
      subject_token_type: jwtTokenType,
      requested_token_type: accessTokenType,
      scope: 'openid',
    });
  }

  /**
   * Verifies a token the provider just issued like any bearer token, before the gateway relies on it.
   * A token that does not pass is the provider's or its configuration's fault: 502, logged.
   */
  async verifyIssued(accessToken: string): Promise<JWTPayload> {
    try {
      return await this.platform.verify(accessToken);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 401) throw error;
      this.log.error(
        { issuer: this.platform.issuer, reason: error.detail },
        'identity provider issued a token the gateway does not accept (check IDP_AUDIENCE and the client scopes)',
      );
      throw httpError('IDP_BAD_GATEWAY', ['it issued a token the gateway does not accept']);
    }
  }

  private async call(grant: Grant, fields: Record<string, string>): Promise<IssuedToken> {
    let answer;
    try {
      const { token_endpoint: endpoint } = await this.platform.metadata();
      if (!endpoint) throw new IdpUnavailable('garbage', 'the discovery document has no token_endpoint');
      answer = await callIdp(endpoint, this.timeoutMs, {
        ...fields,
        client_id: this.clientId,
        client_secret: this.clientSecret,
      });
    } catch (error) {
      if (!(error instanceof IdpUnavailable)) throw error;
      this.log.warn({ grant, issuer: this.platform.issuer, reason: error.message }, 'identity provider unavailable');
      throw unavailableError(error, this.timeoutMs);
    }
    const body = isObject(answer.json) ? answer.json : undefined;
    if (answer.status === 200 && body && typeof body.access_token === 'string' && body.access_token !== '') {
      const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : undefined;
      return { accessToken: body.access_token, expiresIn };
    }
    throw this.refusal(grant, answer.status, body);
  }

  /**
   * Maps a refusal of the token endpoint (RFC 6749 §5.2) to the caller's answer. A refused user or
   * subject token is the caller's fault (401); a policy denial is 403; a refused gateway client or any
   * other answer is the gateway's problem (502), logged with the provider's own words.
   */
  private refusal(grant: Grant, status: number, body: Record<string, unknown> | undefined): HttpError {
    const error = typeof body?.error === 'string' ? body.error : undefined;
    const description = typeof body?.error_description === 'string' ? body.error_description.slice(0, 200) : undefined;
    const logged = { grant, issuer: this.platform.issuer, status, error, description };
    if (status === 403 || error === 'access_denied') {
      this.log.info(logged, 'identity provider denied the request by policy');
      return authFailure('AUTH_FORBIDDEN', [
        grant === 'password'
          ? 'The identity provider does not allow this user here'
          : 'The identity provider does not allow this token to be exchanged',
      ]);
    }
    if (
      (status === 400 || status === 401) &&
      error !== undefined &&
      error !== 'invalid_client' &&
      error !== 'unauthorized_client'
    ) {
      this.log.info(logged, 'identity provider refused the credentials');
      return grant === 'password'
        ? authFailure('AUTH_BAD_CREDENTIALS')
        : invalidToken('the identity provider refused to exchange it');
    }
    if (error === 'invalid_client' || error === 'unauthorized_client') {
      this.log.error(
        logged,
        'identity provider refused the gateway client (check IDP_CLIENT_ID / IDP_CLIENT_SECRET and the client ' +
          'settings)',
      );
      return httpError('IDP_BAD_GATEWAY', ["it refused the gateway's client"]);
    }
    this.log.warn(logged, 'identity provider gave an unexpected answer');
    return httpError('IDP_BAD_GATEWAY', [body ? `it answered ${status}` : 'it answered with an unexpected body']);
  }
}

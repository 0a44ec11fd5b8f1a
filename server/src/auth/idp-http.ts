import { httpError, type HttpError } from '../core/errors.js';

/** Largest answer read from an identity provider; anything longer counts as garbage. */
const maxAnswerBytes = 1024 * 1024;

/** An identity provider that could not be used: unreachable, too slow, or answering nonsense. */
export class IdpUnavailable extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'garbage',
    message: string,
  ) {
    super(message);
    this.name = 'IdpUnavailable';
  }
}

/** The answer of an identity provider: status and the parsed JSON body (undefined when not JSON). */
export interface IdpAnswer {
  status: number;
  json: unknown;
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxAnswerBytes) throw new IdpUnavailable('garbage', `the answer is larger than ${maxAnswerBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Calls an identity provider endpoint: a GET, or a POST of `form` as
 * `application/x-www-form-urlencoded`. Redirects are refused (a token endpoint never redirects, and a
 * redirect could carry the form elsewhere). Throws {@link IdpUnavailable} when the provider cannot be
 * reached or does not answer within `timeoutMs`.
 */
export async function callIdp(url: string, timeoutMs: number, form?: Record<string, string>): Promise<IdpAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers: form
        ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }
        : { accept: 'application/json' },
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'error',
      signal,
    });
    const text = await readBounded(response);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  } catch (error) {
    if (error instanceof IdpUnavailable) throw error;
    if (signal.aborted) throw new IdpUnavailable('timeout', `no answer from ${url} within ${timeoutMs} ms`);
    throw new IdpUnavailable(
      'unreachable',
      `${url} cannot be reached: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`,
    );
  }
}

/** The HTTP answer for an unusable identity provider: 504 for a timeout, 502 otherwise. */
export function unavailableError(error: IdpUnavailable, timeoutMs: number): HttpError {
  if (error.kind === 'timeout') return httpError('IDP_TIMEOUT', [timeoutMs]);
  return httpError('IDP_BAD_GATEWAY', [
    error.kind === 'garbage' ? 'it answered with an unexpected body' : 'it cannot be reached',
  ]);
}

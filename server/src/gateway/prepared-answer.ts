import type { AnswerMode } from './mock/answer-mode.js';
import { strongEtag } from './etag.js';

/** What a generated route sends: status, the response's example headers, content type and body. */
export interface Answer {
  /** The mode that made it, for the `x-adaptive-mode` header. */
  mode: AnswerMode;
  status: number;
  /** The spec's example headers, if the response has any. */
  headers?: Record<string, string>;
  contentType?: string;
  payload?: string;
}

/**
 * A plain route's answer to one Accept header, prepared once per route (so once per reload of its spec): the
 * body's text, sent without a serialiser, its length in bytes, and a strong ETag when a GET (or HEAD) answers 2xx
 * with a body, so that a client holding it is answered 304. The body stays text rather than bytes: Node writes the
 * head and a text body in one write, where a Buffer body takes a second (writev, about 6k instructions a request).
 */
export interface PreparedAnswer extends Answer {
  /** The body's length in bytes, with {@link Answer.payload}. */
  length?: number;
  etag?: string;
  /**
   * Set instead of {@link Answer.payload} on a dynamic answer: status, headers and content type are prepared, the
   * body is drawn by this on each request (so no length or ETag). It throws what generation throws.
   */
  draw?: () => string;
}

/** The content type sent for `contentType`: with the charset Fastify adds to a JSON type sent as text. */
export function sentContentType(contentType: string | undefined): string | undefined {
  return contentType && /json/i.test(contentType) && !/;\s*charset=/i.test(contentType)
    ? `${contentType}; charset=utf-8`
    : contentType;
}

/** The prepared form of `answer`; `conditional` when the route answers GET and HEAD (the only methods 304 is for). */
export function prepared(answer: Answer, conditional: boolean): PreparedAnswer {
  if (answer.payload === undefined) return answer;
  const body = Buffer.from(answer.payload);
  const success = answer.status >= 200 && answer.status < 300;
  const contentType = sentContentType(answer.contentType);
  return { ...answer, contentType, length: body.length, etag: conditional && success ? strongEtag(body) : undefined };
}

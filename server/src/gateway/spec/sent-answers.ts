import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '../etag.js';
import { modeHeader } from '../mock/answer-mode.js';
import type { Answer, PreparedAnswer } from '../prepared-answer.js';

/** Sends an answer. */
export function send(reply: FastifyReply, answer: Answer): void {
  reply.code(answer.status);
  reply.header(modeHeader, answer.mode);
  if (answer.headers) reply.headers(answer.headers);
  // reply.type() rather than a header map: a plain property store, not Fastify's loop over keys.
  if (answer.contentType) reply.type(answer.contentType);
  reply.send(answer.payload);
}

/**
 * Sends a prepared answer: 304 without a body when `If-None-Match` names its ETag (RFC 9110 §13.1.2; only the
 * ETag, as nothing else of a 304 is needed), else its body.
 */
export function sendPrepared(request: FastifyRequest, reply: FastifyReply, answer: PreparedAnswer): void {
  reply.header(modeHeader, answer.mode);
  if (answer.headers) reply.headers(answer.headers);
  if (answer.etag !== undefined) {
    reply.header('etag', answer.etag);
    if (etagMatches(request.headers['if-none-match'], answer.etag)) {
      reply.code(304);
      reply.send();
      return;
    }
  }
  reply.code(answer.status);
  if (answer.contentType) reply.type(answer.contentType);
  reply.send(answer.payload);
}

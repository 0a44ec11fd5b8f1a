import type { FastifyRequest } from 'fastify';
import { httpError } from '../../core/errors.js';
import type { Principal } from './job-runner.js';

/**
 * Who owns the async jobs a request submits, and so which jobs it may see: `<issuer>#<subject>` of
 * its verified claims (`local#<user>` for a Basic user of the users file). Null when authentication
 * is off: every caller is trusted and sees every job.
 */
export function principalOf(request: FastifyRequest): Principal {
  if (request.server.authentication === null) return null;
  const subject = request.auth?.sub;
  if (typeof subject !== 'string' || subject === '') {
    throw httpError('AUTH_FORBIDDEN', [
      'Async queries belong to the subject of their credentials, and these carry none (no "sub" claim)',
    ]);
  }
  const issuer = request.auth?.iss;
  return `${typeof issuer === 'string' ? issuer : 'local'}#${subject}`;
}

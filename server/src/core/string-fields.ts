import type { FastifyRequest } from 'fastify';
import { httpError } from './errors.js';

/**
 * A `preValidation` hook that refuses a JSON body whose `fields` are present but not strings (400
 * naming the field). It runs before schema validation, which would coerce `123` or `true` into the
 * string "123" or "true" and take it.
 */
export function stringFields(...fields: string[]): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const body = request.body;
    if (body === null || typeof body !== 'object') return;
    for (const field of fields) {
      const value = (body as Record<string, unknown>)[field];
      if (value !== undefined && typeof value !== 'string') throw httpError('NOT_A_STRING', [field]);
    }
  };
}

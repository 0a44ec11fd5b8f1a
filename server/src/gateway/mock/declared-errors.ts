import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { concreteMediaType, isJsonMediaType, negotiate, serialize } from '../content-negotiation.js';
import type { CompiledSpec, OperationSpec, ResponseSpec } from '../model/spec-types.js';
import { reportViolations, type ContractViolation, type ResponseValidator } from './contract.js';
import { errorValue, exampleShape, fittedErrorBody, type ErrorFacts } from './error-body.js';

/**
 * The declared response the mock answers an error of `status` with, and the status it sends; `undefined`
 * when the operation declares none. A refused request (400) takes the operation's 422, else its 400, else
 * `4XX` or `default` as 400 (the status the mock answered before it read the spec's errors); any other
 * status takes its own response, its class (`4XX`) or `default`.
 */
export function declaredErrorResponse(
  operation: OperationSpec,
  status: number,
): { status: number; response: ResponseSpec } | undefined {
  const keyed = (key: string) => operation.responses.find((r) => r.key === key);
  const candidates: Array<[string, number]> =
    status === 400
      ? [
          ['422', 422],
          ['400', 400],
          ['4XX', 400],
          ['DEFAULT', 400],
        ]
      : [
          [String(status), status],
          [`${String(status)[0]}XX`, status],
          ['DEFAULT', status],
        ];
  for (const [key, sent] of candidates) {
    const response = keyed(key);
    if (response) return { status: sent, response };
  }
  return undefined;
}

/**
 * Answers the mock's own errors (a refused request, a missing item, a conflict, a full store, missing
 * credentials) with the response the operation declares for them, so that the client meets the contract it is
 * written against. The body is the error's facts in the declared schema (else in the example's shape) where it
 * has room, over the response's example; Ajv checks it, and what it still breaks is reported in
 * `x-adaptive-violations`. A declared response without content keeps the mock's `{detail, code}` body under the
 * declared status.
 */
export class DeclaredErrors {
  constructor(
    private readonly spec: CompiledSpec,
    private readonly log: Logger,
    private readonly responses: () => ResponseValidator,
  ) {}

  /** Sends `error` as the operation's declared answer; rethrows it when it is not an HttpError or none is declared. */
  answer(operation: OperationSpec, error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    if (!(error instanceof HttpError)) throw error;
    const declared = declaredErrorResponse(operation, error.status);
    if (!declared) throw error;
    const { status, response } = declared;
    reply.code(status);
    if (Object.keys(response.headers).length > 0) reply.headers(response.headers);
    const offered = response.mediaTypes.map((m) => m.mediaType);
    if (offered.length === 0) {
      reply.type('application/json; charset=utf-8').send(JSON.stringify(error.body()));
      return;
    }
    // An error is answered even when Accept names none of the declared types: a 406 would hide it.
    const mediaType = negotiate(request.headers.accept, offered) ?? negotiate(undefined, offered)!;
    const media = response.mediaTypes.find((m) => m.mediaType === mediaType)!;
    const contentType = concreteMediaType(mediaType);
    const check = (body: unknown, isJson: boolean) =>
      this.responses().validate(operation, status, contentType, body, isJson);
    let payload: string;
    let violations: ContractViolation[];
    if (isJsonMediaType(mediaType)) {
      const facts = errorFacts(error, status, request);
      const schema = media.schemaPointer ? { $ref: media.schemaPointer } : exampleShape(media.example);
      const fill = schema && errorValue(this.spec.document, schema, facts);
      const fitted = fittedErrorBody(media.example ?? (fill === undefined ? error.body() : undefined), fill, (body) =>
        check(body, true),
      );
      payload = JSON.stringify(fitted.body);
      violations = fitted.violations;
    } else {
      payload = media.example !== undefined ? serialize(mediaType, media.example) : error.detail;
      violations = check(payload, false);
    }
    reportViolations(reply, this.log, { spec: this.spec.file, method: request.method, url: request.url }, violations);
    reply.type(contentType).send(payload);
  }
}

/** What the error says, for {@link errorValue}. */
function errorFacts(error: HttpError, status: number, request: FastifyRequest): ErrorFacts {
  const errors = error.extra.errors;
  return {
    status,
    code: error.code,
    detail: error.detail,
    path: request.url.split('?')[0],
    errors: Array.isArray(errors) ? (errors as ErrorFacts['errors']) : undefined,
  };
}

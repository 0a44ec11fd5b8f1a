import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { enforceContract, type ResponseContract } from '../mock/contract.js';
import type { RouteEntry } from '../route-table.js';
import { modeHeader } from '../mock/answer-mode.js';
import type { HandlerHost, HandlerPayload } from './handler-host.js';
import { handlerOperation } from './handler-operation.js';
import { RouteInputValidator, type HandlerAjv } from './input-validator.js';
import { requestAuth } from './request-auth.js';
import { currentTraceparent, inSpan } from '../../observability/tracing.js';

/** The content type of a handler's answers (and of its `HTTPException`s' bodies). */
const jsonType = 'application/json; charset=utf-8';

/**
 * The gateway route of route `index` of a handler module: validates the request here, against the
 * route's schema, then runs the route function in the module's process ({@link HandlerHost}) and sends
 * the JSON it answered with the schema's status. Errors arrive as the `HttpError` to answer with:
 * `HTTPException`s as thrown, anything else as `500 {detail: "Internal error", code: "INTERNAL"}` (logged by the host).
 * When the route overrides a spec route, the route table serves it {@link RouteEntry.checkedBy} the spec's contract.
 * Throws when a schema cannot be compiled for validation.
 */
export function handlerRoute(host: HandlerHost, index: number, ajv: HandlerAjv, file: string, log: Logger): RouteEntry {
  const definition = host.routes[index];
  const validator = new RouteInputValidator(definition.schema, ajv);
  const status = definition.schema.status ?? 200;

  const send = (reply: FastifyReply, payload: HandlerPayload): void => {
    reply.code(status);
    reply.header(modeHeader, 'handler');
    if (payload === undefined) reply.send();
    else reply.type(jsonType).send(payload);
  };

  const handle = (request: FastifyRequest, reply: FastifyReply, params: Record<string, string>): Promise<void> => {
    const input = inSpan('request validation', () => validator.read(request, params));
    // The process's span of the call is a child of this one (its traceparent crosses with the call).
    return inSpan(
      'handler call',
      () => host.call(index, input, requestAuth(request), request.id, currentTraceparent()),
      {
        'handler.file': file,
      },
    ).then((payload) => send(reply, payload));
  };

  const context = { log, handler: file, route: host.routeName(index) };
  // The handler's answers and its own HTTPExceptions are checked; the gateway's errors (a bad request, a crash, a
  // timeout) are not the handler's answers.
  const checkedBy = (contract: ResponseContract): RouteEntry['handle'] => {
    // The route answers with one status and type: its check is worked out once (and no body once).
    const checkJson = contract.checker(status, jsonType);
    const checkEmpty = contract.checker(status, undefined);
    return (request, reply, params) => {
      const input = validator.read(request, params);
      return host.call(index, input, requestAuth(request), request.id).then(
        (payload) => {
          const check = payload === undefined ? checkEmpty : checkJson;
          const violations = check(() => reply.getHeaders(), payload);
          const refusal = enforceContract(contract, violations, request, reply, context);
          if (refusal) throw refusal;
          send(reply, payload);
        },
        (error: unknown) => {
          if (!(error instanceof HttpError) || error.code !== 'HANDLER_HTTP_EXCEPTION') throw error;
          const body = JSON.stringify(error.body());
          const violations = contract.check(error.status, reply.getHeaders(), jsonType, body);
          throw enforceContract(contract, violations, request, reply, context) ?? error;
        },
      );
    };
  };

  return {
    method: definition.method,
    path: host.routeFields(index).path,
    source: 'handler',
    file,
    operation: handlerOperation(definition),
    handle,
    checkedBy,
  };
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteEntry } from '../route-table.js';
import { modeHeader } from '../mock/answer-mode.js';
import type { HandlerHost, HandlerPayload } from './handler-host.js';
import { handlerOperation } from './handler-operation.js';
import { RouteInputValidator, type HandlerAjv } from './input-validator.js';
import { requestAuth } from './request-auth.js';
import { currentTraceparent, inSpan } from '../../observability/tracing.js';

/**
 * The gateway route of route `index` of a handler module: validates the request here, against the
 * route's schema, then runs the route function in the module's process ({@link HandlerHost}) and sends
 * the JSON it answered with the schema's status. Errors arrive as the `HttpError` to answer with:
 * `HTTPException`s as thrown, anything else as `500 {detail: "Internal error", code: "INTERNAL"}` (logged by the host).
 * Throws when a schema cannot be compiled for validation.
 */
export function handlerRoute(host: HandlerHost, index: number, ajv: HandlerAjv, file: string): RouteEntry {
  const definition = host.routes[index];
  const validator = new RouteInputValidator(definition.schema, ajv);
  const status = definition.schema.status ?? 200;

  const send = (reply: FastifyReply, payload: HandlerPayload): void => {
    reply.code(status);
    reply.header(modeHeader, 'handler');
    if (payload === undefined) reply.send();
    else reply.type('application/json; charset=utf-8').send(payload);
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

  return {
    method: definition.method,
    path: host.routeFields(index).path,
    source: 'handler',
    file,
    operation: handlerOperation(definition),
    handle,
  };
}

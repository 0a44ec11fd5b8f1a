import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, httpError } from '../../errors.js';
import type { RouteDefinition } from '../../handler-sdk/router.js';
import type { Logger } from '../../logger.js';
import type { RouteEntry } from '../route-table.js';
import type { BundleSourceMap } from './bundle-source-map.js';
import { handlerOperation } from './handler-operation.js';
import { RouteInputValidator, type HandlerAjv } from './input-validator.js';
import { requestAuth } from './request-auth.js';
import { RouteContext } from './route-context.js';
import { isThenable, settleWithin } from './timeout.js';

/** What the routes of one loaded handler share. */
export interface HandlerRouteContext {
  /** The handler file name. */
  file: string;
  mount: string;
  /** How long a route function may take before the request is answered 504. */
  timeoutMs: number;
  ajv: HandlerAjv;
  /** Maps stacks of errors thrown by the handler back to its source files. */
  sourceMap: BundleSourceMap;
  log: Logger;
}

/**
 * The gateway route of one handler route: validates the request against the route's schema, runs the
 * route function (bounding a promise it returns by the timeout), and sends its result as JSON with the
 * schema's status.
 * `HTTPException` (any {@link HttpError}) answers with its status and `{detail}`; any other throw is
 * logged with its stack mapped to the handler's source and answered `500 {detail: "Internal error"}`.
 */
export function handlerRoute(definition: RouteDefinition, context: HandlerRouteContext): RouteEntry {
  const validator = new RouteInputValidator(definition.schema, context.ajv);
  const status = definition.schema.status ?? 200;
  const path = `/${context.mount}${definition.path === '/' ? '' : definition.path}`;

  const fail = (request: FastifyRequest, error: unknown): HttpError => {
    if (error instanceof HttpError) {
      if (error.code === 'HANDLER_TIMEOUT') context.log.warn({ handler: context.file, method: definition.method, path }, error.detail);
      return error;
    }
    const err = error instanceof Error ? error : new Error(`non-error thrown: ${String(error)}`);
    if (err.stack) err.stack = context.sourceMap.mapStack(err.stack);
    context.log.error({ err, handler: context.file, method: definition.method, path, url: request.url }, 'handler failed');
    return httpError('INTERNAL');
  };

  /** Sends the route function's result as JSON with the schema's status. */
  const send = (request: FastifyRequest, reply: FastifyReply, result: unknown): void => {
    let payload: string | undefined;
    try {
      payload = result === undefined ? undefined : JSON.stringify(result);
    } catch (error) {
      throw fail(request, error);
    }
    reply.code(status);
    if (payload === undefined) reply.send();
    else reply.type('application/json; charset=utf-8').send(payload);
  };

  // Synchronous results are sent at once; only a pending promise gets a timer, since nothing could
  // interrupt a synchronous function anyway.
  const handle = (request: FastifyRequest, reply: FastifyReply, params: Record<string, string>): void | Promise<void> => {
    const input = validator.read(request, params);
    const ctx = new RouteContext(input, requestAuth(request));
    let result: unknown;
    try {
      result = definition.handler(ctx);
    } catch (error) {
      throw fail(request, error);
    }
    if (!isThenable(result)) return send(request, reply, result);
    let timeout: HttpError | undefined;
    const timeoutError = () => (timeout = httpError('HANDLER_TIMEOUT', [context.timeoutMs]));
    return settleWithin(result, context.timeoutMs, timeoutError).then(
      (value) => send(request, reply, value),
      (error: unknown) => {
        if (timeout !== undefined && error === timeout) ctx.abort(timeout);
        throw fail(request, error);
      },
    );
  };

  return { method: definition.method, path, source: 'handler', file: context.file, operation: handlerOperation(definition), handle };
}

import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { enforceContract, type ContractViolation, type ResponseContract } from '../mock/contract.js';
import type { DirectCall, RouteEntry } from '../route-table.js';
import { handedOverCall } from './direct-handler-calls.js';
import { handlerJsonType } from './handler-protocol.js';
import { modeHeader } from '../mock/answer-mode.js';
import type { HandlerHost, HandlerPayload } from './handler-host.js';
import { handlerOperation } from './handler-operation.js';
import { RouteInputValidator, type HandlerAjv, type RequestParts, type RouteInput } from './input-validator.js';
import { requestAuth } from './request-auth.js';
import { currentTraceparent, inSpan } from '../../observability/tracing.js';

/** A plain GET's parts as the validator reads them, before Fastify sees it: no query string, no body. */
const plainGet = (request: IncomingMessage): RequestParts => ({
  query: {},
  headers: request.headers,
  body: undefined,
  url: request.url!,
});

/** The contract's violations of an answer of the route. */
type AnswerCheck = (headers: () => Record<string, unknown>, payload: HandlerPayload) => ContractViolation[];

/**
 * The checks of a route's answers, which have one status and type (JSON, or no body): worked out once per contract
 * (and no body once), for Fastify's path and the direct one alike.
 */
function answerChecks(status: number): (contract: ResponseContract) => AnswerCheck {
  const checks = new WeakMap<ResponseContract, AnswerCheck>();
  return (contract) => {
    let check = checks.get(contract);
    if (check === undefined) {
      const checkJson = contract.checker(status, handlerJsonType);
      const checkEmpty = contract.checker(status, undefined);
      check = (headers, payload) => (payload === undefined ? checkEmpty : checkJson)(headers, payload);
      checks.set(contract, check);
    }
    return check;
  };
}

/** A route's {@link DirectCall}: `call` runs it on valid input; its answers are held to `check` when given. */
function directCall(
  status: number,
  validator: RouteInputValidator,
  call: (input: RouteInput) => Promise<HandlerPayload>,
  answerCheck: (contract: ResponseContract) => AnswerCheck,
  check?: AnswerCheck,
): DirectCall {
  return {
    status,
    call: (request, params) => {
      let input: RouteInput;
      try {
        input = validator.read(plainGet(request), params);
      } catch {
        // Fastify's path validates again and answers the error.
        return undefined;
      }
      return call(input);
    },
    keeps: check ? (payload, headers) => check(headers, payload).length === 0 : () => true,
    checkedBy: (contract) => directCall(status, validator, call, answerCheck, answerCheck(contract)),
  };
}

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
    else reply.type(handlerJsonType).send(payload);
  };

  const handle = (request: FastifyRequest, reply: FastifyReply, params: Record<string, string>): Promise<void> => {
    // Called before Fastify already (direct-handler-calls.ts), which left this answer to it.
    const handedOver = handedOverCall(request.raw);
    if (handedOver) return handedOver.then((payload) => send(reply, payload));
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
  const answerCheck = answerChecks(status);
  const checkedBy = (contract: ResponseContract): RouteEntry['handle'] => {
    const check = answerCheck(contract);
    return (request, reply, params) => {
      const called =
        handedOverCall(request.raw) ??
        host.call(index, validator.read(request, params), requestAuth(request), request.id);
      return called.then(
        (payload) => {
          const violations = check(() => reply.getHeaders(), payload);
          const refusal = enforceContract(contract, violations, request, reply, context);
          if (refusal) throw refusal;
          send(reply, payload);
        },
        (error: unknown) => {
          if (!(error instanceof HttpError) || error.code !== 'HANDLER_HTTP_EXCEPTION') throw error;
          const body = JSON.stringify(error.body());
          const violations = contract.check(error.status, reply.getHeaders(), handlerJsonType, body);
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
    // Before Fastify there is no authentication (the direct path is off with it) and no request id yet.
    direct:
      definition.method === 'GET'
        ? directCall(status, validator, (input) => host.call(index, input, null), answerCheck)
        : undefined,
  };
}

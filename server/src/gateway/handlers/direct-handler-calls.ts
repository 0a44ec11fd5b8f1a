/**
 * Calls handler routes before Fastify sees the request, as direct-answers.ts answers prepared mock routes: a GET
 * without body or query string, under the same conditions (no authentication, access log, tracing or workbench
 * capture; an allowed Host; no Origin). The call itself is the one Fastify's path makes (the same validation, the
 * host's deadline, restart wait, size bounds and contract check); only a plain answer, the route's status with the
 * JSON it answered and no violation, is written here. Anything else (an error, an answer that breaks the contract)
 * is handed to Fastify with the call's outcome, and its path answers it as it would have, without calling again:
 * the error bodies, `x-adaptive-violations` and the strict refusal are made in one place only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHistogram } from '../../observability/request-histogram.js';
import { modeHeader } from '../mock/answer-mode.js';
import type { DirectCall } from '../route-table.js';
import { handlerJsonType } from './handler-protocol.js';

/** A call's outcome as Fastify's path takes it over: what the route answered, or the error it failed with. */
type Outcome = Promise<string | undefined>;

/** Where a call made before Fastify leaves its outcome, on Node's request, for Fastify's path. */
const handedOver = Symbol('handedOver');
type CalledMessage = IncomingMessage & { [handedOver]?: Outcome };

/**
 * The outcome of the call made for `request` before Fastify, when one was made: Fastify's path answers from it rather
 * than call the route a second time.
 */
export function handedOverCall(request: IncomingMessage): Outcome | undefined {
  return (request as CalledMessage)[handedOver];
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** What {@link directHandlerCaller} adds to an answer as Fastify's hooks would. */
export interface DirectCallOptions {
  /** The CORS header of a request without Origin. */
  cors: readonly [name: string, value: string];
  /** Counts the answers written here; unset when metrics are off. */
  histogram?: Pick<RequestHistogram, 'recorder'>;
  /** When a request's time began, for the histogram. */
  startedAt(request: IncomingMessage): number;
  /** Fastify's request listener, which answers what is not written here. */
  fastify: Listener;
}

/**
 * The function that calls a handler route for a request before Fastify: true once the call is made (its answer is
 * written here or by Fastify's path), false when the request's input is not valid (Fastify's path answers it, as
 * if nothing happened).
 */
export function directHandlerCaller({ cors, histogram, startedAt, fastify }: DirectCallOptions) {
  const [corsName, corsValue] = cors;
  /** Each route's counter of its answers, labelled by its template. */
  const counters = new WeakMap<DirectCall, ((seconds: number) => void) | undefined>();
  const counterOf = (direct: DirectCall, route: string) => {
    if (!counters.has(direct)) counters.set(direct, histogram?.recorder('GET', route, direct.status, 'handler'));
    return counters.get(direct);
  };
  // The headers a Fastify reply has when the contract is checked: its hooks' (a required header it lacks is a
  // violation there too).
  const hookHeaders = () => ({ [corsName]: corsValue });

  const handOver = (request: IncomingMessage, response: ServerResponse, outcome: Outcome) => {
    // Fastify's path takes the rejection over; until it does, nobody else waits on it.
    outcome.catch(() => undefined);
    (request as CalledMessage)[handedOver] = outcome;
    fastify(request, response);
  };

  return (
    direct: DirectCall,
    route: string,
    params: Record<string, string>,
    request: IncomingMessage,
    response: ServerResponse,
  ): boolean => {
    const started = histogram && startedAt(request);
    const called = direct.call(request, params);
    if (called === undefined) return false;
    called.then(
      (payload) => {
        if (!direct.keeps(payload, hookHeaders)) return handOver(request, response, Promise.resolve(payload));
        // In the order Fastify's path sets them: its hooks', the route's, then the body's.
        if (payload === undefined)
          response.writeHead(direct.status, { [corsName]: corsValue, [modeHeader]: 'handler', 'content-length': 0 });
        else
          response.writeHead(direct.status, {
            [corsName]: corsValue,
            [modeHeader]: 'handler',
            'content-type': handlerJsonType,
            'content-length': Buffer.byteLength(payload),
          });
        response.end(payload);
        counterOf(direct, route)?.((performance.now() - started!) / 1000);
      },
      (error: unknown) => handOver(request, response, Promise.reject(error)),
    );
    return true;
  };
}

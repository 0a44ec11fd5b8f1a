import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isUnder, routeAreas } from '../core/routes.js';
import type { RequestHistogram } from '../observability/request-histogram.js';
import { headerWithoutOrigin, type CorsOrigins } from './cors.js';
import { etagMatches } from './etag.js';
import { directHandlerCaller } from './handlers/direct-handler-calls.js';
import type { Gateway } from './gateway.js';
import { modeHeader } from './mock/answer-mode.js';
import { controlPreference } from './mock/query-preference.js';
import type { PreparedAnswer } from './prepared-answer.js';
import type { RouteEntry } from './route-table.js';

/** Options of {@link answerDirectly}. */
export interface DirectAnswerOptions {
  /** Whether a Host header value may be served: the server's Host check, which refuses the others. */
  hostAllowed(host: string): boolean;
  corsOrigins: CorsOrigins;
  /** Counts the requests answered here as the server counts the others; unset when metrics are off. */
  histogram?: Pick<RequestHistogram, 'recorder'>;
  /** When the server's clock, run before, saw a request arrive: read rather than the clock itself (a native call). */
  arrival?(request: IncomingMessage): number | undefined;
}

/** The header blocks of one prepared answer, made on its first direct use. */
interface Heads {
  full: Record<string, string | number>;
  notModified: Record<string, string>;
  /** The histogram's counters of the answer's status and of 304 (labelled by the route's template, never the raw
   * path), when metrics are on. */
  countFull?: (seconds: number) => void;
  countNotModified?: (seconds: number) => void;
}

/** A dynamic answer's body, or `undefined` when it cannot be drawn: Fastify's path then answers the error. */
function drawn(draw: () => string): string | undefined {
  try {
    return draw();
  } catch {
    return undefined;
  }
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** The longest request path answered here: the catch-all's parameter limit (maxParamLength) is never reached. */
const maxUrlLength = 2048;

/**
 * Answers, before Fastify sees them, the requests a generated route answers with bytes it has prepared (a static
 * example: the same body, headers, length and strong ETag on every request, `If-None-Match` answered 304), or with
 * prepared heads and a body drawn per request (a dynamic example without faults): a GET with no body, `Prefer` or
 * `Origin`, and no query string but the mock's control parameters (`?__dynamic=true`), for an allowed Host, to a
 * route that has prepared its answer to it (a mock table's rule on the path or headers may have chosen it: the route
 * says, RouteEntry.prepared). Every other request goes to Fastify as before, and so do all of them until the first
 * load ends. What Fastify's hooks would add to such an answer is added here: the CORS header of a request without
 * Origin and the request histogram's count. The server's authentication, access log, tracing and the workbench's
 * request capture are not: the caller does not answer directly when one is on.
 *
 * Call right after Fastify made `server`, while its request handler is the server's only `request` listener: the
 * listeners prepended later (metrics' clock, the drain's `Connection: close`) still run first.
 */
export function answerDirectly(server: Server, gateway: Gateway, options: DirectAnswerOptions): void {
  const [fastify] = server.listeners('request') as Listener[];
  const answer = directAnswerer(gateway, options, fastify);
  server.removeListener('request', fastify);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!answer(request, response)) fastify(request, response);
  });
}

/**
 * The function that answers a request directly when it can (true), else leaves it untouched (false). With `fastify`,
 * Fastify's request listener, handler routes are called directly too (handlers/direct-handler-calls.ts).
 */
export function directAnswerer(gateway: Gateway, options: DirectAnswerOptions, fastify?: Listener) {
  const { routePrefix } = gateway;
  const { hostAllowed, histogram, arrival } = options;
  const cors = headerWithoutOrigin(options.corsOrigins);
  const [corsName, corsValue] = cors;
  /** When the request's time began, for the histogram (read only when metrics are on). */
  const startedAt = (request: IncomingMessage) => arrival?.(request) ?? performance.now();
  const callHandler = fastify && directHandlerCaller({ cors, histogram, startedAt, fastify });
  const heads = new WeakMap<PreparedAnswer, Heads>();
  const headsOf = (answer: PreparedAnswer, entry: RouteEntry): Heads => {
    let made = heads.get(answer);
    if (made === undefined) {
      const notModified: Record<string, string> = {
        ...answer.headers,
        [modeHeader]: answer.mode,
        [corsName]: corsValue,
      };
      if (answer.etag !== undefined) notModified.etag = answer.etag;
      const full: Heads['full'] = { ...notModified };
      if (answer.length !== undefined) full['content-length'] = answer.length;
      if (answer.contentType !== undefined) full['content-type'] = answer.contentType;
      const route = routePrefix + entry.path;
      made = {
        full,
        notModified,
        countFull: histogram?.recorder('GET', route, answer.status, answer.mode),
        countNotModified: histogram?.recorder('GET', route, 304, answer.mode),
      };
      heads.set(answer, made);
    }
    return made;
  };
  // Under `/api/adaptive` the gateway's own routes sit at reserved mounts, where no spec is served; a spec mocked
  // at its own paths might name a path of another area of the server, which Fastify routes elsewhere.
  const routedElsewhere =
    routePrefix === '' ? (url: string) => Object.values(routeAreas).some((area) => isUnder(url, area)) : () => false;
  const prefix = `${routePrefix}/`;

  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const started = histogram && startedAt(request);
    const url = request.url!;
    if (request.method !== 'GET' || !gateway.ready || !url.startsWith(prefix) || url.length > maxUrlLength)
      return false;
    // A query string of the mock's control parameters chooses the answer; any other needs the server's parser and
    // checks. An escaped path or query is left to the router and that parser.
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path.includes('%') || routedElsewhere(path)) return false;
    const chosen = query === -1 ? undefined : controlPreference(url.slice(query + 1));
    if (query !== -1 && chosen === undefined) return false;
    const headers = request.headers;
    const host = headers.host;
    if (host === undefined || headers.prefer !== undefined || headers.origin !== undefined) return false;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const match = gateway.table.match('GET', path.slice(routePrefix.length));
    if (match.kind !== 'route') return false;
    const { direct } = match.entry;
    if (direct && callHandler)
      return (
        query === -1 &&
        hostAllowed(host) &&
        callHandler(direct, routePrefix + match.entry.path, match.params, request, response)
      );
    const answer = match.entry.prepared?.({ accept: headers.accept, chosen, headers, params: match.params });
    if (answer === undefined || !hostAllowed(host)) return false;
    const payload = answer.draw ? drawn(answer.draw) : answer.payload;
    if (payload === undefined) return false;
    const { full, notModified, countFull, countNotModified } = headsOf(answer, match.entry);
    let count = countFull;
    if (answer.etag !== undefined && etagMatches(headers['if-none-match'], answer.etag)) {
      count = countNotModified;
      response.writeHead(304, notModified).end();
    } else {
      // A drawn body has its own length: set on the shared head, which writeHead copies into the response at once.
      if (answer.draw) full['content-length'] = Buffer.byteLength(payload);
      response.writeHead(answer.status, full).end(payload);
    }
    if (count) count((performance.now() - started!) / 1000);
    return true;
  };
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isObject } from '../core/json.js';
import { modeHeader } from './mock/answer-mode.js';
import { violationsHeader } from './mock/contract.js';
import { faultHeader } from './mock/faults.js';
import { ruleHeader } from './mock/mock-table.js';
import { errorReportedHeader, requestIdHeader } from './python/python-errors.js';
import { resolvePointer } from './model/json-pointer.js';

/**
 * What a spec's own `options` operation made of an OPTIONS request that is not a preflight: `false` when no
 * operation takes it (it is answered as a preflight), else the route's answer.
 */
export type OwnOptionsAnswer = false | void | Promise<unknown>;

/** Browser origins allowed to call the gateway: any (without credentials) or a list (with credentials). */
export type CorsOrigins = '*' | readonly string[];

const allowedMethods = 'GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS';
/** How long a browser may reuse a preflight answer, in seconds. */
const preflightMaxAge = '600';
/**
 * Headers a frontend reads beyond the CORS-safelisted ones: paging (`Link`, `X-Total-Count`), what a POST
 * created, caching, throttling, and the mock's report of how it answered. Said by name where credentials are
 * allowed, since `*` means any header only on answers without credentials.
 */
const exposedHeaders = [
  'link',
  'x-total-count',
  'location',
  'etag',
  'retry-after',
  'content-disposition',
  'x-request-id',
  modeHeader,
  violationsHeader,
  faultHeader,
  ruleHeader,
  requestIdHeader,
  errorReportedHeader,
].join(', ');

const exposeHeader = 'access-control-expose-headers';

/**
 * The response header names the operation at `pointer` declares (in any of its responses), lower case and
 * comma-separated, or `undefined` for none: a cross-origin page with credentials may read them too.
 */
export function declaredResponseHeaders(document: unknown, pointer: string): string | undefined {
  const operation = resolvePointer(document, pointer);
  const resolved = (node: unknown) =>
    isObject(node) && typeof node.$ref === 'string' ? resolvePointer(document, node.$ref) : node;
  const responses = isObject(operation) ? resolved(operation.responses) : undefined;
  if (!isObject(responses)) return undefined;
  const names = new Set<string>();
  for (const response of Object.values(responses)) {
    const object = resolved(response);
    const declared = isObject(object) ? resolved(object.headers) : undefined;
    if (isObject(declared)) for (const name of Object.keys(declared)) names.add(name.toLowerCase());
  }
  // Content-Type is safelisted already and never needs naming.
  names.delete('content-type');
  return names.size > 0 ? [...names].join(', ') : undefined;
}

/**
 * Adds an operation's declared response headers to the exposed ones of a credentialed cross-origin answer
 * (an answer exposing `*`, or none, is left alone).
 */
export function exposeDeclaredHeaders(reply: FastifyReply, declared: string): void {
  const current = reply.getHeader(exposeHeader);
  if (typeof current === 'string' && current !== '*') reply.header(exposeHeader, `${current}, ${declared}`);
}

/**
 * The CORS header of an answer to a request without `Origin` (same-origin or not from a browser), the one a
 * cross-origin answer has too: `Access-Control-Allow-Origin: *`, or with listed origins `Vary: Origin`, since the
 * answer depends on the Origin header even when it is refused and caches must keep them apart.
 */
export function headerWithoutOrigin(origins: CorsOrigins): [name: string, value: string] {
  return origins === '*' ? ['access-control-allow-origin', '*'] : ['vary', 'Origin'];
}

/**
 * CORS for the gateway's routes, so that a frontend on another origin can call the mock: every answer
 * carries `Access-Control-Allow-Origin` (`*`, or the request's origin when it is listed, with
 * credentials allowed) and, for a cross-origin caller, the headers it may read; an `OPTIONS` request to
 * any path that `ownOptions` (a spec's own `options` operation) does not take is answered as a preflight
 * (204 with the allowed methods, the requested headers echoed, and a max age).
 *
 * Written here rather than taken from @fastify/cors, which did the same for this policy: its
 * per-request hook (route options read twice, its options object copied, a resolver closure) cost
 * 5.2k instructions a request, 8% of a generated route (callgrind, `bench/instructions.mjs`). This
 * hook sets one or three headers.
 */
export function registerCors(
  app: FastifyInstance,
  origins: CorsOrigins,
  ownOptions?: (request: FastifyRequest, reply: FastifyReply) => OwnOptionsAnswer,
): void {
  const listed = origins === '*' ? undefined : new Set(origins);
  const [name, value] = headerWithoutOrigin(origins);
  const allowOrigin = (request: FastifyRequest, reply: FastifyReply): void => {
    reply.header(name, value);
    const origin = request.headers.origin;
    // Only a cross-origin caller (a browser sends Origin then) reads the list: same-origin calls skip its cost.
    if (origin === undefined) return;
    if (!listed) reply.header(exposeHeader, '*');
    else if (listed.has(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-credentials', 'true');
      reply.header(exposeHeader, exposedHeaders);
    }
  };

  app.addHook('onRequest', (request, reply, done) => {
    allowOrigin(request, reply);
    done();
  });

  // The same answer for every path, with nothing to protect: public, as preflights carry no credentials.
  app.options('*', { config: { access: 'public' } }, (request, reply) => {
    // A browser's preflight names the method it means to send; any other OPTIONS request may be the spec's own.
    if (request.headers['access-control-request-method'] === undefined && ownOptions) {
      const own = ownOptions(request, reply);
      if (own !== false) return own;
    }
    reply.header('access-control-allow-methods', allowedMethods);
    const requestedHeaders = request.headers['access-control-request-headers'];
    if (requestedHeaders !== undefined) {
      reply.header('access-control-allow-headers', requestedHeaders);
      reply.header('vary', listed ? 'Origin, Access-Control-Request-Headers' : 'Access-Control-Request-Headers');
    }
    reply.header('access-control-max-age', preflightMaxAge);
    reply.code(204).header('content-length', '0').send();
  });
}

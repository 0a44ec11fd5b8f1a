import http from 'node:http';
import { Stream } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { context as otelContext, type Span } from '@opentelemetry/api';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { routeAreas, unknownRoute } from '../core/routes.js';
import { registry } from './metrics.js';
import { requestHistogram, type RequestHistogram } from './request-histogram.js';
import { endServerSpan, flushTraces, startServerSpan, traceFields } from './tracing.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span while tracing is on. */
    traceSpan: Span | null;
  }
}

/** Where Prometheus scrapes the metrics: Spring Boot's actuator path, protected like `/actuator/info`. */
export const metricsPath = `${routeAreas.gateway.prefix}/actuator/prometheus`;

// The answer modes the gateway marks in its headers (gateway/mock): a closed set, so a header a handler sets
// cannot add series.
const answerModes = new Set(['static', 'dynamic', 'stateful', 'proxy', 'handler']);
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** The mode label: `fault` when the mock injected a fault, else the answer mode, `none` outside the gateway. */
function modeOf(reply: FastifyReply): string {
  if (reply.hasHeader('x-mock-fault')) return 'fault';
  const mode = reply.getHeader('x-adaptive-mode');
  return typeof mode === 'string' && answerModes.has(mode) ? mode : 'none';
}

/** The route label: a template, never the raw path (every path no route matched is one value). */
function routeOf(request: FastifyRequest): string {
  return request.routeTemplate ?? (request.is404 ? unknownRoute : (request.routeOptions.url ?? unknownRoute));
}

/** The access log's principal: the token's user name or subject, never a credential. */
function principalOf(request: FastifyRequest): string | undefined {
  const claims = request.auth;
  if (!claims) return undefined;
  const name = claims.preferred_username ?? claims.sub;
  return typeof name === 'string' ? name : undefined;
}

/** Serves the metrics in Prometheus' text format. */
async function sendMetrics(_request: FastifyRequest, reply: FastifyReply): Promise<string> {
  reply.type(registry.contentType);
  return registry.metrics();
}

/** A second server on `METRICS_PORT` that answers `GET /metrics` only, started and stopped with `app`. */
function serveMetricsPort(app: FastifyInstance, config: Config, port: number, logger: Logger): void {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"not found","code":"NOT_FOUND"}');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject).listen(port, config.host, resolve);
    });
    logger.info({ port: (server.address() as { port: number }).port }, 'metrics served at /metrics');
  });
  app.addHook('onClose', (_app, done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
}

/**
 * Registers what operators see of every request: the `http_server_requests_seconds` histogram, the access
 * log, the request's server span, and the metrics endpoints. Call on the root instance before the other
 * plugins, so that the hooks cover every route and the span encloses authentication. Costs nothing it is
 * not asked for: without metrics, access log and tracing, it adds no hook.
 */
export function registerObservability(app: FastifyInstance, config: Config, logger: Logger): void {
  const { metrics, tracing, metricsPort } = config.observability;
  const accessLog = accessLogOn(config, logger);
  app.decorateRequest('routeTemplate', null);
  app.decorateRequest('traceSpan', null);
  if (tracing) {
    app.addHook('onRequest', (request, _reply, done) => {
      const { span, context } = startServerSpan(request.method, request.headers);
      request.traceSpan = span;
      // The rest of the request runs in the span's context: its child spans and its log lines find it.
      otelContext.with(context, done);
    });
    app.addHook('onClose', () => flushTraces());
  }
  const histogram = metrics ? requestHistogram() : undefined;
  if (histogram && !accessLog && !tracing) observeWhenSent(app, histogram);
  else if (metrics || accessLog || tracing) {
    app.addHook('onResponse', (request, reply, done) => {
      const route = routeOf(request);
      const status = reply.statusCode;
      const method = methodOf(request);
      const mode = modeOf(reply);
      histogram?.observe(method, route, status, mode, reply.elapsedTime / 1000);
      if (accessLog) logAccess(logger, request, reply, { route, status, mode });
      if (request.traceSpan) endServerSpan(request.traceSpan, method, route, status);
      done();
    });
  }
  if (metrics) {
    app.get(metricsPath, sendMetrics);
    if (metricsPort !== undefined) serveMetricsPort(app, config, metricsPort, logger);
  }
}

/** Whether the access log writes lines; decided once: a logger above info would drop every line after building it. */
const accessLogOn = (config: Config, logger: Logger) => config.observability.accessLog && logger.isLevelEnabled('info');

/**
 * How a request answered without Fastify (the gateway's prepared answers) is observed: counted in the request
 * histogram (unset with metrics off); undefined when every request must go through Fastify, as the access log and
 * traces read its request and reply.
 */
export function directObservation(
  config: Config,
  logger: Logger,
): { histogram?: RequestHistogram; arrival?: (message: http.IncomingMessage) => number | undefined } | undefined {
  const { metrics, tracing } = config.observability;
  if (tracing || accessLogOn(config, logger)) return undefined;
  // With the histogram on, observeWhenSent's listener has read the clock as the request arrived.
  return metrics ? { histogram: requestHistogram(), arrival: arrivalTime } : {};
}

/** The method label: one of the known methods, else `OTHER` (a client cannot add series). */
const methodOf = (request: FastifyRequest) => (methods.has(request.method) ? request.method : 'OTHER');

/** Where the arrival time of a request is kept on Node's own request object. */
const arrivedAt = Symbol('arrivedAt');
type TimedMessage = http.IncomingMessage & { [arrivedAt]?: number };

/** When the histogram's clock saw `message` arrive (`performance.now()`); `undefined` when it did not. */
const arrivalTime = (message: http.IncomingMessage): number | undefined => (message as TimedMessage)[arrivedAt];

/**
 * The request histogram alone (no access log, no tracing), observed as the answer is sent rather than in an
 * `onResponse` hook: with one, Fastify listens for every response's `finish` and `error` events and reads the
 * clock twice, which made metrics cost 10% more instructions on a generated route. The arrival time is taken by
 * a listener of the server's own `request` event, ahead of Fastify's, not in an `onRequest` hook: any such hook
 * makes Fastify run its hook chain on every request. An answer sent as a stream (a query's rows, a proxied body)
 * is observed once its last byte is written, as `onResponse` would.
 */
function observeWhenSent(app: FastifyInstance, histogram: RequestHistogram): void {
  app.server.prependListener('request', (message: TimedMessage) => {
    message[arrivedAt] = performance.now();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const observe = () =>
      histogram.observe(
        methodOf(request),
        routeOf(request),
        reply.statusCode,
        modeOf(reply),
        secondsSince((request.raw as TimedMessage)[arrivedAt]),
      );
    if (payload instanceof Stream) reply.raw.once('finish', observe);
    else observe();
    done(null, payload);
  });
}

/** One access log line: what happened, never a body or a credential (the path without its query string). */
function logAccess(
  logger: Logger,
  request: FastifyRequest,
  reply: FastifyReply,
  fields: { route: string; status: number; mode: string },
): void {
  const length = reply.getHeader('content-length');
  logger.info(
    {
      method: request.method,
      path: request.url.split('?')[0],
      ...fields,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      reqId: request.id,
      principal: principalOf(request),
      bytes: length === undefined ? undefined : Number(length),
      ...(request.traceSpan ? traceIdsOf(request.traceSpan) : traceFields()),
    },
    'access',
  );
}

const traceIdsOf = (span: Span) => ({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });

/** Seconds since `arrived`; 0 for a request made by Fastify's `inject` (it never passes the `request` event). */
const secondsSince = (arrived?: number) => (arrived === undefined ? 0 : (performance.now() - arrived) / 1000);

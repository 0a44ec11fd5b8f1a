// First, before any other module runs: see the module's comment.
import '../runtime/tick-object-shape.js';
import http from 'node:http';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { isAuthenticated, registerAuthentication } from '../auth/auth-plugin.js';
import type { Config } from '../core/config.js';
import { httpError, type HttpError } from '../core/errors.js';
import { toHttpError } from '../core/domain-errors.js';
import { refuseNewRequests, trackConnections } from './drain.js';
import { clientErrorHandler, frameworkError } from '../core/framework-errors.js';
import { hostAllowance, hostCheck, originFormUrl } from '../core/allowed-hosts.js';
import { serverPathScrubber } from '../core/server-paths.js';
import {
  answerDirectly,
  createGateway,
  gatewayPlugin,
  SpecChanges,
  SpecLint,
  watchGatewayFiles,
  type Gateway,
} from '../gateway/index.js';
import { routeAreas } from '../core/routes.js';
import { gatewayComponent, sourceComponents } from '../health/builtin-components.js';
import { healthPlugin } from '../health/health-plugin.js';
import { LiveHealthConfig } from '../health/live-health-config.js';
import { createLogger, type Logger } from '../core/logger.js';
import type { LiveQueryService } from '../query/live-query-service.js';
import { newWorkbenchToken } from '../workbench/token.js';
import { sweepOrphanFolders } from '../runtime/private-folders.js';
import { directObservation, registerObservability } from '../observability/observability.js';
import { startTracing, traceFields } from '../observability/tracing.js';

declare module 'fastify' {
  interface FastifyInstance {
    gateway: Gateway;
  }
}

// What an embedder (the desktop app) needs besides the server: a per-launch token, and the URL to open.
export { newWorkbenchToken } from '../workbench/token.js';
export { workbenchUrl } from '../workbench/workbench-url.js';

/** Options for embedding the server (tests, Electron). */
export interface ServerOptions {
  /** A logger to use instead of one made from `config.logLevel`. */
  logger?: Logger;
  /** The workbench API's per-launch token (`config.workbench`); a random one when not given. */
  workbenchToken?: string;
  /**
   * How long `close()` lets handler calls in flight run before it answers them 503 and stops their
   * modules (a handler stuck in a loop would otherwise hold the shutdown). Default 8 s: well inside the
   * CLI's 10 s bound.
   */
  handlerDrainMs?: number;
  /** The renderer build the workbench serves (the desktop app's own); default: `dist/renderer` beside the server
   * package. */
  rendererDir?: string;
}

/**
 * Starts the gateway (and its file watcher) once the server is ready, and stops both when it closes:
 * handler calls in flight get `drainMs`, new requests a 503, idle keep-alive connections are closed.
 */
function manageLifecycle(
  app: FastifyInstance,
  config: Config,
  gateway: Gateway,
  logger: Logger,
  drainMs: number,
): void {
  let watcher: { close(): Promise<void> } | undefined;
  app.addHook('onReady', async () => {
    // Query, fetch and handler folders of a server that was killed (kill -9, OOM) before it cleaned up.
    const swept = sweepOrphanFolders();
    if (swept > 0) logger.info({ folders: swept }, 'removed temporary folders left by servers that were killed');
    void gateway.start();
    if (config.hotReload) watcher = watchGatewayFiles(config, gateway, logger);
  });
  trackConnections(app.server);
  app.addHook('preClose', async () => {
    gateway.drain(drainMs);
    // A request that arrives once closing has begun gets a {detail, code} 503 like every other error.
    refuseNewRequests(app.server);
    // Keep-alive connections that finish a request after close() started would otherwise stay open
    // until their keep-alive timeout and hold the shutdown.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100).unref();
    app.server.once('close', () => clearInterval(sweep));
  });
  app.addHook('onClose', async () => {
    await watcher?.close();
    await gateway.close();
  });
}

/**
 * What follows each load of the specs, closed with the server: the comparison of each spec loaded anew with its
 * last good version (breaking changes in the log and workbench), and, where the designer works (the workbench on
 * a workspace), lint, which runs after each load, never before it: readiness does not wait.
 */
function followSpecs(app: FastifyInstance, config: Config, gateway: Gateway, logger: Logger) {
  const specChanges = new SpecChanges(gateway, logger);
  const workspace = config.workbench && config.specPaths.length === 0;
  const lint = workspace ? new SpecLint(gateway, config.workspace, config.specsDir, logger) : undefined;
  app.addHook('onClose', async () => {
    specChanges.close();
    lint?.close();
  });
  return { specChanges, lint };
}

/**
 * Starts the query service over the query folder (reloaded on every change with hot reload), closed with
 * the server. Imported only here: DuckDB and the connectors' clients would add half a second to the start
 * of a mock server (`serve petstore.yaml`), which has no query sources.
 */
async function startQueryService(app: FastifyInstance, config: Config, logger: Logger): Promise<LiveQueryService> {
  const { LiveQueryService } = await import('../query/live-query-service.js');
  const live = await LiveQueryService.start({ config, log: logger, watch: config.hotReload });
  app.addHook('onClose', () => live.close());
  return live;
}

/** Registers the query service's routes under their prefix. */
async function registerQueryRoutes(app: FastifyInstance, config: Config, live: LiveQueryService, logger: Logger) {
  const { queryPlugin } = await import('../query/query-plugin.js');
  await app.register(queryPlugin, { prefix: routeAreas.query.prefix, config, live, log: logger });
}

/** health.yaml, reloaded like specs: with hot reload every change applies, and a bad one keeps the last good. */
function liveHealthFile(app: FastifyInstance, config: Config, logger: Logger): LiveHealthConfig {
  const healthFile = new LiveHealthConfig({
    file: config.healthConfig,
    workspacePath: 'health.yaml',
    reserved: ['gateway', 'database', 'broker', 'objectstore'],
    log: logger,
    watch: config.hotReload,
  });
  app.addHook('onClose', () => healthFile.close());
  return healthFile;
}

/**
 * Static answers go out before Fastify's routing and hooks (gateway/direct-answers.ts), unless a hook must see every
 * request: authentication, the access log and traces, the workbench's request capture.
 */
function answerStaticDirectly(
  app: FastifyInstance,
  config: Config,
  logger: Logger,
  gateway: Gateway,
  hostAllowed: (host: string) => boolean,
): void {
  const observation = config.authEnabled || config.workbench ? undefined : directObservation(config, logger);
  if (observation)
    answerDirectly(app.server, gateway, { hostAllowed, corsOrigins: config.corsOrigins, ...observation });
}

/**
 * Builds the whole server: gateway, query service and health, ready to `listen()` or `inject()`;
 * in mock mode (`config.specPaths`), the gateway and health without the query service.
 * The workspace loads in the background once the server is ready; `app.gateway.start()` resolves
 * when the first load has finished.
 */
export async function buildServer(config: Config, options: ServerOptions = {}): Promise<FastifyInstance> {
  const { tracing } = config.observability;
  // Before anything makes a span: the SDK is imported only here, and only when tracing is configured.
  if (tracing) await startTracing(tracing);
  const logger = options.logger ?? createLogger(config.logLevel, undefined, tracing ? traceFields : undefined);
  const app = Fastify({
    // No logger instance on purpose: with one, Fastify adds response listeners and timestamps to every
    // request, a tenth of a generated route's cost, and even a child logger factory returning our
    // logger costs 2.3k instructions a request (Fastify validates every child). So `app.log` and
    // `request.log` are Fastify's silent logger, and our code logs through `logger`, which is passed
    // to every plugin.
    // Per-request logging is off the hot path; the debug hook below logs requests when asked for.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    // Node checks timeouts every 30 s by default, too coarse to cut off a slow client in time, and
    // keeps a 60 s headers timeout that otherwise shadows a shorter request timeout.
    http: {
      // The Host check below answers a missing Host with a {detail, code} body (Node's own 400 has none).
      requireHostHeader: false,
      connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs),
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
    },
    // Off: from the moment closing begins, refuseNewRequests answers new requests 503 {detail, code} before Fastify;
    // what still reaches Fastify then is a request taken earlier (a handler call made before Fastify and handed
    // over with its outcome), which must be answered from that outcome, not with Fastify's own 503 body.
    return503OnClosing: false,
    // Errors found before a request reaches a route get the same {detail, code} bodies as the rest.
    clientErrorHandler: clientErrorHandler({
      requestTimeoutMs: config.requestTimeoutMs,
      maxHeaderSize: http.maxHeaderSize,
    }),
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const answer = frameworkError(error, config.bodyLimit);
      reply.code(answer.status).send(answer.body());
    },
    forceCloseConnections: 'idle',
    rewriteUrl: originFormUrl,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
  });

  const hostAllowed = hostAllowance(config.allowedHosts);
  const mocking = config.specPaths.length > 0;
  const { gateway, mockState, recordings } = createGateway(config, logger);
  answerStaticDirectly(app, config, logger, gateway, hostAllowed);

  // Errors name no folder of this machine: DuckDB's messages, for one, quote its temp folder.
  const scrub = serverPathScrubber({ '<workspace>': config.workspace, '<data>': config.dataDir });
  const answer = (reply: FastifyReply, error: HttpError) =>
    reply.code(error.status).send({ ...error.body(), detail: scrub(error.detail) });
  // The one error handler: catalogued errors and domain errors as their code, Fastify's own by theirs.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = toHttpError(error);
    if (known) return answer(reply, known);
    if ((error.statusCode ?? 500) >= 500)
      logger.error({ err: error, reqId: request.id, method: request.method, url: request.url }, 'request failed');
    return answer(reply, frameworkError(error, request.routeOptions.bodyLimit ?? config.bodyLimit));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    reply.code(404).send(httpError('NOT_FOUND', [request.method, path]).body());
  });

  // Before everything else, authentication included: a request for another host is never served.
  app.addHook('onRequest', hostCheck(hostAllowed));

  // Then root-level hooks that cover every route registered below, whichever plugin adds it; the request's
  // span encloses authentication (the token exchange is its child).
  registerObservability(app, config, logger);
  await registerAuthentication(app, config, logger);

  app.decorate('gateway', gateway);
  const healthFile = liveHealthFile(app, config, logger);
  const query = mocking ? undefined : await startQueryService(app, config, logger);
  const problemSources = [healthFile, ...(query ? [query] : [])];
  const { specChanges, lint } = followSpecs(app, config, gateway, logger);
  // Imported only for the workbench: a headless or mock server never loads its API and the renderer's files.
  if (config.workbench)
    await app.register((await import('../workbench/workbench-plugin.js')).workbenchPlugin, {
      config,
      gateway,
      logger,
      token: options.workbenchToken ?? newWorkbenchToken(),
      rendererDir: options.rendererDir,
      problemSources,
      recordings,
      specChanges,
      specLint: lint,
    });
  await app.register(gatewayPlugin, { gateway, config, mockState, lint });
  if (query) await registerQueryRoutes(app, config, query, logger);

  const authCheck = app.authentication ? () => app.authentication!.healthCheck() : undefined;
  const gatewayHealth = gatewayComponent({ app, authCheck });
  await app.register(healthPlugin, {
    // The query components follow the sources of the query folder as it is now.
    components: () => ({
      gateway: gatewayHealth,
      ...sourceComponents(query?.sourceHealth() ?? []),
      ...healthFile.components(),
    }),
    mayShowDetails: isAuthenticated,
  });

  manageLifecycle(app, config, gateway, logger, options.handlerDrainMs ?? 8000);
  return app;
}

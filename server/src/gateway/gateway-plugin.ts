import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActuatorInfo, GatewayInfo, RefreshResult, StateResetResult } from '../contract/index.js';
import type { Config } from '../core/config.js';
import { httpError } from '../core/errors.js';
import { declareAccess, probePaths, routeAreas, unknownRoute } from '../core/routes.js';
import { productName, productVersion } from '../core/version.js';
import type { Gateway } from './gateway.js';
import type { SpecLint } from './lint/spec-lint.js';
import type { RouteEntry } from './route-table.js';
import { exposeDeclaredHeaders, registerCors } from './cors.js';
import { keepingRawBody } from './raw-body.js';
import type { MockStateStore } from './mock/state-store.js';
import { gatewayPrefix } from './model/mount.js';
import { registerSwaggerUi } from './swagger-ui.js';
import { sendServedDocument } from './served-document.js';

const startedAt = Date.now();

/** The part of a request URL the route table matches: after the prefix, without the query string. */
function routePath(routePrefix: string, url: string): string {
  const query = url.indexOf('?');
  return url.slice(routePrefix.length, query === -1 ? undefined : query);
}

/** Runs a matched route; a cross-origin page may read the headers its operation declares. */
function serve(entry: RouteEntry, params: Record<string, string>, request: FastifyRequest, reply: FastifyReply) {
  if (entry.exposedHeaders !== undefined && request.headers.origin !== undefined)
    exposeDeclaredHeaders(reply, entry.exposedHeaders);
  return entry.handle(request, reply, params);
}

/** Options of {@link gatewayPlugin}. */
export interface GatewayPluginOptions {
  gateway: Gateway;
  config: Config;
  mockState?: MockStateStore;
  /** The workbench's spec lint: the refresh answer waits for it and lists its findings. */
  lint?: Pick<SpecLint, 'settled' | 'flatFindings'>;
}

/**
 * The gateway under `/api/adaptive`: system routes (listing, merged OpenAPI document, Swagger UI,
 * actuator) as ordinary Fastify routes, and one catch-all route that dispatches every other request
 * through the gateway's current route table: under `/api/adaptive` too, or under `/` when specs are
 * mocked at their own paths (the system routes, being more specific, still win there).
 */
export async function gatewayPlugin(app: FastifyInstance, options: GatewayPluginOptions): Promise<void> {
  const { gateway, config, mockState, lint } = options;
  const routePrefix = gateway.routePrefix;
  declareAccess(app, routeAreas.gateway);
  // A spec's own `options` operation answers OPTIONS requests that are not preflights.
  registerCors(app, config.corsOrigins, (request, reply) => {
    if (!gateway.ready || !request.url.startsWith(routePrefix)) return false;
    const match = gateway.table.match('OPTIONS', routePath(routePrefix, request.url));
    if (match.kind !== 'route') return false;
    request.routeTemplate = routePrefix + match.entry.path;
    return serve(match.entry, match.params, request, reply);
  });

  // Generated and handler routes accept any media type; they decide what is valid.
  // The text is kept beside the parsed value: a proxied spec forwards the body as it came. Fastify's
  // own parser of exactly application/json would win over the pattern, so it makes way (in this plugin only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    /^application\/([\w.-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string' },
    keepingRawBody(app.getDefaultJsonParser('error', 'error')),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.get(`${gatewayPrefix}/`, async (): Promise<GatewayInfo> => ({
    name: productName,
    version: productVersion,
    specs: gateway.files('spec'),
    handlers: gateway.files('handler'),
    endpoints: gateway.table.entries.map((e) => ({
      method: e.method,
      path: routePrefix + e.path,
      source: e.source,
      file: e.file,
    })),
  }));
  // Every mount merged, or with `?mount=<mount>` the document of one (the workbench's docs panel picks one).
  app.get<{ Querystring: { mount?: unknown } }>(`${gatewayPrefix}/openapi.json`, async (request, reply) => {
    const { mount } = request.query;
    if (mount === undefined) return sendServedDocument(request, reply, await gateway.openApiDocument());
    const document = typeof mount === 'string' ? gateway.mountDocument(mount) : undefined;
    if (document === undefined)
      throw httpError('OPENAPI_MOUNT_NOT_FOUND', [String(mount), gateway.mounts.join(', ') || 'nothing']);
    return sendServedDocument(request, reply, await document);
  });
  registerSwaggerUi(app, gatewayPrefix);

  // The orchestrator's probes answer without credentials.
  app.get(probePaths.liveness, { config: { access: 'public' } }, async () => ({ status: 'UP' }));
  app.get(probePaths.readiness, { config: { access: 'public' } }, async (_request, reply) => {
    // Spring's shape for the orchestrator, the catalogue's {detail, code} for a person reading it.
    if (!gateway.ready) return reply.code(503).send({ status: 'DOWN', ...httpError('NOT_READY').body() });
    return { status: 'UP' };
  });
  app.get(`${gatewayPrefix}/actuator/info`, async (): Promise<ActuatorInfo> => ({
    app: { name: productName, version: productVersion },
    node: process.version,
    uptime_s: Math.round((Date.now() - startedAt) / 1000),
    hot_reload: config.hotReload,
    auth_enabled: config.authEnabled,
    specs: gateway.files('spec'),
    handlers: gateway.files('handler'),
  }));
  // Lint runs after the load, off the request path: the routes serve before it ends; only this answer waits.
  app.post(`${gatewayPrefix}/actuator/refresh`, async (): Promise<RefreshResult> => {
    const result = await gateway.reload();
    if (!lint) return result;
    await lint.settled();
    return { ...result, lint: lint.flatFindings };
  });
  // Empties the stateful mocks of one mount (`?mount=petstore`) or of all; they start again from the spec's examples.
  app.post<{ Querystring: { mount?: string } }>(
    `${gatewayPrefix}/actuator/state/reset`,
    async (request): Promise<StateResetResult> => ({ reset: mockState?.reset(request.query.mount) ?? [] }),
  );

  const dispatch = (request: FastifyRequest, reply: FastifyReply) => {
    if (!gateway.ready) throw httpError('NOT_READY');
    const path = routePath(routePrefix, request.url);
    const match = gateway.table.match(request.method, path);
    request.routeTemplate = match.kind === 'route' ? routePrefix + match.entry.path : unknownRoute;
    if (match.kind === 'route') return serve(match.entry, match.params, request, reply);
    if (match.kind === 'method-not-allowed') {
      reply.header('allow', match.allowed.join(', '));
      throw httpError('METHOD_NOT_ALLOWED', [request.method, routePrefix + path]);
    }
    throw httpError('NOT_FOUND', [request.method, routePrefix + path]);
  };
  app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'], url: `${routePrefix}/*`, handler: dispatch });
}

import { finished } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../core/config.js';
import { httpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { declareAccess, routeAreas } from '../core/routes.js';
import { jobRoutes } from './jobs/job-routes.js';
import type { LiveQueryService } from './live-query-service.js';
import { naturalLanguageRoutes } from './nl/natural-language-routes.js';
import { sparqlRoutes } from './sparql/sparql-routes.js';
import { sqlRoutes } from './sql-routes.js';

/** Options of {@link queryPlugin}. */
export interface QueryPluginOptions {
  config: Config;
  /** The query service over the query folder as it is now (it reloads on a change; see LiveQueryService). */
  live: LiveQueryService;
  log: Logger;
}

/**
 * The federated query service under `/api/v1/query` (DESIGN.md §6): sources, synchronous SQL, async
 * jobs, SPARQL and natural language, all over the query folder of `options.live`. Its routes are
 * protected. Each request runs on the configuration serving when it arrived, to its end, even if the
 * folder reloads meanwhile.
 */
export async function queryPlugin(app: FastifyInstance, options: QueryPluginOptions): Promise<void> {
  const { config, live } = options;
  declareAccess(app, routeAreas.query);
  // Before any route: every handler of this scope, SPARQL's and natural language's too, holds its configuration
  // until its response is sent (a streamed body still reads from the sources after the handler returns).
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      return live.use(async () => {
        void live.use(() => finished(reply.raw).catch(() => undefined));
        return handler.call(this, request, reply);
      });
    };
  });
  const current = () => live.current();
  await app.register(sqlRoutes, { queries: () => current().queries, log: options.log });
  await app.register(jobRoutes, { live });
  // SPARQL over the ontology and R2RML mapping next to sources.yaml (docs/sparql.md).
  await app.register(sparqlRoutes, { current, log: options.log });
  await app.register(naturalLanguageRoutes, {
    current,
    sourcesFile: config.querySources,
    llm: config.nlLlm,
    log: options.log,
  });

  // Any other path under the prefix: the service's own 404 body.
  app.all('/*', async (request) => {
    throw httpError('QUERY_NOT_FOUND', [request.method, request.url.split('?')[0]]);
  });
}

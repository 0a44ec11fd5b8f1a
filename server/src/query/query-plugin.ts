import { finished } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { declareAccess, routeAreas } from '../core/routes.js';
import { stringFields } from '../core/string-fields.js';
import { untilClientLeaves } from './client-abort.js';
import { principalOf } from './jobs/job-principal.js';
import { withDeadline } from './deadline.js';
import { QueryTimeout } from './deadline.js';
import { naturalLanguageRoutes } from './nl/natural-language-routes.js';
import { httpError } from '../core/errors.js';
import type { LiveQueryService } from './live-query-service.js';
import { resultJson } from './engine/result-json.js';
import { sparqlRoutes } from './sparql/sparql-routes.js';
import type {
  AsyncSubmission,
  JobStatusView,
  QueryRequest,
  ResultPage,
  SourceList,
  SourceTables,
  SqlResult,
} from '../contract/index.js';

const queryBody = {
  type: 'object',
  required: ['query'],
  properties: { query: { type: 'string' } },
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const;

const pageQuery = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: 0, default: 0 },
    limit: { type: 'integer', minimum: 1, maximum: 10_000, default: 1000 },
  },
} as const;

/** How long the sources may take to confirm an async query's tables before the job is queued anyway. */
const submitCheckTimeoutMs = 2000;

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
  /** The query service of the configuration the request runs on. */
  const queries = () => live.current().queries;

  app.get('/sources', async (): Promise<SourceList> => ({ sources: queries().catalog.summaries() }));
  app.get<{ Params: { name: string } }>('/sources/:name/tables', async (request): Promise<SourceTables> => {
    const source = queries().catalog.get(request.params.name);
    if (!source) throw httpError('QUERY_SOURCE_NOT_FOUND', [request.params.name]);
    // Bounded like a query: a source that hangs answers 504 after limits.timeout_ms, never later.
    const { timeoutMs } = queries().setup.limits;
    try {
      return {
        source: source.definition.name,
        tables: await withDeadline(timeoutMs, (deadline) => source.connector.listTables(deadline)),
      };
    } catch (error) {
      if (error instanceof QueryTimeout) throw httpError('QUERY_SOURCE_TIMEOUT', [source.definition.name, timeoutMs]);
      throw httpError('QUERY_SOURCE_UNAVAILABLE', [
        `Source "${source.definition.name}" did not list its tables: ${(error as Error).message}`,
      ]);
    }
  });

  // SPARQL over the ontology and R2RML mapping next to sources.yaml (docs/sparql.md).
  await app.register(sparqlRoutes, { current: () => live.current(), log: options.log });

  app.post<{ Body: QueryRequest }>(
    '/sql',
    { schema: { body: queryBody }, preValidation: stringFields('query') },
    async (request, reply) => {
      const { scans, ...result } = await untilClientLeaves(request, reply, options.log, (signal) =>
        queries().sql(request.body.query, signal),
      );
      options.log.debug({ scans }, 'query scans');
      // The text of the answer is written in pieces, so a large one does not hold the event loop (result-json.ts).
      return reply.type('application/json; charset=utf-8').send(resultJson(result satisfies SqlResult));
    },
  );

  app.post<{ Body: QueryRequest }>(
    '/async',
    { schema: { body: queryBody }, preValidation: stringFields('query') },
    async (request, reply) => {
      const owner = principalOf(request);
      await queries().engine.validate(request.body.query);
      await queries().checkReferences(request.body.query, submitCheckTimeoutMs);
      const job = await live.jobs.submit(request.body.query, owner);
      const accepted: AsyncSubmission = { query_id: job.query_id, status: job.status, submitted_at: job.submitted_at };
      return reply.code(202).send(accepted);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/async/:id/status',
    { schema: { params: idParams } },
    async (request): Promise<JobStatusView> => live.jobs.status(request.params.id, principalOf(request)),
  );

  app.get<{ Params: { id: string }; Querystring: { offset: number; limit: number } }>(
    '/async/:id/results',
    { schema: { params: idParams, querystring: pageQuery } },
    async (request): Promise<ResultPage> =>
      live.jobs.results(request.params.id, principalOf(request), request.query.offset, request.query.limit),
  );

  await app.register(naturalLanguageRoutes, {
    current: () => live.current(),
    sourcesFile: config.querySources,
    llm: config.nlLlm,
    log: options.log,
  });

  app.delete<{ Params: { id: string } }>(
    '/async/:id',
    { schema: { params: idParams } },
    async (request): Promise<JobStatusView> => live.jobs.delete(request.params.id, principalOf(request)),
  );

  // Any other path under the prefix: the service's own 404 body.
  app.all('/*', async (request) => {
    throw httpError('QUERY_NOT_FOUND', [request.method, request.url.split('?')[0]]);
  });
}

import type { FastifyInstance } from 'fastify';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { declareAccess, routeAreas } from '../core/routes.js';
import { stringFields } from '../core/string-fields.js';
import { principalOf } from './jobs/job-principal.js';
import { withDeadline } from './deadline.js';
import { QueryTimeout } from './deadline.js';
import { naturalLanguageRoutes } from './nl/natural-language-routes.js';
import { httpError } from '../core/errors.js';
import { QueryService } from './query-service.js';
import { resultJson } from './engine/result-json.js';
import type { QueryWorkspace } from './query-workspace.js';
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
  /** The query folder, read once by loadQueryWorkspace (a bad sources.yaml has stopped the start there). */
  workspace: QueryWorkspace;
  log: Logger;
}

/**
 * The federated query service under `/api/v1/query` (DESIGN.md §6): sources, synchronous SQL, async
 * jobs, SPARQL and natural language, all over the one query folder in `options.workspace`. Its routes
 * are protected.
 */
export async function queryPlugin(app: FastifyInstance, options: QueryPluginOptions): Promise<void> {
  const { config, workspace } = options;
  declareAccess(app, routeAreas.query);
  const { setup } = workspace;
  const service = await QueryService.create(setup, config.dataDir, options.log, config.queryJobs);
  app.addHook('onClose', async () => service.close());

  app.get('/sources', async (): Promise<SourceList> => ({ sources: service.catalog.summaries() }));
  app.get<{ Params: { name: string } }>('/sources/:name/tables', async (request): Promise<SourceTables> => {
    const source = service.catalog.get(request.params.name);
    if (!source) throw httpError('QUERY_SOURCE_NOT_FOUND', [request.params.name]);
    // Bounded like a query: a source that hangs answers 504 after limits.timeout_ms, never later.
    const { timeoutMs } = setup.limits;
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
  await app.register(sparqlRoutes, { queries: service, graph: workspace, log: options.log });

  app.post<{ Body: QueryRequest }>(
    '/sql',
    { schema: { body: queryBody }, preValidation: stringFields('query') },
    async (request, reply) => {
      const { scans, ...result } = await service.sql(request.body.query);
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
      await service.engine.validate(request.body.query);
      await service.checkReferences(request.body.query, submitCheckTimeoutMs);
      const job = await service.jobs.submit(request.body.query, owner);
      const accepted: AsyncSubmission = { query_id: job.query_id, status: job.status, submitted_at: job.submitted_at };
      return reply.code(202).send(accepted);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/async/:id/status',
    { schema: { params: idParams } },
    async (request): Promise<JobStatusView> => service.jobs.status(request.params.id, principalOf(request)),
  );

  app.get<{ Params: { id: string }; Querystring: { offset: number; limit: number } }>(
    '/async/:id/results',
    { schema: { params: idParams, querystring: pageQuery } },
    async (request): Promise<ResultPage> =>
      service.jobs.results(request.params.id, principalOf(request), request.query.offset, request.query.limit),
  );

  await app.register(naturalLanguageRoutes, {
    queries: service,
    workspace,
    sourcesFile: config.querySources,
    llm: config.nlLlm,
    log: options.log,
  });

  app.delete<{ Params: { id: string } }>(
    '/async/:id',
    { schema: { params: idParams } },
    async (request): Promise<JobStatusView> => service.jobs.delete(request.params.id, principalOf(request)),
  );

  // Any other path under the prefix: the service's own 404 body.
  app.all('/*', async (request) => {
    throw httpError('QUERY_NOT_FOUND', [request.method, request.url.split('?')[0]]);
  });
}

import type { FastifyInstance } from 'fastify';
import { stringFields } from '../../core/string-fields.js';
import type { AsyncSubmission, JobStatusView, QueryRequest, ResultPage } from '../../contract/index.js';
import type { LiveQueryService } from '../live-query-service.js';
import { queryBody } from '../sql-routes.js';
import { principalOf } from './job-principal.js';

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

/**
 * The async jobs (mounted under `/api/v1/query`): `POST /async` queues a query, `GET /async/:id/status` and
 * `/results` follow it, `DELETE /async/:id` cancels or removes it; each job is its submitter's only.
 */
export async function jobRoutes(app: FastifyInstance, { live }: { live: LiveQueryService }): Promise<void> {
  app.post<{ Body: QueryRequest }>(
    '/async',
    { schema: { body: queryBody }, preValidation: stringFields('query') },
    async (request, reply) => {
      const owner = principalOf(request);
      const queries = live.current().queries;
      await queries.engine.validate(request.body.query);
      await queries.checkReferences(request.body.query, submitCheckTimeoutMs);
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

  app.delete<{ Params: { id: string } }>(
    '/async/:id',
    { schema: { params: idParams } },
    async (request): Promise<JobStatusView> => live.jobs.delete(request.params.id, principalOf(request)),
  );
}

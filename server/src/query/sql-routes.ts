import type { FastifyInstance } from 'fastify';
import type { Logger } from '../core/logger.js';
import { httpError } from '../core/errors.js';
import { stringFields } from '../core/string-fields.js';
import type { QueryRequest, SourceList, SourceTables, SqlResult } from '../contract/index.js';
import { untilClientLeaves } from './client-abort.js';
import { resultJson } from './engine/result-json.js';
import type { QueryService } from './query-service.js';

/** The body of `POST /sql` and `POST /async`: one query text. */
export const queryBody = {
  type: 'object',
  required: ['query'],
  properties: { query: { type: 'string' } },
} as const;

/** Options of {@link sqlRoutes}. */
export interface SqlRoutesOptions {
  /** The query service of the configuration the request runs on. */
  queries: () => QueryService;
  log: Logger;
}

/**
 * `GET /sources`, `GET /sources/:name/tables` and `POST /sql` (mounted under `/api/v1/query`): what can be queried,
 * and one synchronous query.
 */
export async function sqlRoutes(app: FastifyInstance, { queries, log }: SqlRoutesOptions): Promise<void> {
  app.get('/sources', async (): Promise<SourceList> => ({ sources: queries().catalog.summaries() }));
  app.get<{ Params: { name: string } }>('/sources/:name/tables', async (request): Promise<SourceTables> => {
    const source = queries().catalog.get(request.params.name);
    if (!source) throw httpError('QUERY_SOURCE_NOT_FOUND', [request.params.name]);
    return { source: source.definition.name, tables: await queries().listTables(source) };
  });

  app.post<{ Body: QueryRequest }>(
    '/sql',
    { schema: { body: queryBody }, preValidation: stringFields('query') },
    async (request, reply) => {
      const {
        scans,
        bytes: _bytes,
        ...result
      } = await untilClientLeaves(request, reply, log, (signal) => queries().sql(request.body.query, signal));
      log.debug({ scans }, 'query scans');
      // The text of the answer is written in pieces, so a large one does not hold the event loop (result-json.ts).
      return reply.type('application/json; charset=utf-8').send(resultJson(result satisfies SqlResult));
    },
  );
}

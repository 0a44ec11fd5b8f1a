import type { FastifyInstance } from 'fastify';
import { httpError } from '../../core/errors.js';
import { resultsCsv, resultsJson, resultsTsv, writeTriples } from './results.js';
import type { QueryService } from '../query-service.js';
import { SparqlService } from './sparql-service.js';
import { vocabularyOf } from './vocabulary.js';
import type { SparqlVocabulary } from '../../contract/index.js';

/**
 * `POST /sparql` (mounted under `/api/v1/query`): the SPARQL protocol's query operation by POST,
 * with the query as `application/sparql-query` or a form field `query=`; `GET /sparql/vocabulary`:
 * the prefixes, classes and properties a query can use (for the console's completion). The ontology and mapping
 * are read from `folder` here, so an invalid mapping fails the server's start (`ready()`).
 */
export async function sparqlRoutes(
  app: FastifyInstance,
  options: { queries: QueryService; folder: string },
): Promise<void> {
  const sparql = SparqlService.fromFolder(options.queries, options.folder);
  // Content types of this scope only: the other query endpoints keep their JSON bodies.
  app.addContentTypeParser('application/sparql-query', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // Read-only and fixed for the server's life: the files are read once, at start.
  const vocabulary = vocabularyOf(sparql.triples, sparql.ontology);
  app.get('/sparql/vocabulary', async (): Promise<SparqlVocabulary> => vocabulary);

  app.post<{ Querystring: { explain?: string } }>('/sparql', async (request, reply) => {
    const body = request.body;
    const text =
      typeof body === 'string'
        ? body
        : body && typeof body === 'object' && typeof (body as Record<string, unknown>).query === 'string'
          ? String((body as Record<string, unknown>).query)
          : undefined;
    if (text === undefined || text.trim() === '') throw httpError('SPARQL_QUERY_MISSING');
    const explain = request.query.explain === 'true';
    if (explain) {
      const query = sparql.parse(text);
      const { translation, ms } = await sparql.translate(query);
      return { sql: translation.sql, translate_ms: Math.round(ms * 1000) / 1000 };
    }
    const answer = await sparql.run(text);
    const accept = String(request.headers.accept ?? '');
    if (answer.kind === 'ask')
      return reply.type('application/sparql-results+json').send({ head: {}, boolean: answer.value });
    if (answer.kind === 'construct') {
      const ntriples = /application\/n-triples/.test(accept);
      return reply
        .type(ntriples ? 'application/n-triples' : 'text/turtle')
        .send(writeTriples(answer.triples, ntriples ? 'ntriples' : 'turtle', sparql.ontology.prefixes));
    }
    if (answer.truncated)
      reply.header('x-results-truncated', 'true').header('x-results-truncated-reason', answer.truncatedReason ?? '');
    if (/text\/csv/.test(accept))
      return reply.type('text/csv; charset=utf-8').send(resultsCsv(answer.vars, answer.rows));
    if (/text\/tab-separated-values/.test(accept))
      return reply.type('text/tab-separated-values; charset=utf-8').send(resultsTsv(answer.vars, answer.rows));
    return reply.type('application/sparql-results+json').send(resultsJson(answer.vars, answer.rows));
  });
}

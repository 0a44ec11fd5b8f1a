import type { FastifyInstance } from 'fastify';
import { httpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { knowledgeGraph, type GraphFiles } from '../query-workspace.js';
import { resultsCsv, resultsJson, resultsTsv, writeTriples } from './results.js';
import { untilClientLeaves } from '../client-abort.js';
import type { QueryService } from '../query-service.js';
import { SparqlService } from './sparql-service.js';
import { vocabularyOf } from './vocabulary.js';
import type { SparqlAskResult, SparqlExplanation, SparqlVocabulary } from '../../contract/index.js';

/** Options of {@link sparqlRoutes}. */
export interface SparqlOptions {
  queries: QueryService;
  /** The ontology and mapping as loadQueryWorkspace read them, at start. */
  graph: GraphFiles;
  log: Logger;
}

/**
 * `POST /sparql` (mounted under `/api/v1/query`): the SPARQL protocol's query operation by POST,
 * with the query as `application/sparql-query` or a form field `query=`; `GET /sparql/vocabulary`:
 * the prefixes, classes and properties a query can use (for the console's completion). When the
 * ontology or the mapping did not load, both answer 503 naming the file, line and problem (logged at
 * start too), while the rest of the query service serves.
 */
export async function sparqlRoutes(app: FastifyInstance, options: SparqlOptions): Promise<void> {
  const graph = knowledgeGraph(options.graph);
  const sparql = 'fault' in graph ? undefined : SparqlService.of(options.queries, graph);
  const fault = 'fault' in graph ? graph.fault : '';
  if (!sparql) options.log.error(`SPARQL is unavailable until the knowledge graph is fixed: ${fault}`);
  const unavailable = () => httpError('SPARQL_UNAVAILABLE', [fault]);

  // Content types of this scope only: the other query endpoints keep their JSON bodies.
  app.addContentTypeParser('application/sparql-query', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // Read-only and fixed for the server's life: the files are read once, at start.
  const vocabulary = sparql && vocabularyOf(sparql.triples, sparql.ontology);
  app.get('/sparql/vocabulary', async (): Promise<SparqlVocabulary> => {
    if (!vocabulary) throw unavailable();
    return vocabulary;
  });

  app.post<{ Querystring: { explain?: string } }>('/sparql', async (request, reply) => {
    if (!sparql) throw unavailable();
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
      const explanation: SparqlExplanation = { sql: translation.sql, translate_ms: Math.round(ms * 1000) / 1000 };
      return explanation;
    }
    const answer = await untilClientLeaves(request, reply, options.log, (signal) => sparql.run(text, signal));
    const accept = String(request.headers.accept ?? '');
    if (answer.kind === 'ask') {
      const result: SparqlAskResult = { head: {}, boolean: answer.value };
      return reply.type('application/sparql-results+json').send(result);
    }
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

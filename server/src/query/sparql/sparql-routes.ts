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

/** The query service and the ontology and mapping it serves SPARQL over (one configuration of the query folder). */
export interface SparqlSetup {
  queries: QueryService;
  workspace: GraphFiles;
}

/** Options of {@link sparqlRoutes}. */
export interface SparqlOptions {
  /** The configuration a request uses (it changes when the query folder reloads); the same object while it serves. */
  current: () => SparqlSetup;
  log: Logger;
}

/** What SPARQL answers with over one configuration: its service and vocabulary, or why it has none. */
interface SparqlState {
  sparql?: SparqlService;
  vocabulary?: SparqlVocabulary;
  fault: string;
}

/** The SPARQL service over `setup`'s knowledge graph; when it did not load, the fault (logged). */
function sparqlState({ queries, workspace }: SparqlSetup, log: Logger): SparqlState {
  const graph = knowledgeGraph(workspace);
  if ('fault' in graph) {
    log.error(`SPARQL is unavailable until the knowledge graph is fixed: ${graph.fault}`);
    return { fault: graph.fault };
  }
  const sparql = SparqlService.of(queries, graph);
  // Read-only while the configuration serves: the vocabulary is built once for it.
  return { sparql, vocabulary: vocabularyOf(sparql.triples, sparql.ontology), fault: '' };
}

/**
 * `POST /sparql` (mounted under `/api/v1/query`): the SPARQL protocol's query operation by POST,
 * with the query as `application/sparql-query` or a form field `query=`; `GET /sparql/vocabulary`:
 * the prefixes, classes and properties a query can use (for the console's completion). When the
 * ontology or the mapping did not load, both answer 503 naming the file, line and problem (logged when
 * the configuration is first used), while the rest of the query service serves.
 */
export async function sparqlRoutes(app: FastifyInstance, options: SparqlOptions): Promise<void> {
  const states = new WeakMap<SparqlSetup, SparqlState>();
  const state = (): SparqlState => {
    const setup = options.current();
    let known = states.get(setup);
    if (!known) states.set(setup, (known = sparqlState(setup, options.log)));
    return known;
  };
  const unavailable = (fault: string) => httpError('SPARQL_UNAVAILABLE', [fault]);
  state();

  // Content types of this scope only: the other query endpoints keep their JSON bodies.
  app.addContentTypeParser('application/sparql-query', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get('/sparql/vocabulary', async (): Promise<SparqlVocabulary> => {
    const { vocabulary, fault } = state();
    if (!vocabulary) throw unavailable(fault);
    return vocabulary;
  });

  app.post<{ Querystring: { explain?: string } }>('/sparql', async (request, reply) => {
    const { sparql, fault } = state();
    if (!sparql) throw unavailable(fault);
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

import type { FastifyInstance } from 'fastify';
import type { Config } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import { stringFields } from '../../core/string-fields.js';
import type { NaturalLanguageResult, QuestionRequest } from '../../contract/index.js';
import type { QueryService } from '../query-service.js';
import { knowledgeGraph, type QueryWorkspace } from '../query-workspace.js';
import { NaturalLanguageService } from './natural-language-service.js';
import type { NlSettings } from './nl-settings.js';
import { ontologySynonyms } from './ontology-synonyms.js';

const questionBody = {
  type: 'object',
  required: ['question'],
  properties: { question: { type: 'string', minLength: 1 } },
} as const;

/** Options of {@link naturalLanguageRoutes}. */
export interface NaturalLanguageOptions {
  queries: QueryService;
  workspace: QueryWorkspace;
  llm: Config['nlLlm'];
  log: Logger;
}

/**
 * The `natural_language` section of sources.yaml with the ontology's labels as more synonyms; without
 * the labels, and saying why in the log, when the ontology or the mapping did not load.
 */
function settingsWithLabels(workspace: QueryWorkspace, log: Logger): NlSettings {
  const graph = knowledgeGraph(workspace);
  if ('fault' in graph) {
    log.warn(`natural-language questions go without the ontology's labels: ${graph.fault}`);
    return workspace.nl;
  }
  return { ...workspace.nl, synonyms: [...workspace.nl.synonyms, ...ontologySynonyms(graph.ontology, graph.mapping)] };
}

/**
 * `POST /natural-language` `{question}` -> `{answer, generated_query, results, columns}` (service document part 2),
 * registered inside the query plugin so it shares its service and engine, with the settings and labels of
 * the query folder as loadQueryWorkspace read them.
 */
export async function naturalLanguageRoutes(app: FastifyInstance, options: NaturalLanguageOptions): Promise<void> {
  const { log } = options;
  const nl = new NaturalLanguageService(options.queries, settingsWithLabels(options.workspace, log), options.llm, log);
  app.post<{ Body: QuestionRequest }>(
    '/natural-language',
    { schema: { body: questionBody }, preValidation: stringFields('question') },
    async (request): Promise<NaturalLanguageResult> => {
      const { outcome, ...result } = await nl.ask(request.body.question);
      log.debug({ translator: nl.translator.name, scans: outcome.scans }, 'natural-language query');
      return result;
    },
  );
}

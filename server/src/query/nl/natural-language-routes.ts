import type { FastifyInstance } from 'fastify';
import type { Config } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import { stringFields } from '../../core/string-fields.js';
import type { NaturalLanguageResult, QuestionRequest } from '../../contract/index.js';
import type { QueryService } from '../query-service.js';
import { NaturalLanguageService } from './natural-language-service.js';
import { loadNlSettings } from './nl-settings.js';
import { ontologySynonyms } from './ontology-synonyms.js';

const questionBody = {
  type: 'object',
  required: ['question'],
  properties: { question: { type: 'string', minLength: 1 } },
} as const;

/**
 * `POST /natural-language` `{question}` -> `{answer, generated_query, results}` (service document part 2),
 * registered inside the query plugin so it shares its service and engine. The `natural_language`
 * section of sources.yaml (and ontology labels) is read here; a malformed section stops the server from starting.
 */
export function naturalLanguageRoutes(app: FastifyInstance, service: QueryService, config: Config, log: Logger): void {
  const settings = loadNlSettings(config.querySources);
  settings.synonyms.push(...ontologySynonyms(config.querySources));
  const nl = new NaturalLanguageService(service, settings, config.nlLlm);
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

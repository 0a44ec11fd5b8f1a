import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../core/config.js';
import { stampsOf } from '../../core/file-stamps.js';
import type { Logger } from '../../core/logger.js';
import { stringFields } from '../../core/string-fields.js';
import type {
  NaturalLanguageResult,
  QuestionRequest,
  SynonymProposal,
  SynonymSuggestion,
} from '../../contract/index.js';
import { untilClientLeaves } from '../client-abort.js';
import type { QueryService } from '../query-service.js';
import { knowledgeGraph, type QueryWorkspace } from '../query-workspace.js';
import { NaturalLanguageService } from './natural-language-service.js';
import { loadNlSettings, type NlSettings } from './nl-settings.js';
import { ontologySynonyms } from './ontology-synonyms.js';
import { proposeSynonym } from './synonym-proposal.js';

const questionBody = {
  type: 'object',
  required: ['question'],
  properties: {
    question: { type: 'string', minLength: 1 },
    prefer: { type: 'array', maxItems: 8, items: { type: 'string', minLength: 1, maxLength: 300 } },
  },
} as const;

const synonymBody = {
  type: 'object',
  required: ['words', 'means'],
  properties: {
    words: { type: 'array', minItems: 1, maxItems: 8, items: { type: 'string', minLength: 1, maxLength: 200 } },
    means: { type: 'string', minLength: 1, maxLength: 300 },
    value: { type: 'string', maxLength: 1000 },
  },
  additionalProperties: false,
} as const;

/** Options of {@link naturalLanguageRoutes}. */
export interface NaturalLanguageOptions {
  /** The query service and folder a request uses (they change when the query folder reloads). */
  current: () => { queries: QueryService; workspace: QueryWorkspace };
  /** sources.yaml: its `natural_language` section is read again when the file changes. */
  sourcesFile: string;
  llm: Config['nlLlm'];
  log: Logger;
}

/**
 * The `natural_language` section of sources.yaml with the ontology's labels as more synonyms; without
 * the labels, and saying why in the log, when the ontology or the mapping did not load.
 */
function settingsWithLabels(workspace: QueryWorkspace, nl: NlSettings, log: Logger): NlSettings {
  const graph = knowledgeGraph(workspace);
  if ('fault' in graph) {
    log.warn(`natural-language questions go without the ontology's labels: ${graph.fault}`);
    return nl;
  }
  return { ...nl, synonyms: [...nl.synonyms, ...ontologySynonyms(graph.ontology, graph.mapping)] };
}

/**
 * The NL service over the `natural_language` section of sources.yaml as it is now: a saved synonym or relationship
 * (a workbench edit, "Save as synonym") is used by the next question, without a restart, even without hot reload
 * (which reloads the whole query folder). A section that no longer reads keeps the previous one, with the fault in
 * the log.
 */
class CurrentService {
  private stamp: string | undefined;
  private generation: ReturnType<NaturalLanguageOptions['current']>;
  private service: NaturalLanguageService;

  constructor(private readonly options: NaturalLanguageOptions) {
    this.stamp = stampsOf([options.sourcesFile]);
    this.generation = options.current();
    this.service = this.create(this.generation.workspace.nl);
  }

  private create(nl: NlSettings): NaturalLanguageService {
    const { llm, log } = this.options;
    const { queries, workspace } = this.generation;
    return new NaturalLanguageService(queries, settingsWithLabels(workspace, nl, log), llm, log);
  }

  get(): NaturalLanguageService {
    const now = stampsOf([this.options.sourcesFile]);
    const generation = this.options.current();
    if (generation !== this.generation) {
      // A reload of the query folder: its sources, graph and natural_language section, read together.
      this.generation = generation;
      this.stamp = now;
      this.service = this.create(generation.workspace.nl);
    } else if (now !== this.stamp) {
      this.stamp = now;
      try {
        this.service = this.create(loadNlSettings(this.options.sourcesFile));
        this.options.log.info('natural_language section of sources.yaml read again');
      } catch (error) {
        this.options.log.warn(`sources.yaml changed and its natural_language section did not read: ${String(error)}`);
      }
    }
    return this.service;
  }
}

/**
 * `POST /natural-language` `{question, prefer?}` -> `{answer, generated_query, results, columns,
 * synonyms?}` (service
 * document part 2), and `POST /natural-language/synonym` -> sources.yaml with a synonym added (the workbench saves it
 * through the workspace file API); registered inside the query plugin so they share its service and engine.
 */
export async function naturalLanguageRoutes(app: FastifyInstance, options: NaturalLanguageOptions): Promise<void> {
  const { log } = options;
  const current = new CurrentService(options);
  app.post<{ Body: QuestionRequest }>(
    '/natural-language',
    { schema: { body: questionBody }, preValidation: stringFields('question') },
    async (request, reply): Promise<NaturalLanguageResult> => {
      const nl = current.get();
      const { outcome, ...result } = await untilClientLeaves(request, reply, log, (signal) =>
        nl.ask(request.body.question, request.body.prefer, signal),
      );
      log.debug({ translator: nl.translator.name, scans: outcome.scans }, 'natural-language query');
      return result;
    },
  );
  app.post<{ Body: SynonymSuggestion }>(
    '/natural-language/synonym',
    { schema: { body: synonymBody }, preValidation: stringFields('means', 'value') },
    async (request): Promise<SynonymProposal> => {
      const schema = await current.get().schemaContext();
      const text = await fs.promises.readFile(options.sourcesFile, 'utf8').catch(() => '');
      return {
        path: `query/${path.basename(options.sourcesFile)}`,
        ...proposeSynonym(text, schema, request.body),
      };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type {
  MockOverview,
  RecordedExchanges,
  RecordingProposalRequest,
  SpecEditProposal,
  SpecModeRequest,
} from '../contract/index.js';
import type { Config } from '../core/config.js';
import { httpError } from '../core/errors.js';
import { stringFields } from '../core/string-fields.js';
import {
  applySpecMode,
  defaultRecordingLimits,
  editSpecText,
  exampleNamePattern,
  proposeRecordedExample,
  specModeOf,
  type ExchangeRecorder,
  type Gateway,
  type ModeDefaults,
} from '../gateway/index.js';
import { gatewayFilePath } from './diagnostics.js';
import { mockTableRoutes } from './mock-table-api.js';
import { tokenCheck } from './token.js';
import { readWorkspaceFile } from './workspace-files.js';
import { resolveWorkspacePath, workspaceAreas } from './workspace-paths.js';

/** Options of {@link mockApi}. */
export interface MockApiOptions {
  config: Config;
  gateway: Gateway;
  token: string;
  /** The proxies' upstream answers (absent: nothing is recorded). */
  recordings?: ExchangeRecorder;
}

const modeBody = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    mode: { enum: ['static', 'dynamic', 'stateful', 'proxy'] },
    upstream: { type: 'string', maxLength: 2048 },
  },
  required: ['path', 'mode'],
  additionalProperties: false,
} as const;
const proposalBody = {
  type: 'object',
  properties: {
    mount: { type: 'string' },
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string', pattern: exampleNamePattern.source },
  },
  required: ['mount', 'id'],
  additionalProperties: false,
} as const;
const mountQuery = { type: 'object', properties: { mount: { type: 'string' } }, required: ['mount'] } as const;

/**
 * The workbench's mock views (`/api/workbench/mock*`): which mode each spec answers in, the edit of a
 * spec's root extensions that switches it, and the proxy's recorded upstream answers turned into a
 * proposed example. Every edit is returned as a proposal; the workbench saves it through the file API
 * like any edit, so nothing here writes.
 */
export async function mockApi(api: FastifyInstance, options: MockApiOptions): Promise<void> {
  const { config, gateway, recordings } = options;
  api.addHook('onRequest', tokenCheck(options.token, { allowQuery: false }));
  api.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  const areas = workspaceAreas(config);
  const defaults: ModeDefaults = { examples: config.mock.examples, state: config.mockModes.state };
  const specs = () => gateway.loadedUnits.filter((unit) => unit.kind === 'spec');
  const specAt = (mount: string) => {
    const unit = specs().find((u) => u.mount === mount);
    if (!unit?.document) throw httpError('SPEC_NOT_LOADED', [`is mounted at "${mount}"`]);
    return unit as typeof unit & { document: Record<string, unknown> };
  };
  const fileOf = async (workspacePath: string) => readWorkspaceFile(resolveWorkspacePath(areas, workspacePath));
  mockTableRoutes(api, gateway, areas);

  api.get('/mock', async (): Promise<MockOverview> => ({
    defaults,
    specs: specs().map((unit) => ({
      path: gatewayFilePath(unit.file),
      mount: unit.mount,
      ...specModeOf(unit.document ?? {}, defaults),
      recorded: recordings?.list(unit.mount).length ?? 0,
    })),
  }));

  api.post<{ Body: SpecModeRequest }>(
    '/mock/mode',
    { schema: { body: modeBody }, preValidation: stringFields('path', 'upstream') },
    async (request): Promise<SpecEditProposal> => {
      const { path, mode, upstream } = request.body;
      if (!specs().some((unit) => gatewayFilePath(unit.file) === path)) throw httpError('SPEC_NOT_LOADED', [path]);
      const file = await fileOf(path);
      const edited = editSpecText(file.content, path, (tree) => applySpecMode(tree, mode, defaults, upstream));
      return { path, original: file.content, proposed: edited.text };
    },
  );

  api.get<{ Querystring: { mount: string } }>(
    '/mock/recordings',
    { schema: { querystring: mountQuery } },
    async (request): Promise<RecordedExchanges> => {
      const { mount } = request.query;
      proxiedSpec(specAt(mount).document, mount, defaults);
      return { mount, exchanges: recordings?.list(mount) ?? [] };
    },
  );

  api.post<{ Body: RecordingProposalRequest }>(
    '/mock/recordings/proposal',
    { schema: { body: proposalBody }, preValidation: stringFields('mount', 'name') },
    async (request): Promise<SpecEditProposal> => {
      const { mount, id, name } = request.body;
      const unit = specAt(mount);
      proxiedSpec(unit.document, mount, defaults);
      const exchange = recordings?.get(mount, id);
      if (!exchange) throw httpError('RECORDING_NOT_FOUND', [id, mount, defaultRecordingLimits.perMount]);
      const path = gatewayFilePath(unit.file);
      const file = await fileOf(path);
      const proposal = proposeRecordedExample(file.content, path, exchange, name);
      const { text, name: chosen, violations } = proposal;
      return { path, original: file.content, proposed: text, name: chosen, violations };
    },
  );
}

/** Refuses a mount whose spec does not proxy: it records nothing. */
function proxiedSpec(document: Record<string, unknown>, mount: string, defaults: ModeDefaults): void {
  if (specModeOf(document, defaults).mode !== 'proxy') throw httpError('MOUNT_NOT_PROXIED', [mount]);
}

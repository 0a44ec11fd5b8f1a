import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { RefreshResult, WorkbenchDiagnostic, WorkbenchDiagnostics } from '../contract/index.js';
import type { Config } from '../core/config.js';
import { httpError } from '../core/errors.js';
import type { ExchangeRecorder, Gateway, SpecChanges, SpecLint } from '../gateway/index.js';
import { declareAccess, routeAreas } from '../core/routes.js';
import type { Logger } from '../core/logger.js';
import { gatewayFilePath, lintDiagnostics, workspaceDiagnostics } from './diagnostics.js';
import { EventHub } from './event-hub.js';
import { EventStreams } from './event-stream.js';
import { publishFileChanges } from './file-events.js';
import { LogLines, tapLogger } from './log-tap.js';
import { defaultRendererDir, serveRenderer } from './renderer-static.js';
import { mockApi } from './mock-api.js';
import { authInfoApi, browserLoginOrigins } from './auth-info.js';
import { captureRequests } from './request-capture.js';
import { tokenCheck } from './token.js';
import { workspaceApi } from './workspace-api.js';
import { workspaceAreas } from './workspace-paths.js';

/** Options of {@link workbenchPlugin}. */
export interface WorkbenchOptions {
  config: Config;
  gateway: Gateway;
  /** The server's root logger, whose lines the logs panel shows. */
  logger: Logger;
  /** The per-launch token every API call must carry. */
  token: string;
  /** The renderer build to serve at `/workbench/` (default: `dist/renderer` of the package). */
  rendererDir?: string;
  /** The proxies' upstream answers, for recording them as examples. */
  recordings?: ExchangeRecorder;
  /** Other parts of the server whose workspace files can be wrong (health.yaml): shown in Problems too. */
  problemSources?: ProblemSource[];
  /** What each save of a spec changed since its last good version: sent as `changes` events. */
  specChanges?: Pick<SpecChanges, 'subscribe'>;
  /** The specs' lint findings: in the diagnostics (markers, Problems) beside the load errors. */
  specLint?: Pick<SpecLint, 'findings' | 'subscribe'>;
}

/** Something besides the gateway that reads workspace files and reports what is wrong with them. */
export interface ProblemSource {
  problems(): WorkbenchDiagnostic[];
  /** `listener` runs whenever {@link problems} may have changed. */
  on(event: 'change', listener: () => void): unknown;
  off(event: 'change', listener: () => void): unknown;
}

const apiPrefix = routeAreas.workbench.prefix;

/**
 * The workspace API of the workbench under `/api/workbench` (files, diagnostics, event stream) and the
 * workbench UI at `/workbench/`. Registered only in workbench mode. Its hooks (request capture) must
 * see every route of the server, so the plugin is not encapsulated (`fastify-plugin`).
 */
async function workbench(app: FastifyInstance, options: WorkbenchOptions): Promise<void> {
  const { config, gateway, logger, token } = options;
  const problemSources = options.problemSources ?? [];
  const { specLint } = options;
  const diagnostics = () => [
    ...workspaceDiagnostics(gateway),
    ...(specLint ? lintDiagnostics(gateway, specLint.findings) : []),
    ...problemSources.flatMap((s) => s.problems()),
  ];
  declareAccess(app, routeAreas.workbench);
  declareAccess(app, routeAreas.workbenchUi);
  const hub = new EventHub();
  const logLines = new LogLines((build) => hub.publish('log', build), config.workspace);
  const untap = tapLogger(logger, logLines.take);
  const publishDiagnostics = () => {
    const current: WorkbenchDiagnostics = { diagnostics: diagnostics() };
    hub.publish('diagnostics', () => current);
  };
  const onReload = (result: RefreshResult) => {
    hub.publish('reload', () => result);
    publishDiagnostics();
  };
  gateway.on('reload', onReload);
  const unsubscribeChanges = options.specChanges?.subscribe(({ file, ...report }) =>
    hub.publish('changes', () => ({ path: gatewayFilePath(file, 'spec'), ...report })),
  );
  gateway.faults.on('fault', publishDiagnostics);
  gateway.faults.on('cleared', publishDiagnostics);
  const unsubscribeLint = specLint?.subscribe(publishDiagnostics);
  for (const source of problemSources) source.on('change', publishDiagnostics);
  captureRequests(app, gateway, hub, { token, errorLineOf: (id) => logLines.errorLineOf(id) });
  // Open editors learn of every change on disk, whether hot reload is on or not.
  const fileChanges = publishFileChanges(workspaceAreas(config), hub, logger);

  const streams = new EventStreams(hub);
  app.addHook('preClose', async () => streams.endAll());
  app.addHook('onClose', async () => {
    gateway.off('reload', onReload);
    unsubscribeChanges?.();
    unsubscribeLint?.();
    gateway.faults.off('fault', publishDiagnostics);
    gateway.faults.off('cleared', publishDiagnostics);
    for (const source of problemSources) source.off('change', publishDiagnostics);
    untap();
    await fileChanges.close();
  });

  await app.register(workspaceApi, { prefix: apiPrefix, config, gateway, token, diagnostics });
  await app.register(authInfoApi, { prefix: apiPrefix, config, token });
  await app.register(mockApi, { prefix: apiPrefix, config, gateway, token, recordings: options.recordings });

  // The workspace API serves the workbench on this server's own origin, which never sends a preflight:
  // one from another origin is refused, without any Access-Control-Allow-* header (the gateway's
  // catch-all OPTIONS route would allow any origin and echo the token header).
  app.options(`${apiPrefix}/*`, async (request, reply) =>
    reply.code(403).send(httpError('CORS_ORIGIN_REFUSED', [request.headers.origin ?? 'another origin']).body()),
  );

  // EventSource cannot send headers: this one route also takes the token as `?token=`.
  app.get(`${apiPrefix}/events`, { onRequest: tokenCheck(token, { allowQuery: true }) }, streams.serve);

  serveRenderer(app, options.rendererDir ?? defaultRendererDir(), browserLoginOrigins(config));
}

/** {@link workbench}, registered in the context of its parent. */
export const workbenchPlugin = fastifyPlugin(workbench, { name: 'workbench' });

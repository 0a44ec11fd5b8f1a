import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {
  RefreshResult,
  WorkbenchDiagnostics,
  WorkspaceFile,
  WorkspaceFileInfo,
  WorkspaceTree,
} from '../contract/index.js';
import type { Config } from '../core/config.js';
import { httpError } from '../core/errors.js';
import { declareAccess, routeAreas } from '../core/routes.js';
import { stringFields } from '../core/string-fields.js';
import type { Gateway } from '../gateway/gateway.js';
import type { Logger } from '../core/logger.js';
import { workspaceDiagnostics } from './diagnostics.js';
import { EventHub, type HubEvent } from './event-hub.js';
import { parseLogLine, tapLogger } from './log-tap.js';
import { defaultRendererDir, serveRenderer } from './renderer-static.js';
import { captureRequests } from './request-capture.js';
import { tokenCheck } from './token.js';
import {
  createWorkspaceEntry,
  deleteWorkspaceEntry,
  listWorkspace,
  maxEditableBytes,
  readWorkspaceFile,
  renameWorkspaceEntry,
  writeWorkspaceFile,
} from './workspace-files.js';
import { resolveWorkspacePath, workspaceAreas } from './workspace-paths.js';

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
}

const apiPrefix = routeAreas.workbench.prefix;
const heartbeatMs = 15_000;
/** An event stream whose client reads slower than this backlog is closed; EventSource reconnects and replays. */
const maxStreamBacklogBytes = 4 * 1024 * 1024;

const pathQuery = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } as const;
const writeBody = {
  type: 'object',
  properties: { content: { type: 'string' } },
  required: ['content'],
  additionalProperties: false,
} as const;
const createBody = {
  type: 'object',
  properties: { path: { type: 'string' }, type: { enum: ['file', 'directory'] }, content: { type: 'string' } },
  required: ['path'],
  additionalProperties: false,
} as const;
const renameBody = {
  type: 'object',
  properties: { from: { type: 'string' }, to: { type: 'string' } },
  required: ['from', 'to'],
  additionalProperties: false,
} as const;

function sseFrame(event: HubEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${event.data()}\n\n`;
}

/**
 * The workspace API of the workbench under `/api/workbench` (files, diagnostics, event stream) and the
 * workbench UI at `/workbench/`. Registered only in workbench mode. Its hooks (request capture) must
 * see every route of the server, so the plugin is not encapsulated.
 */
export async function workbenchPlugin(app: FastifyInstance, options: WorkbenchOptions): Promise<void> {
  const { config, gateway, logger } = options;
  declareAccess(app, routeAreas.workbench);
  declareAccess(app, routeAreas.workbenchUi);
  const areas = workspaceAreas(config);
  const hub = new EventHub();
  const resolve = (raw: unknown) => resolveWorkspacePath(areas, raw);
  // Temp files of atomic writes: in the server's data folder, outside the folders the watcher reloads on.
  const tempDir = path.join(config.dataDir, 'tmp');

  const untap = tapLogger(logger, (line) => {
    hub.publish('log', () => parseLogLine(line) ?? { time: Date.now(), level: 'info', msg: line.trim() });
  });
  const publishDiagnostics = () => {
    const diagnostics: WorkbenchDiagnostics = { diagnostics: workspaceDiagnostics(gateway) };
    hub.publish('diagnostics', () => diagnostics);
  };
  const onReload = (result: RefreshResult) => {
    hub.publish('reload', () => result);
    publishDiagnostics();
  };
  gateway.on('reload', onReload);
  gateway.faults.on('fault', publishDiagnostics);
  captureRequests(app, gateway, hub);

  // With hot reload the watcher picks up every change; without it, a change made here reloads at once.
  const afterChange = (...paths: string[]) => {
    if (!config.hotReload && paths.some((p) => p.startsWith('specs/') || p.startsWith('handlers/')))
      void gateway.reload();
  };

  const streams = new Set<FastifyReply>();
  app.addHook('preClose', async () => {
    for (const reply of streams) reply.raw.end();
  });
  app.addHook('onClose', async () => {
    gateway.off('reload', onReload);
    gateway.faults.off('fault', publishDiagnostics);
    untap();
  });

  await app.register(
    async (api) => {
      api.addHook('onRequest', tokenCheck(options.token, { allowQuery: false }));
      api.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store');
        return payload;
      });

      api.get('/files', async (): Promise<WorkspaceTree> => ({
        workspace: path.basename(config.workspace),
        entries: await listWorkspace(areas),
      }));

      api.get<{ Querystring: { path: string } }>(
        '/files/content',
        { schema: { querystring: pathQuery } },
        async (request): Promise<WorkspaceFile> => readWorkspaceFile(resolve(request.query.path)),
      );

      api.put<{ Querystring: { path: string }; Body: { content: string } }>(
        '/files/content',
        {
          schema: { querystring: pathQuery, body: writeBody },
          bodyLimit: maxEditableBytes * 2,
          preValidation: stringFields('content'),
        },
        async (request): Promise<WorkspaceFileInfo> => {
          const file = resolve(request.query.path);
          const written = await writeWorkspaceFile(file, request.body.content, tempDir);
          afterChange(file.path);
          return written;
        },
      );

      api.post<{ Body: { path: string; type?: 'file' | 'directory'; content?: string } }>(
        '/files',
        {
          schema: { body: createBody },
          bodyLimit: maxEditableBytes * 2,
          preValidation: stringFields('path', 'content'),
        },
        async (request, reply): Promise<WorkspaceFileInfo> => {
          const file = resolve(request.body.path);
          const created = await createWorkspaceEntry(
            file,
            request.body.type ?? 'file',
            request.body.content ?? '',
            tempDir,
          );
          afterChange(file.path);
          return reply.code(201).send(created);
        },
      );

      api.post<{ Body: { from: string; to: string } }>(
        '/files/rename',
        { schema: { body: renameBody }, preValidation: stringFields('from', 'to') },
        async (request): Promise<WorkspaceFileInfo> => {
          const from = resolve(request.body.from);
          const to = resolve(request.body.to);
          const renamed = await renameWorkspaceEntry(from, to);
          afterChange(from.path, to.path);
          return renamed;
        },
      );

      api.delete<{ Querystring: { path: string } }>(
        '/files',
        { schema: { querystring: pathQuery } },
        async (request, reply) => {
          const file = resolve(request.query.path);
          await deleteWorkspaceEntry(file);
          afterChange(file.path);
          return reply.code(204).send();
        },
      );

      api.get('/diagnostics', async (): Promise<WorkbenchDiagnostics> => ({
        diagnostics: workspaceDiagnostics(gateway),
      }));
    },
    { prefix: apiPrefix },
  );

  // The workspace API serves the workbench on this server's own origin, which never sends a preflight:
  // one from another origin is refused, without any Access-Control-Allow-* header (the gateway's
  // catch-all OPTIONS route would allow any origin and echo the token header).
  app.options(`${apiPrefix}/*`, async (request, reply) =>
    reply.code(403).send(httpError('CORS_ORIGIN_REFUSED', [request.headers.origin ?? 'another origin']).body()),
  );

  // EventSource cannot send headers: this one route also takes the token as `?token=`.
  app.get(
    `${apiPrefix}/events`,
    { onRequest: tokenCheck(options.token, { allowQuery: true }) },
    (request: FastifyRequest, reply: FastifyReply) => {
      const lastId = Number(request.headers['last-event-id']);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      raw.write('retry: 1000\n\n');
      for (const event of hub.since(Number.isInteger(lastId) ? lastId : 0)) raw.write(sseFrame(event));
      const send = (event: HubEvent) => {
        if (raw.writableLength > maxStreamBacklogBytes) raw.destroy();
        else raw.write(sseFrame(event));
      };
      const unsubscribe = hub.subscribe(send);
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), heartbeatMs);
      streams.add(reply);
      raw.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(reply);
      });
    },
  );

  serveRenderer(app, options.rendererDir ?? defaultRendererDir());
}

// Not encapsulated (what fastify-plugin does): the request capture hooks must apply to every route.
(workbenchPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

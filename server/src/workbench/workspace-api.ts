import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type {
  WorkbenchDiagnostic,
  WorkbenchDiagnostics,
  WorkspaceFile,
  WorkspaceFileInfo,
  WorkspaceSearchResult,
  WorkspaceTree,
  WorkspaceWrite,
} from '../contract/index.js';
import type { Config } from '../core/config.js';
import { stringFields } from '../core/string-fields.js';
import type { Gateway } from '../gateway/index.js';
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
import { searchWorkspace } from './workspace-search.js';
import { resolveWorkspacePath, workspaceAreas, type ResolvedPath, type WorkspaceArea } from './workspace-paths.js';

/** Options of {@link workspaceApi}. */
export interface WorkspaceApiOptions {
  config: Config;
  gateway: Gateway;
  /** The per-launch token every call must carry in its header. */
  token: string;
  /** Everything Problems lists: the gateway's diagnostics and those of other readers of the workspace. */
  diagnostics: () => WorkbenchDiagnostic[];
}

const pathQuery = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } as const;
const writeBody = {
  type: 'object',
  properties: { content: { type: 'string' }, baseVersion: { type: 'string', maxLength: 64 } },
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

/** The workspace as the API's routes reach it: its areas, where writes stage their files, and what follows an edit. */
class Workspace {
  readonly areas: WorkspaceArea[];
  /** Temp files of atomic writes: in the server's data folder, outside the folders the watcher reloads on. */
  readonly tempDir: string;

  constructor(
    private readonly config: Config,
    private readonly gateway: Gateway,
  ) {
    this.areas = workspaceAreas(config);
    this.tempDir = path.join(config.dataDir, 'tmp');
  }

  /** The write in progress of each path: a save's version check and its rename are never interleaved with another. */
  private readonly writing = new Map<string, Promise<unknown>>();

  /** Runs `write` once the writes of `file` started before it have finished. */
  async serialised<T>(file: ResolvedPath, write: () => Promise<T>): Promise<T> {
    const previous = this.writing.get(file.absolute) ?? Promise.resolve();
    const result = previous.catch(() => undefined).then(write);
    this.writing.set(file.absolute, result);
    try {
      return await result;
    } finally {
      if (this.writing.get(file.absolute) === result) this.writing.delete(file.absolute);
    }
  }

  /** The file or folder a client's workspace path names, checked. */
  resolve(raw: unknown): ResolvedPath {
    return resolveWorkspacePath(this.areas, raw);
  }

  /** With hot reload the watcher picks up every change; without it, a change made here reloads at once. */
  changed(...paths: string[]): void {
    if (!this.config.hotReload && paths.some((p) => p.startsWith('specs/') || p.startsWith('handlers/')))
      void this.gateway.reload();
  }
}

/** The routes that read: the file tree, a file's content, the gateway's diagnostics. */
function readRoutes(api: FastifyInstance, workspace: Workspace, options: WorkspaceApiOptions): void {
  api.get('/files', async (): Promise<WorkspaceTree> => ({
    workspace: path.basename(options.config.workspace),
    entries: await listWorkspace(workspace.areas),
  }));

  api.get<{ Querystring: { path: string } }>(
    '/files/content',
    { schema: { querystring: pathQuery } },
    async (request): Promise<WorkspaceFile> => readWorkspaceFile(workspace.resolve(request.query.path)),
  );

  api.get<{ Querystring: { q?: unknown } }>('/search', async (request): Promise<WorkspaceSearchResult> =>
    searchWorkspace(workspace.areas, request.query.q),
  );

  api.get('/diagnostics', async (): Promise<WorkbenchDiagnostics> => ({
    diagnostics: options.diagnostics(),
  }));
}

/** The routes that edit: write a file, create, rename and delete files and folders. */
function editRoutes(api: FastifyInstance, workspace: Workspace): void {
  api.put<{ Querystring: { path: string }; Body: WorkspaceWrite }>(
    '/files/content',
    {
      schema: { querystring: pathQuery, body: writeBody },
      bodyLimit: maxEditableBytes * 2,
      preValidation: stringFields('content', 'baseVersion'),
    },
    async (request): Promise<WorkspaceFileInfo> => {
      const file = workspace.resolve(request.query.path);
      const { content, baseVersion } = request.body;
      const written = await workspace.serialised(file, () =>
        writeWorkspaceFile(file, content, workspace.tempDir, baseVersion),
      );
      workspace.changed(file.path);
      return written;
    },
  );

  api.post<{ Body: { path: string; type?: 'file' | 'directory'; content?: string } }>(
    '/files',
    { schema: { body: createBody }, bodyLimit: maxEditableBytes * 2, preValidation: stringFields('path', 'content') },
    async (request, reply): Promise<WorkspaceFileInfo> => {
      const file = workspace.resolve(request.body.path);
      const { body } = request;
      const created = await createWorkspaceEntry(file, body.type ?? 'file', body.content ?? '', workspace.tempDir);
      workspace.changed(file.path);
      return reply.code(201).send(created);
    },
  );

  api.post<{ Body: { from: string; to: string } }>(
    '/files/rename',
    { schema: { body: renameBody }, preValidation: stringFields('from', 'to') },
    async (request): Promise<WorkspaceFileInfo> => {
      const from = workspace.resolve(request.body.from);
      const to = workspace.resolve(request.body.to);
      const renamed = await renameWorkspaceEntry(from, to);
      workspace.changed(from.path, to.path);
      return renamed;
    },
  );

  api.delete<{ Querystring: { path: string } }>(
    '/files',
    { schema: { querystring: pathQuery } },
    async (request, reply) => {
      const file = workspace.resolve(request.query.path);
      await deleteWorkspaceEntry(file);
      workspace.changed(file.path);
      return reply.code(204).send();
    },
  );
}

/**
 * The workspace API of the workbench (files and diagnostics), an encapsulated plugin: its token check
 * and `no-store` header apply to its own routes only.
 */
export async function workspaceApi(api: FastifyInstance, options: WorkspaceApiOptions): Promise<void> {
  api.addHook('onRequest', tokenCheck(options.token, { allowQuery: false }));
  api.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  const workspace = new Workspace(options.config, options.gateway);
  readRoutes(api, workspace, options);
  editRoutes(api, workspace);
}

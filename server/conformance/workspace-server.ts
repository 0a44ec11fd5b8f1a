import type { FastifyInstance } from 'fastify';
import type { RefreshResult } from '../src/contract/index.js';
import { buildServer } from '../src/main/app.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/logger.js';

/** A gateway built on a workspace folder, with its first load finished. */
export interface WorkspaceServer {
  app: FastifyInstance;
  /** The result of the first load (specs loaded and load errors). */
  firstLoad: RefreshResult;
  /** Log lines at warn level and above, for explaining a failure. */
  logs: string[];
  close(): Promise<void>;
}

/**
 * Builds the server exactly as `adaptive-gateway serve` does (defaults for everything but `env`, hot
 * reload off) on `workspace`, and waits for the first load. Used through `inject()`, never listening.
 */
export async function startWorkspaceServer(
  workspace: string,
  env: Record<string, string> = {},
): Promise<WorkspaceServer> {
  const logs: string[] = [];
  const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'warn', ...env }, { workspace });
  const logger = createLogger('warn', { write: (line: string) => void logs.push(line.trimEnd()) });
  const app = await buildServer(config, { logger });
  await app.ready();
  const firstLoad = await app.gateway.start();
  return { app, firstLoad, logs, close: () => app.close() };
}

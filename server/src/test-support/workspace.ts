import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { buildServer } from '../main/app.js';
import { loadConfig } from '../core/config.js';

/** Creates a temporary workspace with `files` (relative path -> content) and returns its folder. */
export function makeWorkspace(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-test-'));
  fs.mkdirSync(path.join(dir, 'specs'));
  fs.mkdirSync(path.join(dir, 'handlers'));
  for (const [name, content] of Object.entries(files)) writeFile(dir, name, content);
  return dir;
}

/** Writes one workspace file, creating folders as needed. */
export function writeFile(workspace: string, name: string, content: string): void {
  const file = path.join(workspace, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/**
 * The Python that runs the tests' handler modules: `TEST_HANDLER_PYTHON` when set (an interpreter with another
 * FastAPI release, to run the Python handler tests against it: docs/handlers.md), else the configured default.
 */
const testHandlerPython: Record<string, string> = process.env.TEST_HANDLER_PYTHON
  ? { HANDLER_PYTHON: process.env.TEST_HANDLER_PYTHON }
  : {};

/** A server on `workspace` with the first load finished. Hot reload is off unless `env` turns it on. */
export async function startServer(workspace: string, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent', ...testHandlerPython, ...env }, { workspace });
  const app = await buildServer(config, { logger: pino({ level: env.LOG_LEVEL ?? 'silent' }) });
  await app.ready();
  await app.gateway.start();
  return app;
}

/** Removes a temporary workspace. */
export function removeWorkspace(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A server for the tests of the calling `describe` (or file), on the workspace `createWorkspace` makes
 * (by default an empty one): started before them, closed and its workspace removed after them. Read
 * `server.app` and `server.workspace` inside the tests.
 */
export function serverForTests(
  createWorkspace: () => string = makeWorkspace,
  env: Record<string, string> = {},
): { app: FastifyInstance; workspace: string } {
  const server = {} as { app: FastifyInstance; workspace: string };
  beforeAll(async () => {
    server.workspace = createWorkspace();
    server.app = await startServer(server.workspace, env);
  });
  afterAll(async () => {
    await server.app?.close();
    removeWorkspace(server.workspace);
  });
  return server;
}

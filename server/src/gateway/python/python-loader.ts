import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../core/logger.js';
import type { UnitLoader } from '../gateway.js';
import { LoadError } from '../load-error.js';
import type { RuntimeFault } from '../runtime-faults.js';
import type { RouteEntry, WorkspaceUnit } from '../route-table.js';
import { gatewayPrefix, handlerMount } from '../model/mount.js';
import { inSpan } from '../../observability/tracing.js';
import { modeHeader } from '../mock/answer-mode.js';
import type { HttpMethod } from '../model/spec-types.js';
import { findPython, type PythonInterpreter } from './python-interpreter.js';
import { PythonWorker, type AnswerCheck, type WorkerReady } from './python-worker.js';
import { enforceContract } from '../mock/contract.js';
import { makePrivateFolder } from '../../runtime/private-folders.js';
import type { HandlerEnvSource } from '../handlers/workspace-env.js';

/** Options of the Python handler loader. */
export interface PythonLoaderOptions {
  handlersDir: string;
  /** Interpreter to use (HANDLER_PYTHON); found on the PATH when absent. */
  python?: string;
  /** The environment of workers: the deployment's and `handlers/.env` (`WorkspaceHandlerEnv`). */
  env: HandlerEnvSource;
  timeoutMs: number;
  /** Largest answer in bytes (HANDLER_RESPONSE_LIMIT). */
  responseLimit: number;
  /** HANDLER_MEMORY_MB: a worker and what it starts may hold twice this together. */
  memoryMb: number;
  log: Logger;
  /** Told when a worker is replaced for time or dies. */
  onFault(fault: Omit<RuntimeFault, 'at'>): void;
}

type Json = Record<string, unknown>;

/** The helper modules a Python handler may import: the other `.py` files beside it. */
function pythonHelpers(handlersDir: string): string[] {
  return fs
    .readdirSync(handlersDir)
    .filter((name) => name.endsWith('.py') && !name.endsWith('_handler.py'))
    .sort();
}

/** A fingerprint of a handler and the helper modules beside it: an unchanged one keeps its worker. */
function fingerprint(file: string, handlersDir: string, helpers: readonly string[]): string {
  const hash = crypto.createHash('sha256');
  for (const name of [path.basename(file), ...helpers]) {
    hash.update(name);
    hash.update(fs.readFileSync(path.join(handlersDir, name)));
  }
  return hash.digest('hex');
}

function unitOf(file: string, mount: string, worker: PythonWorker, ready: WorkerReady, log: Logger): WorkspaceUnit {
  const paths = (ready.openapi.paths ?? {}) as Record<string, Json>;
  const handler = path.basename(file);
  const routes: RouteEntry[] = ready.routes.map(({ method, path: fullPath }) => {
    const routePath = fullPath.slice(gatewayPrefix.length);
    // The span covers the Python code's run; the code gets it as the `traceparent` header of its request.
    const served =
      (check?: (request: FastifyRequest, reply: FastifyReply) => AnswerCheck): RouteEntry['handle'] =>
      (request, reply) =>
        inSpan(
          'handler call',
          () => worker.forward(request, reply.header(modeHeader, 'handler'), check?.(request, reply)),
          {
            'handler.file': file,
          },
        );
    const context = { log, handler, route: `${method} ${routePath}` };
    return {
      method: method as HttpMethod,
      path: routePath,
      source: 'handler',
      file: handler,
      operation: (paths[fullPath]?.[method.toLowerCase()] ?? {
        responses: { default: { description: 'handler result' } },
      }) as Json,
      handle: served(),
      // The handler's answers, its HTTPExceptions among them, are held to the contract as a TypeScript handler's are.
      checkedBy: (contract) =>
        served((request, reply) => (status, headers, body) => {
          const type = headers['content-type'];
          const violations = contract.check(
            status,
            headers,
            type,
            body.length === 0 ? undefined : body.toString('utf8'),
          );
          return enforceContract(contract, violations, request, reply, context);
        }),
    };
  });
  return {
    kind: 'handler',
    file: path.basename(file),
    mount,
    routes,
    document: { openapi: ready.openapi.openapi ?? '3.0.2', components: ready.openapi.components ?? {} },
    warnings: [],
  };
}

/** How long a replaced worker keeps serving requests that were dispatched just before the swap. */
const retireDelayMs = 2000;

/**
 * The loader of `<name>_handler.py` modules (a FastAPI `APIRouter` named `router`): each runs in
 * its own Python worker process, started when the file is first loaded and replaced when it or a
 * helper module beside it changes. A module that fails to import leaves its previous worker serving.
 */
export function pythonHandlersLoader(options: PythonLoaderOptions): UnitLoader & { close(): Promise<void> } {
  let interpreter: Promise<PythonInterpreter> | undefined;
  let socketDir: string | undefined;
  let sequence = 0;
  const current = new Map<
    string,
    { fingerprint: string; env: NodeJS.ProcessEnv; unit: WorkspaceUnit; worker: PythonWorker }
  >();
  const retiring = new Set<PythonWorker>();
  const retire = (name: string, worker: PythonWorker) => {
    if (current.get(name)?.worker === worker) current.delete(name);
    retiring.add(worker);
    setTimeout(() => void worker.stop().finally(() => retiring.delete(worker)), retireDelayMs).unref();
  };

  return {
    kind: 'handler',
    dir: options.handlersDir,
    accepts: (name) => name.endsWith('_handler.py') && handlerMount(name) !== undefined,
    async load(file) {
      const name = path.basename(file);
      const helpers = pythonHelpers(options.handlersDir);
      const print = fingerprint(file, options.handlersDir, helpers);
      const env = options.env.current();
      const existing = current.get(name);
      if (existing && existing.fingerprint === print && existing.env === env) return existing.unit;
      interpreter ??= findPython(options.python);
      const python = await interpreter.catch((error: Error) => {
        interpreter = undefined;
        throw new LoadError(name, error.message);
      });
      socketDir ??= makePrivateFolder('py');
      const mount = handlerMount(name)!;
      const worker = new PythonWorker({
        file,
        python: python.command,
        env,
        memoryMb: options.memoryMb,
        mount,
        socketPath: path.join(socketDir, `${++sequence}.sock`),
        timeoutMs: options.timeoutMs,
        responseLimit: options.responseLimit,
        log: options.log,
        onFault: options.onFault,
      });
      const ready = await worker.start().catch(async (error: unknown) => {
        await worker.stop(0);
        throw error;
      });
      const unit: WorkspaceUnit = {
        ...unitOf(file, mount, worker, ready, options.log),
        inputs: [file, ...helpers.map((helper) => path.join(options.handlersDir, helper))],
        dispose: () => retire(name, worker),
      };
      current.set(name, { fingerprint: print, env, unit, worker });
      return unit;
    },
    async close() {
      await Promise.all(
        [...[...current.values()].map(({ worker }) => worker), ...retiring].map((worker) => worker.stop()),
      );
      current.clear();
      retiring.clear();
      if (socketDir) fs.rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

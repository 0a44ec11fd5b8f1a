import { LoadError, NotOpenApiError } from '../load-error.js';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../runtime/module-entry.js';
import { type CompiledSpec } from './spec-types.js';
import { defaultSpecLimits, type SpecLimits } from '../../core/settings.js';

/** The spec worker, bounded in heap; its output is piped so a runaway document cannot flood the server's. */
function startWorker(workerData: unknown, limits: SpecLimits): Worker {
  return startModuleWorker(import.meta.url, './spec-worker', {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, stackSizeMb: 8 },
    stdout: true,
    stderr: true,
  });
}

type WorkerReply =
  | { ok: true; spec: CompiledSpec }
  | { ok: false; error: { message: string; line?: number; column?: number; notOpenApi: boolean } };

/**
 * Loads and compiles one spec file in a worker thread, bounded in time and memory: a reference bomb,
 * a YAML bomb or a huge file ends the worker with a {@link LoadError}, never the server.
 */
export function loadSpec(
  file: string,
  specsDir: string,
  limits: SpecLimits = defaultSpecLimits,
): Promise<CompiledSpec> {
  const name = path.basename(file);
  return new Promise((resolve, reject) => {
    const worker = startWorker({ file, specsDir, limits }, limits);
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new LoadError(name, `loading took longer than ${limits.timeoutMs} ms (reference explosion?); rejected`),
          ),
        ),
      limits.timeoutMs,
    );
    worker.once('message', (reply: WorkerReply) =>
      settle(() => {
        if (reply.ok) return resolve(reply.spec);
        const { message, line, column, notOpenApi } = reply.error;
        reject(
          notOpenApi ? new NotOpenApiError(name, message, line, column) : new LoadError(name, message, line, column),
        );
      }),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          new LoadError(
            name,
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `loading needed more than ${limits.maxHeapMb} MB of memory; rejected`
              : `loading failed: ${error.message}`,
          ),
        ),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new LoadError(name, `loader stopped unexpectedly (exit code ${code})`))),
    );
  });
}

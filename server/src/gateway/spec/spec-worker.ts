import { LoadError, NotOpenApiError } from '../load-error.js';
import { parentPort, workerData } from 'node:worker_threads';
import { compileSpec } from './spec-compile.js';
import { type SpecLimits } from '../../core/settings.js';

/** Worker entry: compiles one spec and posts `{ok, spec}` or `{ok: false, error}` back. */
const { file, specsDir, limits } = workerData as { file: string; specsDir: string; limits: SpecLimits };
try {
  const spec = await compileSpec(file, specsDir, limits);
  parentPort!.postMessage({ ok: true, spec });
} catch (error) {
  const e = error as Error;
  parentPort!.postMessage({
    ok: false,
    error: {
      message: error instanceof RangeError ? 'document is nested too deeply to process' : e.message,
      line: error instanceof LoadError ? error.line : undefined,
      column: error instanceof LoadError ? error.column : undefined,
      notOpenApi: error instanceof NotOpenApiError,
    },
  });
}

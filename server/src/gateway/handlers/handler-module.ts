import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LoadError } from '../load-error.js';
import { BundleSourceMap } from './bundle-source-map.js';
import type { CompiledHandler } from './handler-compiler.js';
import { withTimeout } from './timeout.js';

/** A handler module evaluated from its bundle. */
export interface EvaluatedHandler {
  /** The module's exports. */
  exports: Record<string, unknown>;
  /** Maps the bundle's stack frames back to the handler's files. */
  sourceMap: BundleSourceMap;
}

const instance = randomUUID().slice(0, 8);
let sequence = 0;

/**
 * Evaluates a compiled handler as a fresh module instance: the bundle is written to a file with a
 * unique name and imported, so every reload runs the current code even though Node caches modules by
 * URL. A module that throws while loading becomes a {@link LoadError} at the line that threw; one whose
 * top-level code does not settle within `timeoutMs` (a top-level `await` that never resolves) too.
 *
 * Node cannot unload an ES module: each evaluation stays in memory for the life of the process.
 */
export async function evaluateHandler(compiled: CompiledHandler, fileName: string, timeoutMs: number): Promise<EvaluatedHandler> {
  const bundlePath = path.join(os.tmpdir(), `adaptive-handler-${instance}-${++sequence}-${fileName}.mjs`);
  const sourceMap = new BundleSourceMap(bundlePath, compiled.map);
  await fs.writeFile(bundlePath, compiled.code + sourceMap.comment, { mode: 0o600 });
  try {
    const load = () => import(pathToFileURL(bundlePath).href) as Promise<Record<string, unknown>>;
    const exports = await withTimeout(load, timeoutMs, () => new LoadError(fileName, `did not finish loading within ${timeoutMs} ms`));
    return { exports, sourceMap };
  } catch (error) {
    if (error instanceof LoadError) throw error;
    throw loadFailure(error, fileName, compiled, sourceMap);
  } finally {
    await fs.rm(bundlePath, { force: true });
  }
}

/** A {@link LoadError} for an error thrown by the module's top-level code, at the line that threw. */
function loadFailure(error: unknown, fileName: string, compiled: CompiledHandler, sourceMap: BundleSourceMap): LoadError {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const position = sourceMap.firstFrameIn(stack, compiled.inputs);
  if (!position) return new LoadError(fileName, `threw while loading: ${message}`);
  if (position.file === compiled.entry) return new LoadError(fileName, `threw while loading: ${message}`, position.line, position.column);
  const where = `${path.relative(path.dirname(compiled.entry), position.file)}:${position.line}:${position.column}`;
  return new LoadError(fileName, `threw while loading: ${message} (at ${where})`);
}

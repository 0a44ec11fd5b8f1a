import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from '../../handler-sdk/index.js';
import type { Logger } from '../../logger.js';
import type { UnitLoader } from '../gateway.js';
import { LoadError } from '../load-error.js';
import type { WorkspaceUnit } from '../route-table.js';
import { handlerMount, isValidMount } from '../spec/mount.js';
import { compileHandler, sdkImportName } from './handler-compiler.js';
import { evaluateHandler } from './handler-module.js';
import { handlerRoute } from './handler-route.js';
import { handlerAjv } from './input-validator.js';

/**
 * The URL of this server's own SDK module, which compiled handlers import: `.ts` when the server runs
 * from its sources (tsx, Vitest), `.js` from `dist/`. Sharing the module shares its classes, so the
 * gateway recognises the handler's `Router` and `HTTPException`.
 */
export const sdkModuleUrl = new URL(`../../handler-sdk/index${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url).href;

/** Handler modules: `<name>_handler.ts|mts|js|mjs`. */
export function isHandlerFile(fileName: string): boolean {
  return !fileName.startsWith('.') && /_handler\.(ts|mts|js|mjs)$/.test(fileName) && handlerMount(fileName) !== undefined;
}

/** Options of the handler loader. */
export interface HandlerLoaderOptions {
  /** Bound on one request to a handler route (504 beyond) and on loading one handler module. */
  timeoutMs: number;
  log: Logger;
}

/**
 * Loads one handler module: compiles it with its helper modules, evaluates a fresh instance, and turns
 * the routes of its exported `router` into gateway routes under its mount. Throws {@link LoadError}
 * when the file does not compile, throws while loading, or exports no `Router` named `router`.
 */
export async function loadHandler(filePath: string, options: HandlerLoaderOptions): Promise<WorkspaceUnit> {
  const file = path.basename(filePath);
  const mount = handlerMount(file);
  if (mount === undefined || !isValidMount(mount)) {
    throw new LoadError(file, `the mount "${mount ?? file}" is not usable: use letters, digits, "_" and "-", and not a system path (actuator, openapi.json, swagger-ui)`);
  }
  const compiled = await compileHandler(filePath, sdkModuleUrl);
  const { exports, sourceMap } = await evaluateHandler(compiled, file, options.timeoutMs);
  const router = exports.router;
  if (router === undefined) {
    throw new LoadError(file, `does not export a router: add \`export const router = new Router();\` (import { Router } from '${sdkImportName}')`);
  }
  if (!(router instanceof Router)) {
    throw new LoadError(file, `its export \`router\` is not a Router from '${sdkImportName}'`);
  }
  const ajv = handlerAjv();
  const routes = router.routes.map((definition) => {
    try {
      return handlerRoute(definition, { file, mount, timeoutMs: options.timeoutMs, ajv, sourceMap, log: options.log });
    } catch (error) {
      throw new LoadError(file, `${definition.method} ${definition.path}: ${(error as Error).message}`);
    }
  });
  const warnings = [...compiled.warnings];
  if (routes.length === 0) warnings.push(`${file} registers no routes`);
  return { kind: 'handler', file, mount, routes, warnings };
}

/** The loader of handler modules from the handlers directory. */
export function handlerFilesLoader(handlersDir: string, options: HandlerLoaderOptions): UnitLoader {
  return {
    kind: 'handler',
    dir: handlersDir,
    accepts: isHandlerFile,
    load: (filePath) => loadHandler(filePath, options),
  };
}

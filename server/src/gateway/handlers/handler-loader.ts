import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stampsOf } from '../../core/file-stamps.js';
import type { UnitLoader } from '../gateway.js';
import { LoadError } from '../load-error.js';
import type { WorkspaceUnit } from '../route-table.js';
import type { RuntimeFault } from '../runtime-faults.js';
import { handlerMount, isValidMount } from '../model/mount.js';
import type { Logger } from '../../core/logger.js';
import type { TracingSettings } from '../../core/settings.js';
import { compileHandler } from './handler-compiler.js';
import { HandlerHost, type HandlerIsolation } from './handler-host.js';
import { HandlerProcesses } from './handler-processes.js';
import { handlerRoute } from './handler-route.js';
import { handlerAjv } from './input-validator.js';
import { makePrivateFolder } from '../../runtime/private-folders.js';
import type { HandlerEnvSource } from './workspace-env.js';

/**
 * The URL of this server's own SDK module, which compiled handlers import: `.ts` when the server runs
 * from its sources (tsx, Vitest), `.js` from `dist/`. The handler worker imports the same module, so
 * it recognises the handler's `Router` and `HTTPException`.
 */
export const sdkModuleUrl = new URL(
  `../../handler-sdk/index${path.extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
).href;

/** Handler modules: `<name>_handler.ts|mts|js|mjs`. */
export function isHandlerFile(fileName: string): boolean {
  return (
    !fileName.startsWith('.') && /_handler\.(ts|mts|js|mjs)$/.test(fileName) && handlerMount(fileName) !== undefined
  );
}

/** Options of the handler loader. */
export interface HandlerLoaderOptions extends HandlerIsolation {
  log: Logger;
  /** The environment of handler processes: the deployment's and `handlers/.env` (`WorkspaceHandlerEnv`). */
  env: HandlerEnvSource;
  /** The server's tracing, which handler processes join when it is on. */
  tracing?: TracingSettings;
  /** Told when a loaded module is stopped for time or memory, or crashes. */
  onFault(fault: Omit<RuntimeFault, 'at'>): void;
  /** Told when a module that faulted answers again. */
  onRecovered(file: string): void;
}

/**
 * Loads one handler module: compiles it with its helper modules, starts it in a process of its
 * own ({@link HandlerHost}), and turns the routes of its exported `router` into gateway routes under its
 * mount. Throws {@link LoadError} when the file does not compile, throws or hangs while loading, or
 * exports no `Router` named `router`.
 */
export async function loadHandler(
  filePath: string,
  options: HandlerLoaderOptions & { processes: HandlerProcesses; bundleDir: string },
): Promise<{ unit: WorkspaceUnit; host: HandlerHost; inputs: string[] }> {
  const file = path.basename(filePath);
  const mount = handlerMount(file);
  if (mount === undefined || !isValidMount(mount)) {
    throw new LoadError(
      file,
      `the mount "${mount ?? file}" is not usable: use letters, digits, "_" and "-", and not a system path ` +
        `(actuator, openapi.json, swagger-ui)`,
    );
  }
  const compiled = await compileHandler(filePath, sdkModuleUrl);
  const host = await HandlerHost.start(compiled, { ...options, file, mount });
  const ajv = handlerAjv();
  const routes = host.routes.map((definition, index) => {
    try {
      return handlerRoute(host, index, ajv, file, options.log);
    } catch (error) {
      void host.close();
      throw new LoadError(file, `${definition.method} ${definition.path}: ${(error as Error).message}`);
    }
  });
  const warnings = [...compiled.warnings];
  if (routes.length === 0) warnings.push(`${file} registers no routes`);
  return { unit: { kind: 'handler', file, mount, routes, warnings }, host, inputs: compiled.inputs };
}

/**
 * The loader of handler modules from the handlers directory. A module whose file and helper modules
 * are unchanged since its last load keeps its process: a refresh does not run its top level again.
 */
export function handlerFilesLoader(handlersDir: string, options: HandlerLoaderOptions): UnitLoader {
  /** The last load of each file: the stamps of what it compiled and its environment; unchanged, the same unit. */
  const loaded = new Map<string, { files: string[]; stamps: string; env: NodeJS.ProcessEnv; unit: WorkspaceUnit }>();
  /** Every module still running, whether or not its load could be cached. */
  const hosts = new Set<HandlerHost>();
  const processes = new HandlerProcesses(options);
  /** Where bundles are written; made at the first load, removed on close. */
  let bundleDir: string | undefined;
  return {
    kind: 'handler',
    dir: handlersDir,
    accepts: isHandlerFile,
    unloadedReason:
      'handler files must be named <name>_handler.ts (or .mts, .js, .mjs, .py); a helper module is loaded ' +
      'only when a handler imports it',
    async load(filePath) {
      const previous = loaded.get(filePath);
      const env = options.env.current();
      if (previous && previous.env === env && stampsOf(previous.files) === previous.stamps) return previous.unit;
      const rootBefore = stampsOf([filePath]);
      bundleDir ??= makePrivateFolder('handlers');
      const { unit: loadedUnit, host, inputs } = await loadHandler(filePath, { ...options, processes, bundleDir });
      hosts.add(host);
      // A retired module stays a host of this loader until its last calls are answered, so close() stops it too.
      void host.closed.then(() => hosts.delete(host));
      // Replaced or removed, the module's host is retired: forget it, so it is never handed out again.
      const unit: WorkspaceUnit = {
        ...loadedUnit,
        inputs,
        dispose: () => {
          if (loaded.get(filePath)?.unit === unit) loaded.delete(filePath);
          host.retire();
        },
      };
      // A file saved while the module compiled must not be taken for the version that compiled.
      const files = [filePath, ...inputs];
      const stamps = stampsOf(files);
      if (stamps !== undefined && stampsOf([filePath]) === rootBefore)
        loaded.set(filePath, { files, stamps, env, unit });
      else loaded.delete(filePath);
      return unit;
    },
    drain(withinMs) {
      for (const host of hosts) host.drain(withinMs);
    },
    async close() {
      processes.close();
      await Promise.all([...hosts].map((host) => host.close()));
      hosts.clear();
      loaded.clear();
      if (bundleDir !== undefined) fs.rmSync(bundleDir, { recursive: true, force: true });
      bundleDir = undefined;
    },
  };
}

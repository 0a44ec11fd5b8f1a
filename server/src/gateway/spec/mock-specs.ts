import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../core/logger.js';
import type { UnitLoader } from '../gateway.js';
import { specFilesLoader, type SpecLoaderOptions } from './spec-loader-unit.js';

/**
 * The spec loaders of mock mode (`serve petstore.yaml other/ ...`): a folder serves all its OpenAPI
 * files, files named in one folder are read by one loader that reads just them; every spec is served
 * at its own `servers[0].url` path. `$ref`s of a named file may reach files of its folder.
 */
export function mockSpecLoaders(
  specPaths: readonly string[],
  log: Logger,
  options: Pick<SpecLoaderOptions, 'validateRequests' | 'limits' | 'mock' | 'modes'>,
): UnitLoader[] {
  const folders = new Set<string>();
  const namedFiles = new Map<string, Set<string>>();
  for (const specPath of specPaths) {
    if (fs.statSync(specPath).isDirectory()) {
      folders.add(specPath);
      continue;
    }
    const dir = path.dirname(specPath);
    if (!namedFiles.has(dir)) namedFiles.set(dir, new Set());
    namedFiles.get(dir)!.add(path.basename(specPath));
  }
  const loaders = [...folders].map((dir) => specFilesLoader(dir, log, { ...options, atServerPath: true }));
  for (const [dir, only] of namedFiles) {
    // A folder given as well already serves its files.
    if (!folders.has(dir)) loaders.push(specFilesLoader(dir, log, { ...options, atServerPath: true, only }));
  }
  return loaders;
}

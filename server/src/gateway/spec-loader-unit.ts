import type { Logger } from '../logger.js';
import type { UnitLoader } from './gateway.js';
import { isSpecFile } from './spec/mount.js';
import { loadSpec } from './spec/spec-loader.js';
import { defaultSpecLimits, type SpecLimits } from './spec/spec-types.js';
import { specUnit } from './spec-routes.js';

/** The loader of `<name>.openapi.yaml|yml|json` files from the specs directory. */
export function specFilesLoader(specsDir: string, log: Logger, options: { validateRequests: boolean; limits?: SpecLimits }): UnitLoader {
  return {
    kind: 'spec',
    dir: specsDir,
    accepts: isSpecFile,
    load: async (filePath) => specUnit(await loadSpec(filePath, specsDir, options.limits ?? defaultSpecLimits), { validateRequests: options.validateRequests, log }),
  };
}

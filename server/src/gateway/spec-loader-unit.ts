import type { Logger } from '../logger.js';
import { stampsOf } from './file-stamps.js';
import type { UnitLoader } from './gateway.js';
import type { WorkspaceUnit } from './route-table.js';
import { isSpecFile } from './spec/mount.js';
import { loadSpec } from './spec/spec-loader.js';
import { defaultSpecLimits, type SpecLimits } from './spec/spec-types.js';
import { specUnit } from './spec-routes.js';

/**
 * The loader of `<name>.openapi.yaml|yml|json` files from the specs directory. A spec whose file
 * and referenced files are unchanged since its last load keeps its compiled routes, so a reload
 * caused by a handler edit costs nothing for the specs.
 */
export function specFilesLoader(specsDir: string, log: Logger, options: { validateRequests: boolean; limits?: SpecLimits }): UnitLoader {
  const loaded = new Map<string, { files: string[]; stamps: string; unit: WorkspaceUnit }>();
  return {
    kind: 'spec',
    dir: specsDir,
    accepts: isSpecFile,
    async load(filePath) {
      const previous = loaded.get(filePath);
      if (previous && stampsOf(previous.files) === previous.stamps) return previous.unit;
      const rootBefore = stampsOf([filePath]);
      const spec = await loadSpec(filePath, specsDir, options.limits ?? defaultSpecLimits);
      const unit = specUnit(spec, { validateRequests: options.validateRequests, log });
      // A file saved while the spec compiled must not be taken for the version that compiled.
      const stamps = stampsOf(spec.files);
      if (stamps !== undefined && stampsOf([filePath]) === rootBefore) loaded.set(filePath, { files: spec.files, stamps, unit });
      else loaded.delete(filePath);
      return unit;
    },
  };
}

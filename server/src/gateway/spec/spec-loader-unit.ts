import path from 'node:path';
import type { Logger } from '../../core/logger.js';
import { digestOf, stampsOf } from '../../core/file-stamps.js';
import type { UnitLoader } from '../gateway.js';
import type { WorkspaceUnit } from '../route-table.js';
import { NotOpenApiError, SkippedFileError } from '../load-error.js';
import { isNamedAsSpec, isSpecFile, mountFromServerPath } from '../model/mount.js';
import { loadSpec } from './spec-loader.js';
import { defaultSpecLimits, type SpecLimits } from '../../core/settings.js';
import { specUnit } from './spec-routes.js';
import type { MockContext } from '../mock/mock-modes.js';
import type { ContractEnforcement } from '../mock/contract.js';
import type { WorkspaceMockSettings } from '../../core/settings.js';
import { isMockTableFile, mockTablePath, readMockTable } from '../mock/mock-table.js';

/** How a spec loader reads its folder. */
export interface SpecLoaderOptions {
  validateRequests: boolean;
  /** Workspace-wide mock settings; default: static examples. */
  mock?: WorkspaceMockSettings;
  limits?: SpecLimits;
  /**
   * Only these file names of the folder (files named on the command line); a named file that is not
   * OpenAPI 3.x is an error. Unset: every `.yaml`, `.yml` and `.json` file, and one that is not
   * OpenAPI 3.x is skipped unless it is named `*.openapi.*`.
   */
  only?: ReadonlySet<string>;
  /** Serve each spec at the path of its `servers[0].url` (mock mode) instead of `/api/adaptive/<mount>`. */
  atServerPath?: boolean;
  /** Stateful resources and the proxy, for specs that turn them on. */
  modes?: MockContext;
  /** How handler routes overriding a spec's are held to its responses; default: off. */
  contractEnforce?: ContractEnforcement;
}

/**
 * The loader of the OpenAPI files of one folder (the workspace's specs folder, or a folder or files
 * given to `serve`). A spec whose file and referenced files are unchanged since its last load keeps
 * its compiled routes, so a reload caused by a handler edit costs nothing for the specs.
 */
export function specFilesLoader(specsDir: string, log: Logger, options: SpecLoaderOptions): UnitLoader {
  const { only } = options;
  const loaded = new Map<
    string,
    { files: string[]; stamps: string; digest: string | undefined; table: string; unit: WorkspaceUnit }
  >();
  return {
    kind: 'spec',
    dir: specsDir,
    accepts: only ? (name) => only.has(name) : (name) => isSpecFile(name) && !isMockTableFile(name),
    companion: isMockTableFile,
    unloadedReason: only ? undefined : 'spec files must end in .yaml, .yml or .json (<name>.openapi.yaml)',
    async load(filePath) {
      const previous = loaded.get(filePath);
      // The mock table beside the spec may come, change or go without the spec changing.
      const tableStamp = stampsOf([mockTablePath(filePath)]) ?? 'none';
      if (previous && previous.table === tableStamp) {
        const stamps = stampsOf(previous.files);
        if (stamps === previous.stamps) return previous.unit;
        // Touched but not changed (a ConfigMap roll rewrites every file): the same content compiles the same.
        if (stamps !== undefined && previous.digest !== undefined && digestOf(previous.files) === previous.digest) {
          previous.stamps = stamps;
          return previous.unit;
        }
      }
      const rootBefore = stampsOf([filePath]);
      const spec = await loadSpec(filePath, specsDir, options.limits ?? defaultSpecLimits).catch((error: unknown) => {
        const name = path.basename(filePath);
        if (error instanceof NotOpenApiError && !only && !isNamedAsSpec(name))
          throw new SkippedFileError(name, error.message);
        throw error;
      });
      if (options.atServerPath) spec.mount = mountFromServerPath(spec.document.servers);
      const { table: mockTable, problem: tableProblem } = readMockTable(filePath);
      const unit: WorkspaceUnit = {
        ...specUnit(spec, {
          validateRequests: options.validateRequests,
          log,
          mock: options.mock,
          modes: options.modes,
          mockTable,
          contractEnforce: options.contractEnforce,
        }),
        inputs: spec.files,
        ...(spec.documentJson === undefined ? {} : { documentJson: spec.documentJson }),
        ...(tableProblem ? { companionProblems: [tableProblem] } : {}),
      };
      // A file saved while the spec compiled must not be taken for the version that compiled.
      const stamps = stampsOf(spec.files);
      if (stamps !== undefined && stampsOf([filePath]) === rootBefore)
        loaded.set(filePath, { files: spec.files, stamps, digest: digestOf(spec.files), table: tableStamp, unit });
      else loaded.delete(filePath);
      return unit;
    },
  };
}

// The gateway as the rest of the server sees it: the composition root and the workbench import
// this file only, so the loaders, the spec path and the mock modes stay the gateway's own business.
import type { Config } from '../core/config.js';
import { serverSpecLimits } from '../core/settings.js';
import type { Logger } from '../core/logger.js';
import { Gateway, type UnitLoader } from './gateway.js';
import { handlerFilesLoader } from './handlers/handler-loader.js';
import { WorkspaceHandlerEnv } from './handlers/workspace-env.js';
import type { MockContext } from './mock/mock-modes.js';
import { MockStateStore } from './mock/state-store.js';
import { ExchangeRecorder } from './mock/recordings.js';
import { pythonHandlersLoader } from './python/python-loader.js';
import { RuntimeFaults, type RuntimeFault } from './runtime-faults.js';
import { mockSpecLoaders } from './spec/mock-specs.js';
import { gatewayPrefix } from './model/mount.js';
import { specFilesLoader } from './spec/spec-loader-unit.js';
import { watchWorkspace } from './watcher.js';

export { Gateway } from './gateway.js';
export { gatewayPlugin } from './gateway-plugin.js';
export { answerDirectly } from './direct-answers.js';
export { preferredCoding, type ContentCoding } from './served-document.js';
export { gatewayPrefix, isSpecFile } from './model/mount.js';
export { modeHeader } from './mock/answer-mode.js';
export { violationsHeader } from './mock/contract.js';
export { faultHeader } from './mock/faults.js';
export { mockTableName, parseMockTable, ruleHeader } from './mock/mock-table.js';
export { pythonWorkerScript } from './python/python-worker.js';
export { ExchangeRecorder, defaultRecordingLimits } from './mock/recordings.js';
export { editSpecText } from './mock/spec-edits.js';
export { applySpecMode, specModeOf, type ModeDefaults } from './mock/spec-mode.js';
export { exampleNamePattern, proposeRecordedExample } from './mock/record-proposal.js';
export { LintPool } from './lint/lint-pool.js';
export { SpecLint, type SpecLintResult } from './lint/spec-lint.js';
export { findRulesetFile } from './lint/ruleset-file.js';
export type { LintFinding } from './lint/spectral-linter.js';
export {
  failsAt,
  formatFindings,
  lintFormats,
  parseSeverity,
  workflowCommand,
  type LintFormat,
} from './lint/lint-report.js';

/** A gateway with what its plugin serves besides the route table. */
export interface AssembledGateway {
  gateway: Gateway;
  /** The stateful mocks of every mount, which the actuator's state reset empties; it outlives reloads. */
  mockState: MockStateStore;
  /** The proxies' upstream answers kept for recording; in workbench mode only. */
  recordings?: ExchangeRecorder;
}

/**
 * The workspace loaders: specs first, then handlers (whose routes override spec routes); in mock
 * mode, the spec files and folders given to `serve` only.
 */
function workspaceLoaders(config: Config, log: Logger, faults: RuntimeFaults, modes: MockContext): UnitLoader[] {
  const specOptions = {
    validateRequests: config.validateRequests,
    mock: config.mock,
    modes,
    limits: serverSpecLimits(config.specMaxHeapMb, config.workbench),
    contractEnforce: config.contractEnforce,
  };
  if (config.specPaths.length > 0) return mockSpecLoaders(config.specPaths, log, specOptions);
  const isolation = {
    timeoutMs: config.handlerTimeoutMs,
    loadTimeoutMs: config.handlerLoadTimeoutMs,
    memoryMb: config.handlerMemoryMb,
    responseLimit: config.handlerResponseLimit,
  };
  const onFault = (fault: Omit<RuntimeFault, 'at'>) => faults.record(fault);
  const env = new WorkspaceHandlerEnv(config.handlerEnv, config.handlersDir, log);
  return [
    specFilesLoader(config.specsDir, log, specOptions),
    handlerFilesLoader(config.handlersDir, {
      ...isolation,
      env,
      tracing: config.observability.tracing,
      log,
      onFault,
      onRecovered: (file) => faults.clear(file),
    }),
    pythonHandlersLoader({
      handlersDir: config.handlersDir,
      python: config.handlerPython,
      env,
      timeoutMs: config.handlerTimeoutMs,
      responseLimit: config.handlerResponseLimit,
      memoryMb: config.handlerMemoryMb,
      log,
      onFault,
    }),
  ];
}

/**
 * The gateway of `config`: the workspace's specs, TypeScript and Python handlers under `/api/adaptive`,
 * or in mock mode (`config.specPaths`) the specs given to `serve`, each at its own server path. Nothing
 * is loaded yet: `gateway.start()` loads the workspace.
 */
export function createGateway(config: Config, log: Logger): AssembledGateway {
  const faults = new RuntimeFaults();
  const routePrefix = config.specPaths.length > 0 ? '' : gatewayPrefix;
  const mockState = new MockStateStore({ maxItems: config.mockModes.maxItems, maxBytes: config.mockModes.maxBytes });
  const recordings = config.workbench ? new ExchangeRecorder() : undefined;
  const modes: MockContext = { settings: config.mockModes, store: mockState, routePrefix, recorder: recordings };
  const gateway = new Gateway(workspaceLoaders(config, log, faults, modes), log, routePrefix, faults);
  return { gateway, mockState, recordings };
}

/** Reloads `gateway` whenever a file it serves changes (hot reload): the spec paths in mock mode, else the workspace.
 * */
export function watchGatewayFiles(config: Config, gateway: Gateway, log: Logger): { close(): Promise<void> } {
  const watched = config.specPaths.length > 0 ? config.specPaths : [config.specsDir, config.handlersDir];
  return watchWorkspace(watched, () => void gateway.reload(), log);
}
export { diffSpecs, type SpecChange } from './diff/spec-diff.js';
export { changeKinds, verdictOf, type ChangeKind, type ChangeVerdict } from './diff/change-kinds.js';
export { bundleSpec } from './spec/spec-bundle.js';
export { parseSpecText } from './spec/spec-source.js';
export { SpecChanges, type SpecChangeReport } from './diff/spec-changes.js';

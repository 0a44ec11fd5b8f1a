/** Wire shapes of the gateway: `/api/adaptive/` and its actuator. */

/** A file that failed to load, with the position of the fault when known. */
export interface LoadProblem {
  file: string;
  message: string;
  line?: number;
  column?: number;
}

/** `POST /api/adaptive/actuator/refresh`. */
export interface RefreshResult {
  status: 'success' | 'partial' | 'failed';
  message: string;
  handlers: string[];
  specs: string[];
  errors: LoadProblem[];
  /** Files of the specs folder that are not OpenAPI 3.x documents (files other specs reference, ...). */
  skipped: SkippedFile[];
  /**
   * Where the designer works (workbench mode), the lint findings of every spec once the lint of this reload is
   * done; they never decide `status`, and a spec with lint errors serves.
   */
  lint?: SpecLintFinding[];
}

/** One Spectral finding of a spec of the workspace. */
export interface SpecLintFinding {
  /** The spec file, as in {@link RefreshResult.specs}. */
  file: string;
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  rule: string;
  message: string;
}

/** A file a loader left out, and why. */
export interface SkippedFile {
  file: string;
  reason: string;
}

/** One route of `GET /api/adaptive/`. */
export interface EndpointInfo {
  method: string;
  path: string;
  source: 'spec' | 'handler';
  file: string;
}

/** `GET /api/adaptive/`. */
export interface GatewayInfo {
  name: string;
  version: string;
  specs: string[];
  handlers: string[];
  endpoints: EndpointInfo[];
}

/** `POST /api/adaptive/actuator/state/reset`: the mounts whose stateful mocks were emptied. */
export interface StateResetResult {
  reset: string[];
}

/** `GET /api/adaptive/actuator/info`. */
export interface ActuatorInfo {
  app: { name: string; version: string };
  node: string;
  uptime_s: number;
  hot_reload: boolean;
  auth_enabled: boolean;
  specs: string[];
  handlers: string[];
}

/**
 * Which mode produced an answer of the gateway, sent in its `x-adaptive-mode` header: the spec's examples
 * (`static`), generated values (`dynamic`), stateful resources, the validating proxy, or a handler.
 */
export type AnswerMode = 'static' | 'dynamic' | 'stateful' | 'proxy' | 'handler';

/** One contract violation the validating proxy (or a stateful answer) reports in `x-adaptive-violations`. */
export interface ContractViolationInfo {
  in: 'request' | 'response';
  path: string;
  rule: string;
}

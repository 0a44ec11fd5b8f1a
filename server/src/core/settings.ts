/**
 * The settings shapes of the features that `Config` carries, with their defaults. They live in the
 * kernel so that loading the configuration needs no feature module.
 */

/** Bounds on the work of loading one spec; a spec that exceeds one is rejected with a clear error. */
export interface SpecLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
  maxFiles: number;
  maxDepth: number;
  maxNodes: number;
  maxYamlAliases: number;
  maxPaths: number;
  maxExampleBytes: number;
  timeoutMs: number;
  maxHeapMb: number;
  /**
   * How long a spec worker is kept after its last job for the next one. A worker holds tens of MB (its own
   * heap, the compiled meta-schema); the workbench, where every save loads a spec, keeps it longer.
   */
  workerIdleMs: number;
}

export const defaultSpecLimits: SpecLimits = {
  maxFileBytes: 16 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxFiles: 5000,
  maxDepth: 1000,
  maxNodes: 5_000_000,
  maxYamlAliases: 1000,
  maxPaths: 25_000,
  maxExampleBytes: 4 * 1024 * 1024,
  timeoutMs: 20_000,
  maxHeapMb: 1024,
  workerIdleMs: 2_000,
};

/** How long the workbench keeps an idle spec worker: every save loads a spec, and a new worker costs ~0.3 s. */
const workbenchWorkerIdleMs = 5 * 60_000;

/** The bounds every spec of a server is loaded within: `maxHeapMb` per worker, workers kept longer in the workbench. */
export function serverSpecLimits(maxHeapMb: number, workbench: boolean): SpecLimits {
  return { ...defaultSpecLimits, maxHeapMb, ...(workbench ? { workerIdleMs: workbenchWorkerIdleMs } : {}) };
}

/** How generated routes answer by default: the spec's examples, or values generated from the schemas. */
export type ExampleMode = 'static' | 'dynamic';

/** The workspace-wide mock settings (`MOCK_EXAMPLES`, `MOCK_MAX_DELAY_MS`, `MOCK_SECURITY`). */
export interface WorkspaceMockSettings {
  examples: ExampleMode;
  /** No delay, configured or asked for, exceeds this. */
  maxDelayMs: number;
  /** Whether the mock answers 401 to requests without the credentials a spec's `security` asks for
   * (`MOCK_SECURITY`); a spec's `x-adaptive-security` overrides it. */
  security: SecurityMode;
}

/** `enforce`: check that a request carries the credentials its operation's `security` names; `off`: never. */
export type SecurityMode = 'enforce' | 'off';

export const defaultWorkspaceMock: WorkspaceMockSettings = { examples: 'static', maxDelayMs: 30_000, security: 'off' };

/** How many failed logins a user name may have from one address: a burst, then a steady rate (scaled per scope). */
export interface LoginThrottleSettings {
  /** Failed attempts allowed at once (`AUTH_LOGIN_BURST`). */
  burst: number;
  /** Attempts regained per minute after that (`AUTH_LOGIN_PER_MINUTE`). */
  perMinute: number;
}

/** What the server tells its operators. */
export interface ObservabilitySettings {
  /** Count requests into `http_server_requests_seconds` (`METRICS_ENABLED`, default true). */
  metrics: boolean;
  /** A second port that serves only `/metrics` (`METRICS_PORT`); unset = none. */
  metricsPort?: number;
  /** One info line per request (`ACCESS_LOG`, default true). */
  accessLog: boolean;
  /** OpenTelemetry traces, from the standard `OTEL_*` variables; unset = off (the SDK is not loaded). */
  tracing?: TracingSettings;
}

/** Where and how traces are exported (OTLP over HTTP, JSON). */
export interface TracingSettings {
  /** The traces endpoint: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  url: string;
  serviceName: string;
  sampler: (typeof traceSamplers)[number];
  /** The ratio of the `traceidratio` samplers (`OTEL_TRACES_SAMPLER_ARG`, default 1). */
  ratio: number;
}

/** The values of `OTEL_TRACES_SAMPLER` the server understands (the specification's built-in samplers). */
export const traceSamplers = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

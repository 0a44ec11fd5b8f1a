import path from 'node:path';
import { hostName, loopbackHosts } from './allowed-hosts.js';
import type { LoginThrottleSettings } from './settings.js';
import { defaultSpecLimits } from './settings.js';
import { defaultWorkspaceMock, type WorkspaceMockSettings } from './settings.js';
import { traceSamplers, type ObservabilitySettings, type TracingSettings } from './settings.js';
import { declaredHandlerNames, handlerEnvironment } from './handler-env.js';

/** The validated settings of one server. Every field comes from an environment variable (DESIGN.md §3). */
export interface Config {
  port: number;
  host: string;
  workspace: string;
  specsDir: string;
  handlersDir: string;
  /**
   * OpenAPI files and folders given to `serve` (mock mode): served at the paths of their own
   * `servers[0].url`, without handlers. Empty: the workspace's `specs/` and `handlers/`.
   */
  specPaths: string[];
  hotReload: boolean;
  /** Heap bound of each spec loader worker thread, in MB (`SPEC_MAX_HEAP_MB`); a spec needing more is rejected. */
  specMaxHeapMb: number;
  /** Validate requests to generated routes against their spec (400 on failure). */
  validateRequests: boolean;
  /** How handler routes that override a spec route are held to its responses (`CONTRACT_ENFORCE`). */
  contractEnforce: 'off' | 'report' | 'strict';
  /** How generated routes answer by default (`MOCK_EXAMPLES`) and the longest mock delay (`MOCK_MAX_DELAY_MS`). */
  mock: WorkspaceMockSettings;
  /** Stateful mocking and the validating proxy (docs/mocking-stateful-proxy.md). */
  mockModes: MockModeSettings;
  authEnabled: boolean;
  /** Identity provider, Basic users and token exchange (DESIGN.md §5); read even when enforcement is off. */
  auth: AuthSettings;
  dataDir: string;
  /** Extra health components (health.yaml). */
  healthConfig: string;
  /** Query sources and engine (query/sources.yaml); a missing file means no sources. */
  querySources: string;
  /**
   * The query folder: the folder of `querySources`, where ontology.ttl and mapping.ttl sit beside it,
   * and the workbench's `query` area.
   */
  queryDir: string;
  /** Where async query jobs live (`QUERY_JOB_STORE`, `QUERY_JOB_STORE_PREFIX`, `QUERY_JOB_LEASE_MS`). */
  queryJobs: JobStoreSettings;
  corsOrigins: '*' | string[];
  /** Host names a request's `Host` may carry (`ALLOWED_HOSTS`; any port), or `*` for any. */
  allowedHosts: '*' | string[];
  bodyLimit: number;
  requestTimeoutMs: number;
  /** After SIGTERM, how long open connections are still served (answers with `Connection: close`) before closing. */
  shutdownDrainMs: number;
  handlerTimeoutMs: number;
  /** Time a handler module's top-level code has to finish loading (a load error beyond). */
  handlerLoadTimeoutMs: number;
  /** Heap of one handler module's worker thread, in MB; beyond, its routes answer 503 while it restarts. */
  handlerMemoryMb: number;
  /** Largest JSON answer of a handler route, in bytes (500 beyond). */
  handlerResponseLimit: number;
  /** Python interpreter for `*_handler.py` modules; found on the PATH when unset. */
  handlerPython?: string;
  /** The whole environment of handler processes: a few basics and the names in `HANDLER_ENV` (core/handler-env.ts). */
  handlerEnv: Record<string, string>;
  logLevel: LogLevel;
  /** Serve the workspace API and the browser workbench (`--workbench`). */
  workbench: boolean;
  /** The workbench token (`WORKBENCH_TOKEN`); unset = a new random one at every start. */
  workbenchToken?: string;
  /** OpenAI-compatible chat-completions server for natural-language questions (`NL_LLM_*`); unset = the embedded
   * translator. */
  nlLlm?: { baseUrl: string; model: string; apiKey?: string };
  /** Metrics, access log and traces (docs/operations.md). */
  observability: ObservabilitySettings;
}

/** Workspace settings of stateful mocking and of the validating proxy. */
export interface MockModeSettings {
  /** Serve every spec's resources statefully (`MOCK_STATE`); a spec's `x-adaptive-state` overrides it. */
  state: boolean;
  /** Items one collection may hold (`MOCK_STATE_MAX_ITEMS`). */
  maxItems: number;
  /** Bytes of JSON one mount's state may hold (`MOCK_STATE_MAX_BYTES`). */
  maxBytes: number;
  /** Time an upstream has to send its whole answer (`PROXY_TIMEOUT_MS`). */
  proxyTimeoutMs: number;
  /** Largest upstream answer relayed (`PROXY_RESPONSE_LIMIT`). */
  proxyResponseLimit: number;
}

/** Settings of authentication and token exchange. */
export interface AuthSettings {
  /** Platform issuer: `IDP_ISSUER`, else `$IDP_SERVER_URL/realms/$IDP_REALM`; unset without an identity provider. */
  issuer?: string;
  /** The gateway's own client at the identity provider (`IDP_CLIENT_ID` / `IDP_CLIENT_SECRET`). */
  clientId?: string;
  clientSecret?: string;
  /** The workbench's public client for the browser login, code + PKCE (`IDP_WORKBENCH_CLIENT_ID`). */
  workbenchClientId?: string;
  /** Audience platform tokens must carry (`IDP_AUDIENCE`, default the client id). */
  audience?: string;
  /** Local Basic users, htpasswd-style with bcrypt hashes (`AUTH_USERS_FILE`). */
  usersFile?: string;
  /** Trusted external issuers whose tokens are exchanged (`OIDC_TOKEN_EXCHANGE_IDP_LIST`); empty when unset or
   * `default`. */
  exchangeIssuers: string[];
  /** Audiences an external token must carry before it is exchanged (`OIDC_TOKEN_EXCHANGE_AUDIENCE`); empty = not
   * checked locally. */
  exchangeAudiences: string[];
  /** Cache exchanged tokens (`ENABLE_REDIS_CACHING`, default true): in Redis with `REDIS_URL`, in memory without. */
  cacheExchangedTokens: boolean;
  redisUrl?: string;
  /** Prefix of every Redis key this server writes (`REDIS_KEY_PREFIX`). */
  redisKeyPrefix: string;
  /** Longest wait for an answer of an identity provider (`IDP_TIMEOUT_MS`). */
  idpTimeoutMs: number;
  /** Shortest time between two JWKS fetches caused by an unknown key id (`IDP_JWKS_COOLDOWN_MS`). */
  jwksCooldownMs: number;
  /** Failed Basic logins allowed per user name from one address (`AUTH_LOGIN_BURST`, `AUTH_LOGIN_PER_MINUTE`). */
  loginThrottle: LoginThrottleSettings;
}

/**
 * The async job store: this server's folder (`DATA_DIR/query-jobs`), or Redis or PostgreSQL shared by
 * every replica, with the prefix of its keys or tables. `leaseMs`: how long a replica holds a running
 * job without a heartbeat before another replica marks it FAILED.
 */
export interface JobStoreSettings {
  store: { kind: 'folder' } | { kind: 'redis' | 'postgres'; url: string };
  prefix: string;
  leaseMs: number;
}

/** The default: jobs in this server's folder, with the default prefix and lease. */
export const localJobStore: JobStoreSettings = { store: { kind: 'folder' }, prefix: 'adaptive_jobs', leaseMs: 15_000 };

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Flags of `adaptive-gateway serve`; each one overrides its environment variable. */
export interface ConfigFlags {
  port?: string;
  host?: string;
  workspace?: string;
  workbench?: boolean;
  /** The files and folders named after `serve` (mock mode). */
  specPaths?: string[];
}

/** A setting with a bad value: names the variable and what it accepts. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    value: string,
    accepted: string,
  ) {
    super(`${variable}=${JSON.stringify(value)} is not valid: expected ${accepted}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(name, raw, 'true or false');
}

/**
 * A fixed workbench token, so an open workbench page reconnects by itself after a restart. As strong as the
 * random one should be: at least 24 URL-safe characters.
 */
function readWorkbenchToken(env: Env): string | undefined {
  const raw = env.WORKBENCH_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (!/^[A-Za-z0-9_-]{24,256}$/.test(raw))
    throw new ConfigError('WORKBENCH_TOKEN', '…', '24 to 256 characters A-Z a-z 0-9 _ -');
  return raw;
}

function readInteger(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConfigError(name, raw, `an integer from ${min} to ${max}`);
  }
  return value;
}

const sizeUnits: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Parses a size such as `1mb`, `512kb` or `1048576` into bytes. */
export function parseSize(name: string, raw: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?b?)\s*$/i.exec(raw);
  const unit = match ? sizeUnits[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined) throw new ConfigError(name, raw, 'a size such as 1mb, 512kb or a byte count');
  const bytes = Math.floor(Number(match[1]) * unit);
  if (bytes < 1) throw new ConfigError(name, raw, 'a size of at least 1 byte');
  return bytes;
}

/**
 * `ALLOWED_HOSTS`: `*`, or host names (`.example.com` also matches its subdomains). Default: the loopback
 * names and the bound host, which a DNS-rebinding page cannot send (its Host is its own name).
 */
function readAllowedHosts(raw: string | undefined, host: string): Config['allowedHosts'] {
  if (raw?.trim() === '*') return '*';
  const names = (raw ?? '').split(',').map((name) => name.trim().toLowerCase());
  const listed = names.filter(Boolean);
  if (listed.length === 0) return [...new Set([...loopbackHosts, hostName(host)])];
  const valid = /^(\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])$/;
  if (!listed.every((name) => valid.test(name)))
    throw new ConfigError('ALLOWED_HOSTS', raw!, '* or comma-separated host names such as gateway.example.com');
  return listed;
}

function readCorsOrigins(raw: string | undefined): Config['corsOrigins'] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return '*';
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(
        'CORS_ORIGINS',
        raw,
        '* or a comma-separated list of origins such as https://app.example.com',
      );
    }
  }
  return origins;
}

function readHttpUrl(name: string, raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username) {
    throw new ConfigError(name, raw, 'an http(s) URL without query, fragment or user info');
  }
  return raw;
}

function readList(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The platform issuer from `IDP_ISSUER`, or from `IDP_SERVER_URL` and `IDP_REALM` (both or neither). */
function readIssuer(env: Env): string | undefined {
  if (env.IDP_ISSUER) return readHttpUrl('IDP_ISSUER', env.IDP_ISSUER.trim());
  const server = env.IDP_SERVER_URL?.trim();
  const realm = env.IDP_REALM?.trim();
  if (!server && !realm) return undefined;
  if (!server) throw new ConfigError('IDP_SERVER_URL', '', 'the identity provider URL when IDP_REALM is set');
  if (!realm) throw new ConfigError('IDP_REALM', '', 'the realm name when IDP_SERVER_URL is set');
  if (!/^[\w.-]+$/.test(realm))
    throw new ConfigError('IDP_REALM', realm, 'a realm name (letters, digits, ".", "_", "-")');
  return `${readHttpUrl('IDP_SERVER_URL', server).replace(/\/+$/, '')}/realms/${realm}`;
}

function readAuthSettings(env: Env, workspace: string): AuthSettings {
  const clientId = env.IDP_CLIENT_ID?.trim() || undefined;
  const exchangeList = readList(env, 'OIDC_TOKEN_EXCHANGE_IDP_LIST');
  // The service document: a list that contains `default` ignores every provider.
  const exchangeIssuers = exchangeList.includes('default')
    ? []
    : exchangeList.map((url) => readHttpUrl('OIDC_TOKEN_EXCHANGE_IDP_LIST', url));
  const issuer = readIssuer(env);
  const usersFile = env.AUTH_USERS_FILE ? path.resolve(workspace, env.AUTH_USERS_FILE) : undefined;
  const audience = env.IDP_AUDIENCE?.trim() || clientId;
  if (readBoolean(env, 'AUTH_ENABLED', false)) {
    if (!issuer && !usersFile) {
      throw new ConfigError(
        'AUTH_ENABLED',
        env.AUTH_ENABLED ?? '',
        'false, or credentials to check: an identity provider (IDP_SERVER_URL and IDP_REALM, or IDP_ISSUER) or ' +
          'AUTH_USERS_FILE',
      );
    }
    if (issuer && !audience)
      throw new ConfigError(
        'IDP_AUDIENCE',
        '',
        'the audience of platform tokens (or IDP_CLIENT_ID) when an identity provider is configured',
      );
    if (exchangeIssuers.length > 0 && !(issuer && clientId && env.IDP_CLIENT_SECRET)) {
      throw new ConfigError(
        'OIDC_TOKEN_EXCHANGE_IDP_LIST',
        env.OIDC_TOKEN_EXCHANGE_IDP_LIST ?? '',
        'default, or a platform identity provider and its client (IDP_SERVER_URL, IDP_REALM, IDP_CLIENT_ID, ' +
          'IDP_CLIENT_SECRET) to exchange at',
      );
    }
  }
  return {
    issuer,
    clientId,
    clientSecret: env.IDP_CLIENT_SECRET || undefined,
    workbenchClientId: issuer ? env.IDP_WORKBENCH_CLIENT_ID?.trim() || undefined : undefined,
    audience,
    usersFile,
    exchangeIssuers,
    exchangeAudiences: readList(env, 'OIDC_TOKEN_EXCHANGE_AUDIENCE'),
    cacheExchangedTokens: readBoolean(env, 'ENABLE_REDIS_CACHING', true),
    redisUrl: env.REDIS_URL ? readRedisUrl(env.REDIS_URL) : undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'adaptive-gateway:',
    idpTimeoutMs: readInteger('IDP_TIMEOUT_MS', env.IDP_TIMEOUT_MS ?? '5000', 50, 120_000),
    jwksCooldownMs: readInteger('IDP_JWKS_COOLDOWN_MS', env.IDP_JWKS_COOLDOWN_MS ?? '30000', 0, 3_600_000),
    loginThrottle: {
      burst: readInteger('AUTH_LOGIN_BURST', env.AUTH_LOGIN_BURST ?? '10', 1, 1_000_000),
      perMinute: readInteger('AUTH_LOGIN_PER_MINUTE', env.AUTH_LOGIN_PER_MINUTE ?? '10', 1, 1_000_000),
    },
  };
}

function readNlLlm(env: Env): Config['nlLlm'] {
  const baseUrl = env.NL_LLM_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  if (!/^https?:\/\/\S+$/.test(baseUrl))
    throw new ConfigError('NL_LLM_BASE_URL', baseUrl, 'an http(s) URL such as http://localhost:11434/v1');
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model: env.NL_LLM_MODEL?.trim() || 'gpt-4o-mini',
    apiKey: env.NL_LLM_API_KEY || undefined,
  };
}

/** Hides the password of a URL shown in an error message. */
const withoutPassword = (raw: string): string => raw.replace(/\/\/[^@/]*@/, '//***@');

function readRedisUrl(raw: string): string {
  if (!/^rediss?:\/\/\S*$/.test(raw.trim()))
    throw new ConfigError('REDIS_URL', withoutPassword(raw), 'a redis:// or rediss:// URL');
  return raw.trim();
}

function readJobStoreSettings(env: Env): JobStoreSettings {
  const raw = env.QUERY_JOB_STORE?.trim() ?? '';
  const scheme = /^([a-z]+):\/\/\S+$/.exec(raw)?.[1];
  let store: JobStoreSettings['store'];
  if (raw === '') store = { kind: 'folder' };
  else if (scheme === 'redis' || scheme === 'rediss') store = { kind: 'redis', url: raw };
  else if (scheme === 'postgres' || scheme === 'postgresql') store = { kind: 'postgres', url: raw };
  else
    throw new ConfigError(
      'QUERY_JOB_STORE',
      withoutPassword(raw),
      'unset (the local folder), a redis:// or rediss:// URL, or a postgres:// URL',
    );
  const prefix = env.QUERY_JOB_STORE_PREFIX?.trim() || localJobStore.prefix;
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(prefix))
    throw new ConfigError(
      'QUERY_JOB_STORE_PREFIX',
      prefix,
      'a lower-case identifier (letters, digits, "_"; at most 40)',
    );
  const leaseMs = readInteger(
    'QUERY_JOB_LEASE_MS',
    env.QUERY_JOB_LEASE_MS ?? String(localJobStore.leaseMs),
    1000,
    600_000,
  );
  return { store, prefix, leaseMs };
}

function readMockSettings(env: Env): WorkspaceMockSettings {
  const examples = (env.MOCK_EXAMPLES ?? defaultWorkspaceMock.examples).trim().toLowerCase();
  if (examples !== 'static' && examples !== 'dynamic')
    throw new ConfigError('MOCK_EXAMPLES', env.MOCK_EXAMPLES ?? '', 'static or dynamic');
  const maxDelayMs = readInteger(
    'MOCK_MAX_DELAY_MS',
    env.MOCK_MAX_DELAY_MS ?? String(defaultWorkspaceMock.maxDelayMs),
    0,
    600_000,
  );
  const security = (env.MOCK_SECURITY ?? defaultWorkspaceMock.security).trim().toLowerCase();
  if (security !== 'enforce' && security !== 'off')
    throw new ConfigError('MOCK_SECURITY', env.MOCK_SECURITY ?? '', 'enforce or off');
  return { examples, maxDelayMs, security };
}

function readContractEnforce(raw: string | undefined): Config['contractEnforce'] {
  const value = (raw ?? 'report').trim().toLowerCase();
  if (value !== 'off' && value !== 'report' && value !== 'strict')
    throw new ConfigError('CONTRACT_ENFORCE', raw ?? '', 'off, report or strict');
  return value;
}

function readHandlerEnv(env: Env): Record<string, string> {
  const declared = declaredHandlerNames(env.HANDLER_ENV);
  if (!declared)
    throw new ConfigError('HANDLER_ENV', env.HANDLER_ENV ?? '', 'a comma-separated list of variable names');
  return handlerEnvironment(env, declared);
}

/** Tracing is on with an OTLP endpoint, unless the SDK is disabled or the traces exporter is `none`. */
function readTracing(env: Env): TracingSettings | undefined {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if ((!base && !traces) || readBoolean(env, 'OTEL_SDK_DISABLED', false)) return undefined;
  if ((env.OTEL_TRACES_EXPORTER ?? 'otlp').trim() === 'none') return undefined;
  const url = traces
    ? readHttpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces)
    : `${readHttpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', base!).replace(/\/+$/, '')}/v1/traces`;
  const sampler = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim();
  if (!(traceSamplers as readonly string[]).includes(sampler))
    throw new ConfigError('OTEL_TRACES_SAMPLER', sampler, traceSamplers.join(', '));
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  if (!(ratio >= 0 && ratio <= 1))
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG', env.OTEL_TRACES_SAMPLER_ARG ?? '', 'a ratio from 0 to 1');
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'adaptive-gateway';
  return { url, serviceName, sampler: sampler as TracingSettings['sampler'], ratio };
}

function readObservability(env: Env): ObservabilitySettings {
  return {
    metrics: readBoolean(env, 'METRICS_ENABLED', true),
    metricsPort: env.METRICS_PORT ? readInteger('METRICS_PORT', env.METRICS_PORT, 0, 65535) : undefined,
    accessLog: readBoolean(env, 'ACCESS_LOG', true),
    tracing: readTracing(env),
  };
}

/**
 * Reads the configuration from the environment and the CLI flags. Throws {@link ConfigError} on the first
 * bad value, naming the variable and the accepted values.
 */
export function loadConfig(env: Env = process.env, flags: ConfigFlags = {}): Config {
  const workspace = path.resolve(flags.workspace ?? env.WORKSPACE ?? '.');
  const inWorkspace = (name: string, fallback: string) => path.resolve(workspace, env[name] || fallback);
  const logLevel = (env.LOG_LEVEL ?? 'info').trim().toLowerCase();
  if (!(logLevels as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', env.LOG_LEVEL ?? '', logLevels.join(', '));
  }
  const host = flags.host ?? env.HOST ?? '127.0.0.1';
  if (flags.specPaths?.length && readBoolean(env, 'AUTH_ENABLED', false)) {
    throw new ConfigError(
      'AUTH_ENABLED',
      env.AUTH_ENABLED ?? '',
      'false when serving spec files at their own paths (mock mode has no authentication)',
    );
  }
  if (host.trim() === '') throw new ConfigError('HOST', host, 'a host name or IP address');
  const querySources = inWorkspace('QUERY_SOURCES', 'query/sources.yaml');
  return {
    port: readInteger(flags.port !== undefined ? '--port' : 'PORT', flags.port ?? env.PORT ?? '8080', 0, 65535),
    host,
    workspace,
    specsDir: inWorkspace('SPECS_DIR', 'specs'),
    handlersDir: inWorkspace('HANDLERS_DIR', 'handlers'),
    specPaths: (flags.specPaths ?? []).map((file) => path.resolve(file)),
    hotReload: readBoolean(env, 'HOT_RELOAD', true),
    specMaxHeapMb: readInteger(
      'SPEC_MAX_HEAP_MB',
      env.SPEC_MAX_HEAP_MB ?? String(defaultSpecLimits.maxHeapMb),
      64,
      16_384,
    ),
    validateRequests: readBoolean(env, 'REQUEST_VALIDATION', true),
    contractEnforce: readContractEnforce(env.CONTRACT_ENFORCE),
    mock: readMockSettings(env),
    mockModes: {
      state: readBoolean(env, 'MOCK_STATE', false),
      maxItems: readInteger('MOCK_STATE_MAX_ITEMS', env.MOCK_STATE_MAX_ITEMS ?? '1000', 1, 1_000_000),
      maxBytes: parseSize('MOCK_STATE_MAX_BYTES', env.MOCK_STATE_MAX_BYTES ?? '16mb'),
      proxyTimeoutMs: readInteger('PROXY_TIMEOUT_MS', env.PROXY_TIMEOUT_MS ?? '10000', 10, 600_000),
      proxyResponseLimit: parseSize('PROXY_RESPONSE_LIMIT', env.PROXY_RESPONSE_LIMIT ?? '8mb'),
    },
    authEnabled: readBoolean(env, 'AUTH_ENABLED', false),
    auth: readAuthSettings(env, workspace),
    dataDir: inWorkspace('DATA_DIR', '.adaptive'),
    healthConfig: inWorkspace('HEALTH_CONFIG', 'health.yaml'),
    querySources,
    queryDir: path.dirname(querySources),
    queryJobs: readJobStoreSettings(env),
    corsOrigins: readCorsOrigins(env.CORS_ORIGINS),
    allowedHosts: readAllowedHosts(env.ALLOWED_HOSTS, host),
    bodyLimit: parseSize('BODY_LIMIT', env.BODY_LIMIT ?? '1mb'),
    requestTimeoutMs: readInteger('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS ?? '30000', 100, 3_600_000),
    shutdownDrainMs: readInteger('SHUTDOWN_DRAIN_MS', env.SHUTDOWN_DRAIN_MS ?? '5000', 0, 600_000),
    handlerTimeoutMs: readInteger('HANDLER_TIMEOUT_MS', env.HANDLER_TIMEOUT_MS ?? '10000', 10, 3_600_000),
    handlerLoadTimeoutMs: readInteger('HANDLER_LOAD_TIMEOUT_MS', env.HANDLER_LOAD_TIMEOUT_MS ?? '5000', 100, 600_000),
    handlerMemoryMb: readInteger('HANDLER_MEMORY_MB', env.HANDLER_MEMORY_MB ?? '512', 16, 65_536),
    handlerResponseLimit: parseSize('HANDLER_RESPONSE_LIMIT', env.HANDLER_RESPONSE_LIMIT ?? '8mb'),
    handlerPython: env.HANDLER_PYTHON || undefined,
    handlerEnv: readHandlerEnv(env),
    logLevel: logLevel as LogLevel,
    workbench: flags.workbench ?? readBoolean(env, 'WORKBENCH', false),
    workbenchToken: readWorkbenchToken(env),
    nlLlm: readNlLlm(env),
    observability: readObservability(env),
  };
}

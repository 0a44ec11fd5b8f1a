import path from 'node:path';

/** The validated settings of one server. Every field comes from an environment variable (DESIGN.md §3). */
export interface Config {
  port: number;
  host: string;
  workspace: string;
  specsDir: string;
  handlersDir: string;
  hotReload: boolean;
  /** Validate requests to generated routes against their spec (400 on failure). */
  validateRequests: boolean;
  authEnabled: boolean;
  dataDir: string;
  /** Extra health components (health.yaml). */
  healthConfig: string;
  corsOrigins: '*' | string[];
  bodyLimit: number;
  requestTimeoutMs: number;
  handlerTimeoutMs: number;
  logLevel: LogLevel;
  /** Serve the workspace API and the browser workbench (`--workbench`). */
  workbench: boolean;
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Flags of `adaptive-gateway serve`; each one overrides its environment variable. */
export interface ConfigFlags {
  port?: string;
  host?: string;
  workspace?: string;
  workbench?: boolean;
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

function readCorsOrigins(raw: string | undefined): Config['corsOrigins'] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return '*';
  const origins = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError('CORS_ORIGINS', raw, '* or a comma-separated list of origins such as https://app.example.com');
    }
  }
  return origins;
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
  if (host.trim() === '') throw new ConfigError('HOST', host, 'a host name or IP address');
  return {
    port: readInteger(flags.port !== undefined ? '--port' : 'PORT', flags.port ?? env.PORT ?? '8080', 0, 65535),
    host,
    workspace,
    specsDir: inWorkspace('SPECS_DIR', 'specs'),
    handlersDir: inWorkspace('HANDLERS_DIR', 'handlers'),
    hotReload: readBoolean(env, 'HOT_RELOAD', true),
    validateRequests: readBoolean(env, 'REQUEST_VALIDATION', true),
    authEnabled: readBoolean(env, 'AUTH_ENABLED', false),
    dataDir: inWorkspace('DATA_DIR', '.adaptive'),
    healthConfig: inWorkspace('HEALTH_CONFIG', 'health.yaml'),
    corsOrigins: readCorsOrigins(env.CORS_ORIGINS),
    bodyLimit: parseSize('BODY_LIMIT', env.BODY_LIMIT ?? '1mb'),
    requestTimeoutMs: readInteger('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS ?? '30000', 100, 3_600_000),
    handlerTimeoutMs: readInteger('HANDLER_TIMEOUT_MS', env.HANDLER_TIMEOUT_MS ?? '10000', 10, 3_600_000),
    logLevel: logLevel as LogLevel,
    workbench: flags.workbench ?? readBoolean(env, 'WORKBENCH', false),
  };
}

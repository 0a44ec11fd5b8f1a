import { readConfigFile, type ConfigFile } from '../core/config-file.js';
import { httpCheck, type HttpCheckSettings } from './checks/http-check.js';
import type { S3CheckSettings } from './checks/s3-check.js';
import { tcpCheck } from './checks/tcp-check.js';
import type { Check, Contributor } from './health-types.js';
import { isObject } from '../core/json.js';

type Json = Record<string, unknown>;

const namePattern = /^[A-Za-z0-9_-]+$/;
const checkKinds = ['http', 'tcp', 'postgres', 'redis', 's3'] as const;
type CheckKind = (typeof checkKinds)[number];

/** Reads a required string setting of a check. */
function requireString(config: ConfigFile, settings: Json, key: string, at: (string | number)[]): string {
  const value = settings[key];
  if (typeof value !== 'string' || value.trim() === '')
    return config.fail([...at, key], `"${key}" must be a non-empty string`);
  return value;
}

/**
 * The check a health.yaml entry declares. The database, Redis and S3 clients are imported at the first check of
 * their kind: a server whose health.yaml names none (every mock server) never loads them.
 */
function checkOf(config: ConfigFile, kind: CheckKind, settings: unknown, at: (string | number)[]): Check {
  if (!isObject(settings)) return config.fail(at, `"${kind}" must be a mapping of settings`);
  switch (kind) {
    case 'http': {
      const url = requireString(config, settings, 'url', at);
      if (!/^https?:\/\//.test(url))
        config.fail([...at, 'url'], `"url" must be an http(s) URL, got ${JSON.stringify(url)}`);
      const status = settings.status;
      const statuses = status === undefined ? [] : [status].flat();
      if (!statuses.every((s) => Number.isInteger(s) && (s as number) >= 100 && (s as number) <= 599))
        config.fail([...at, 'status'], '"status" must be an HTTP status code or a list of them');
      if (settings.field !== undefined && typeof settings.field !== 'string')
        config.fail([...at, 'field'], '"field" must be a dot path such as data.count');
      return (signal) => httpCheck(settings as unknown as HttpCheckSettings, signal);
    }
    case 'tcp': {
      const host = requireString(config, settings, 'host', at);
      const port = Number(settings.port);
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        config.fail([...at, 'port'], '"port" must be a port number');
      return (signal) => tcpCheck({ host, port }, signal);
    }
    case 'postgres': {
      const url = requireString(config, settings, 'url', at);
      return async (signal) => (await import('./checks/postgres-check.js')).postgresCheck({ url }, signal);
    }
    case 'redis': {
      const url = requireString(config, settings, 'url', at);
      return async (signal) => (await import('./checks/redis-check.js')).redisCheck({ url }, signal);
    }
    case 's3': {
      requireString(config, settings, 'bucket', at);
      const s3 = settings as unknown as S3CheckSettings;
      return async (signal) => (await import('./checks/s3-check.js')).s3Check(s3, signal);
    }
  }
}

function contributorOf(config: ConfigFile, node: unknown, at: (string | number)[]): Contributor {
  if (!isObject(node))
    return config.fail(at, 'a component is a mapping with one check (http, tcp, postgres, redis, s3) or "components"');
  const kinds = checkKinds.filter((k) => k in node);
  const allowed = new Set<string>([...checkKinds, 'components', 'timeout_ms', 'description']);
  for (const key of Object.keys(node))
    if (!allowed.has(key))
      config.fail([...at, key], `unknown setting "${key}"; expected one of ${[...allowed].join(', ')}`);
  if (kinds.length + ('components' in node ? 1 : 0) !== 1)
    config.fail(at, 'a component has exactly one check (http, tcp, postgres, redis, s3) or "components"');
  let timeoutMs: number | undefined;
  if (node.timeout_ms !== undefined) {
    timeoutMs = Number(node.timeout_ms);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000)
      config.fail([...at, 'timeout_ms'], '"timeout_ms" must be a whole number of milliseconds from 1 to 600000');
  }
  if ('components' in node) return { components: componentsOf(config, node.components, [...at, 'components']) };
  return { check: checkOf(config, kinds[0], node[kinds[0]], [...at, kinds[0]]), timeoutMs };
}

function componentsOf(config: ConfigFile, node: unknown, at: (string | number)[]): Record<string, Contributor> {
  if (!isObject(node)) return config.fail(at, '"components" must be a mapping of names to components');
  const components: Record<string, Contributor> = {};
  for (const [name, child] of Object.entries(node)) {
    if (!namePattern.test(name))
      config.fail([...at, name], `component name "${name}" may use letters, digits, "-" and "_" only`);
    components[name] = contributorOf(config, child, [...at, name]);
  }
  return components;
}

/**
 * Reads `health.yaml`: extra health components, each a check (`http`, `tcp`, `postgres`, `redis`,
 * `s3`) or a group of `components`. A missing file means no extra components; a bad one throws a
 * ConfigFileError naming the line. Names may not replace the built-in components in `reserved`.
 */
export function loadHealthConfig(
  file: string,
  reserved: readonly string[],
  env?: Record<string, string | undefined>,
): Record<string, Contributor> {
  const config = readConfigFile(file, env);
  if (!config || config.value === null || config.value === undefined) return {};
  if (!isObject(config.value)) return config.fail([], 'health.yaml must be a mapping with a "components" key');
  for (const key of Object.keys(config.value))
    if (key !== 'components') config.fail([key], `unknown top-level key "${key}"; expected "components"`);
  const components =
    config.value.components === undefined || config.value.components === null
      ? {}
      : componentsOf(config, config.value.components, ['components']);
  for (const name of Object.keys(components))
    if (reserved.includes(name)) config.fail(['components', name], `"${name}" is a built-in component`);
  return components;
}

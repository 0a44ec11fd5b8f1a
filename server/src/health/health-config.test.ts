import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../core/config-file.js';
import { loadHealthConfig } from './health-config.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-health-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function load(text: string, env: Record<string, string> = {}) {
  const file = path.join(dir, `health-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, text);
  return loadHealthConfig(file, ['gateway'], env);
}

function failure(text: string, env: Record<string, string> = {}): ConfigFileError {
  try {
    load(text, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigFileError);
    return error as ConfigFileError;
  }
  throw new Error('expected the file to be rejected');
}

describe('loadHealthConfig', () => {
  it('reads nested components with every check kind and substitutes variables', () => {
    const components = load(
      `components:
  v1audit:
    components:
      eventcount: {http: {url: "\${AUDIT_URL}/events/count", field: count}, timeout_ms: 500}
      openapi: {http: {url: "\${AUDIT_URL:-http://unused}/openapi.json", status: [200, 204]}}
  db: {postgres: {url: "postgres://127.0.0.1/x"}}
  cache: {redis: {url: "\${REDIS:-redis://127.0.0.1:6379}"}}
  port: {tcp: {host: 127.0.0.1, port: 4222}}
  lake: {s3: {bucket: data, endpoint: "http://127.0.0.1:9000"}}
`,
      { AUDIT_URL: 'http://audit:8080' },
    );
    expect(Object.keys(components)).toEqual(['v1audit', 'db', 'cache', 'port', 'lake']);
    expect(Object.keys(components.v1audit.components!)).toEqual(['eventcount', 'openapi']);
    expect(components.v1audit.components!.eventcount.timeoutMs).toBe(500);
    expect(typeof components.db.check).toBe('function');
  });

  it('treats a missing file as no extra components', () => {
    expect(loadHealthConfig(path.join(dir, 'absent.yaml'), [])).toEqual({});
  });

  it.each([
    ['components:\n  a: {http: {url: ftp://x}}\n', 2, /must be an http\(s\) URL/],
    ['components:\n  a:\n    tcp: {host: h, port: 99999}\n', 3, /port number/],
    ['components:\n  a: {http: {url: "http://x"}, redis: {url: r}}\n', 2, /exactly one check/],
    ['components:\n  a: {ping: {}}\n', 2, /unknown setting "ping"/],
    ['components:\n  ok: {tcp: {host: h, port: 1}}\n  gateway: {tcp: {host: h, port: 1}}\n', 3, /built-in component/],
    ['components:\n  "bad name": {tcp: {host: h, port: 1}}\n', 2, /letters, digits/],
    ['components:\n  a: {http: {url: "${NOPE}/x"}}\n', 2, /NOPE is not set/],
    ['components:\n  a: {http: {url: http://x}\n', 3, /Flow map/],
    ['checks: {}\n', 1, /unknown top-level key "checks"/],
  ])('rejects a bad file, naming the line (%#)', (text, line, message) => {
    const error = failure(text);
    expect(error.line).toBe(line);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/^health-\w+\.yaml:\d+:\d+: /);
  });
});

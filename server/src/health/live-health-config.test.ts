import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { HealthNode, WorkbenchDiagnostics } from '../contract/index.js';
import { loadConfig } from '../core/config.js';
import { buildServer } from '../main/app.js';
import { makeWorkspace, removeWorkspace } from '../test-support/workspace.js';
import { LiveHealthConfig } from './live-health-config.js';

const token = 'live-health-token-0123456789abcdef';

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** A logger whose lines are kept, parsed. */
function recordingLogger(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

const twoComponents = 'components:\n  a: {tcp: {host: 127.0.0.1, port: 1}}\n  b: {tcp: {host: 127.0.0.1, port: 2}}\n';
const badPort = 'components:\n  a: {tcp: {host: 127.0.0.1, port: 1}}\n  b: {tcp: {host: 127.0.0.1, port: x}}\n';

describe('health.yaml reloaded without a restart', () => {
  let workspace: string;
  let live: LiveHealthConfig | undefined;
  afterEach(async () => {
    await live?.close();
    live = undefined;
    removeWorkspace(workspace);
  });

  it('applies a good change, keeps the last good components on a bad one and reports its line', async () => {
    workspace = makeWorkspace({ 'health.yaml': 'components:\n  a: {tcp: {host: 127.0.0.1, port: 1}}\n' });
    const file = path.join(workspace, 'health.yaml');
    const { logger, lines } = recordingLogger();
    live = new LiveHealthConfig({
      file,
      workspacePath: 'health.yaml',
      reserved: ['gateway'],
      log: logger,
      watch: true,
      debounceMs: 20,
    });
    expect(Object.keys(live.components())).toEqual(['a']);
    await new Promise((resolve) => setTimeout(resolve, 300));

    fs.writeFileSync(file, twoComponents);
    await until(() => Object.keys(live!.components()).length === 2);
    expect(Object.keys(live.components())).toEqual(['a', 'b']);
    expect(live.problems()).toEqual([]);

    fs.writeFileSync(file, badPort);
    await until(() => live!.problems().length > 0);
    expect(Object.keys(live.components())).toEqual(['a', 'b']);
    expect(live.problems()).toEqual([
      expect.objectContaining({
        path: 'health.yaml',
        severity: 'error',
        line: 3,
        message: expect.stringMatching(/port/),
      }),
    ]);
    const logged = lines.find((line) => line.level === 50);
    expect(logged).toMatchObject({ line: 3, msg: expect.stringMatching(/^health\.yaml:3:\d+: .*port.*last good/) });

    fs.writeFileSync(file, twoComponents.replace('port: 2', 'port: 3'));
    await until(() => live!.problems().length === 0);
    expect(live.problems()).toEqual([]);
  });

  it('is what /api/health serves, and what Problems lists, in a running server', async () => {
    workspace = makeWorkspace({ 'health.yaml': 'components: {}\n', 'query/sources.yaml': 'sources: []\n' });
    const config = loadConfig(
      { HOT_RELOAD: 'true', LOG_LEVEL: 'silent', WORKBENCH: 'true', HEALTH_CONFIG: 'health.yaml' },
      { workspace },
    );
    const app = await buildServer(config, { logger: pino({ level: 'silent' }), workbenchToken: token });
    live = { close: () => app.close() } as LiveHealthConfig;
    await app.ready();
    await app.gateway.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const health = async () => (await app.inject({ url: '/api/health' })).json<HealthNode>();
    const problems = async () =>
      (
        await app.inject({ url: '/api/workbench/diagnostics', headers: { 'x-workbench-token': token } })
      ).json<WorkbenchDiagnostics>().diagnostics;

    fs.writeFileSync(path.join(workspace, 'health.yaml'), twoComponents);
    await until(async () => Object.keys((await health()).components ?? {}).includes('b'));
    expect(Object.keys((await health()).components ?? {})).toEqual(expect.arrayContaining(['gateway', 'a', 'b']));

    fs.writeFileSync(path.join(workspace, 'health.yaml'), badPort);
    await until(async () => (await problems()).some((d) => d.path === 'health.yaml'));
    expect((await problems()).find((d) => d.path === 'health.yaml')).toMatchObject({ severity: 'error', line: 3 });
    expect(Object.keys((await health()).components ?? {})).toEqual(expect.arrayContaining(['a', 'b']));

    // The query folder reloads too, but the async job pool reads its settings only at start: an edit says so.
    fs.writeFileSync(path.join(workspace, 'query/sources.yaml'), 'sources: []\nasync: {workers: 3}\n');
    await until(async () => (await problems()).some((d) => d.path === 'query/sources.yaml'));
    expect((await problems()).find((d) => d.path === 'query/sources.yaml')).toMatchObject({
      severity: 'warning',
      message: expect.stringMatching(/^async\.workers changed .*restart the server/),
    });
    fs.writeFileSync(path.join(workspace, 'query/sources.yaml'), 'sources: []\n');
    await until(async () => !(await problems()).some((d) => d.path === 'query/sources.yaml'));
    expect((await problems()).some((d) => d.path === 'query/sources.yaml')).toBe(false);
  });
});

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceFile, WorkspaceFileChange, WorkspaceFileInfo } from '../contract/index.js';
import { loadConfig } from '../core/config.js';
import { buildServer } from '../main/app.js';
import { makeWorkspace, removeWorkspace } from '../test-support/workspace.js';
import { EventHub } from './event-hub.js';
import { publishFileChanges } from './file-events.js';
import { contentVersion } from './workspace-files.js';
import type { WorkspaceArea } from './workspace-paths.js';

const token = 'file-safety-token-0123456789abcdef';
const auth = { 'x-workbench-token': token };
const spec = 'openapi: 3.0.3\ninfo: {title: A, version: 1.0.0}\npaths: {}\n';

function contentUrl(p: string): string {
  return `/api/workbench/files/content?path=${encodeURIComponent(p)}`;
}

async function startServer(workspace: string): Promise<FastifyInstance> {
  const config = loadConfig(
    { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', WORKBENCH: 'true', HEALTH_CONFIG: 'health.yaml' },
    { workspace },
  );
  const app = await buildServer(config, { logger: pino({ level: 'silent' }), workbenchToken: token });
  await app.ready();
  await app.gateway.start();
  return app;
}

describe('saves based on a version', () => {
  let workspace: string;
  let server: FastifyInstance;
  beforeAll(async () => {
    workspace = makeWorkspace({ 'specs/a.openapi.yaml': spec, 'health.yaml': 'components: {}\n' });
    server = await startServer(workspace);
  });
  afterAll(async () => {
    await server.close();
    removeWorkspace(workspace);
  });

  const read = async (p: string) => (await server.inject({ url: contentUrl(p), headers: auth })).json<WorkspaceFile>();
  const save = (p: string, body: Record<string, unknown>) =>
    server.inject({ method: 'PUT', url: contentUrl(p), headers: auth, payload: body });

  it('saves over the version it read, and answers the new version', async () => {
    const file = await read('specs/a.openapi.yaml');
    expect(file.version).toBe(contentVersion(spec));
    const edited = `${spec}# mine\n`;
    const saved = await save('specs/a.openapi.yaml', { content: edited, baseVersion: file.version });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<WorkspaceFileInfo>().version).toBe(contentVersion(edited));
    expect((await read('specs/a.openapi.yaml')).version).toBe(contentVersion(edited));
  });

  it('refuses a save based on a version that changed on disk, and keeps the disk version', async () => {
    const file = await read('specs/a.openapi.yaml');
    const external = `${file.content}# written by another editor\n`;
    fs.writeFileSync(path.join(workspace, 'specs/a.openapi.yaml'), external);
    const stale = await save('specs/a.openapi.yaml', { content: 'mine', baseVersion: file.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      code: 'WB_STALE_SAVE',
      detail: expect.stringMatching(/^specs\/a\.openapi\.yaml was not saved: it changed on disk/),
    });
    expect(fs.readFileSync(path.join(workspace, 'specs/a.openapi.yaml'), 'utf8')).toBe(external);
  });

  it('refuses a save based on a file that was deleted since, and writes nothing', async () => {
    const created = await save('specs/gone.openapi.yaml', { content: spec });
    const { version } = created.json<WorkspaceFileInfo>();
    fs.rmSync(path.join(workspace, 'specs/gone.openapi.yaml'));
    const stale = await save('specs/gone.openapi.yaml', { content: spec, baseVersion: version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toMatch(/it was deleted/);
    expect(fs.existsSync(path.join(workspace, 'specs/gone.openapi.yaml'))).toBe(false);
  });

  it('lets exactly one of two saves based on the same version through', async () => {
    const file = await read('specs/a.openapi.yaml');
    const answers = await Promise.all(
      ['first\n', 'second\n'].map((content) => save('specs/a.openapi.yaml', { content, baseVersion: file.version })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json<WorkspaceFileInfo>();
    expect((await read('specs/a.openapi.yaml')).version).toBe(winner.version);
  });

  it('overwrites without a base version (API clients that do not read first)', async () => {
    fs.writeFileSync(path.join(workspace, 'specs/a.openapi.yaml'), 'changed on disk\n');
    expect((await save('specs/a.openapi.yaml', { content: spec })).statusCode).toBe(200);
    expect(fs.readFileSync(path.join(workspace, 'specs/a.openapi.yaml'), 'utf8')).toBe(spec);
  });

  it('refuses a base version that is not a string, or absurdly long, with {detail, code}', async () => {
    const notString = await save('specs/a.openapi.yaml', { content: spec, baseVersion: 12 });
    expect(notString.statusCode).toBe(400);
    expect(notString.json()).toMatchObject({ code: 'NOT_A_STRING', detail: expect.stringContaining('baseVersion') });
    const long = await save('specs/a.openapi.yaml', { content: spec, baseVersion: 'x'.repeat(65) });
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toMatch(/baseVersion/);
  });
});

describe('file change events', () => {
  let workspace: string;
  let closeWatcher: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await closeWatcher?.();
    closeWatcher = undefined;
    removeWorkspace(workspace);
  });

  /** A watcher over the workspace's areas and the file events it publishes. */
  async function watchAreas(): Promise<WorkspaceFileChange[]> {
    const areas: WorkspaceArea[] = [
      { name: 'specs', type: 'directory', root: path.join(workspace, 'specs') },
      { name: 'query', type: 'directory', root: path.join(workspace, 'query') },
      { name: 'health.yaml', type: 'file', root: path.join(workspace, 'health.yaml') },
    ];
    const hub = new EventHub();
    const changes: WorkspaceFileChange[] = [];
    hub.subscribe((event) => {
      if (event.type === 'file') changes.push(JSON.parse(event.data()) as WorkspaceFileChange);
    });
    const watcher = publishFileChanges(areas, hub, pino({ level: 'silent' }), 20);
    closeWatcher = watcher.close;
    await new Promise((resolve) => setTimeout(resolve, 100));
    return changes;
  }

  async function until(check: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  }

  it('publishes path and version of a file changed, created or deleted on disk; hidden files stay out', async () => {
    workspace = makeWorkspace({ 'specs/a.openapi.yaml': spec, 'health.yaml': 'components: {}\n', 'query/x.sql': '' });
    const changes = await watchAreas();
    fs.writeFileSync(path.join(workspace, 'specs/.a.openapi.yaml.tmp'), 'temp');
    fs.writeFileSync(path.join(workspace, 'specs/a.openapi.yaml'), 'edited\n');
    fs.writeFileSync(path.join(workspace, 'health.yaml'), 'components: {x: {tcp: {host: a, port: 1}}}\n');
    fs.writeFileSync(path.join(workspace, 'query/new.sql'), 'select 1');
    await until(() => changes.length >= 3);
    fs.rmSync(path.join(workspace, 'specs/a.openapi.yaml'));
    await until(() => changes.some((c) => c.path === 'specs/a.openapi.yaml' && !c.version));

    expect(changes).toContainEqual({ path: 'specs/a.openapi.yaml', version: contentVersion('edited\n') });
    expect(changes).toContainEqual({
      path: 'health.yaml',
      version: contentVersion('components: {x: {tcp: {host: a, port: 1}}}\n'),
    });
    expect(changes).toContainEqual({ path: 'query/new.sql', version: contentVersion('select 1') });
    expect(changes.at(-1)).toEqual({ path: 'specs/a.openapi.yaml' });
    expect(changes.some((c) => c.path.includes('.tmp'))).toBe(false);
  });

  it('keeps following a file replaced by rename (an atomic save), and a new subfolder', async () => {
    workspace = makeWorkspace({ 'specs/a.openapi.yaml': spec, 'health.yaml': 'components: {}\n' });
    const changes = await watchAreas();
    const file = path.join(workspace, 'specs/a.openapi.yaml');
    fs.writeFileSync(`${file}.new`.replace('a.openapi', '.a.openapi'), 'renamed in\n');
    fs.renameSync(`${file}.new`.replace('a.openapi', '.a.openapi'), file);
    await until(() => changes.some((c) => c.version === contentVersion('renamed in\n')));
    fs.writeFileSync(file, 'written in place\n');
    fs.writeFileSync(path.join(workspace, 'health.yaml'), 'components: {}\n# one\n');
    fs.writeFileSync(path.join(workspace, 'health.yaml'), 'components: {}\n# two\n');
    fs.mkdirSync(path.join(workspace, 'specs/sub'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    fs.writeFileSync(path.join(workspace, 'specs/sub/b.yaml'), 'in a new folder\n');
    await until(() => changes.some((c) => c.path === 'specs/sub/b.yaml'));
    expect(changes).toContainEqual({ path: 'specs/a.openapi.yaml', version: contentVersion('written in place\n') });
    expect(changes).toContainEqual({ path: 'health.yaml', version: contentVersion('components: {}\n# two\n') });
    expect(changes).toContainEqual({ path: 'specs/sub/b.yaml', version: contentVersion('in a new folder\n') });
  });

  it('reaches an open event stream when another program edits a file', async () => {
    workspace = makeWorkspace({ 'specs/a.openapi.yaml': spec, 'health.yaml': 'components: {}\n' });
    const server = await startServer(workspace);
    closeWatcher = () => server.close();
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const received = new Promise<string>((resolve, reject) => {
      const request = http.get(`${base}/api/workbench/events?token=${token}`, (response) => {
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          const frame = buffer.split('\n\n').find((f) => f.includes('event: file'));
          if (frame) {
            request.destroy();
            resolve(frame);
          }
        });
      });
      request.on('error', reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    fs.writeFileSync(path.join(workspace, 'specs/a.openapi.yaml'), `${spec}# external\n`);
    const frame = await received;
    const data = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as WorkspaceFileChange;
    expect(data).toEqual({ path: 'specs/a.openapi.yaml', version: contentVersion(`${spec}# external\n`) });
  });
});

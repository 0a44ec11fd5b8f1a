import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  WorkbenchDiagnostics,
  WorkbenchLogLine,
  WorkbenchStreamHello,
  WorkbenchRequest,
  WorkspaceFile,
  WorkspaceTree,
} from '../contract/index.js';
import { buildServer } from '../main/app.js';
import { loadConfig } from '../core/config.js';
import { Gateway } from '../gateway/index.js';
import { makeWorkspace, removeWorkspace } from '../test-support/workspace.js';
import { readWorkbenchEvents, type StreamEvent } from '../test-support/workbench-events.js';
import { resumeAfter } from './event-stream.js';
import { workbenchPlugin } from './workbench-plugin.js';

const token = 'test-token-0123456789abcdefghij';
const auth = { 'x-workbench-token': token };

const petsSpec = `openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              example: [{name: Rex}]
    post:
      requestBody:
        content:
          application/json:
            schema: {type: object}
      responses:
        '201':
          description: created
          content:
            application/json:
              example: {name: Rex}
`;

let workspace: string;
let outside: string;
let app: FastifyInstance | undefined;

async function start(options: { workbench?: boolean } = {}): Promise<FastifyInstance> {
  workspace = makeWorkspace({
    'specs/pets.openapi.yaml': petsSpec,
    'health.yaml': 'components: {}\n',
    'query/sources.yaml': 'sources: []\n',
  });
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  const config = loadConfig(
    {
      HOT_RELOAD: 'false',
      LOG_LEVEL: 'silent',
      WORKBENCH: String(options.workbench ?? true),
      HEALTH_CONFIG: 'health.yaml',
    },
    { workspace },
  );
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const logger = pino({ level: 'info' }, sink);
  app = await buildServer(config, { logger, workbenchToken: token });
  await app.ready();
  await app.gateway.start();
  return app;
}

async function closeServer(): Promise<void> {
  await app?.close();
  app = undefined;
  if (workspace) removeWorkspace(workspace);
  if (outside) fs.rmSync(outside, { recursive: true, force: true });
}

function contentUrl(p: string): string {
  return `/api/workbench/files/content?path=${encodeURIComponent(p)}`;
}

describe('workbench token', () => {
  let server: FastifyInstance;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(closeServer);

  it('refuses calls without the token or with a wrong one', async () => {
    const missing = await server.inject({ url: '/api/workbench/files' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({
      detail: expect.stringMatching(/token is missing/),
      code: 'WB_TOKEN_MISSING',
    });
    const wrong = await server.inject({ url: '/api/workbench/files', headers: { 'x-workbench-token': `${token}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().detail).toMatch(/wrong/);
    const empty = await server.inject({ url: '/api/workbench/files', headers: { 'x-workbench-token': '' } });
    expect(empty.statusCode).toBe(401);
    const ok = await server.inject({ url: '/api/workbench/files', headers: auth });
    expect(ok.statusCode).toBe(200);
  });

  it('takes the token from the query string only on the event stream', async () => {
    expect((await server.inject({ url: `/api/workbench/files?token=${token}` })).statusCode).toBe(401);
    expect((await server.inject({ url: '/api/workbench/events?token=nope' })).statusCode).toBe(401);
    expect((await server.inject({ url: '/api/workbench/events' })).statusCode).toBe(401);
  });
});

describe('without workbench mode', () => {
  afterEach(closeServer);

  it('does not exist without workbench mode', async () => {
    const server = await start({ workbench: false });
    expect((await server.inject({ url: '/api/workbench/files', headers: auth })).statusCode).toBe(404);
    expect((await server.inject({ url: '/workbench/' })).statusCode).toBe(404);
  });
});

describe('workspace files', () => {
  let server: FastifyInstance;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(closeServer);

  it('lists specs, handlers, query and health.yaml', async () => {
    const tree = (await server.inject({ url: '/api/workbench/files', headers: auth })).json() as WorkspaceTree;
    expect(tree.workspace).toBe(path.basename(workspace));
    expect(tree.entries.map((e) => e.path)).toEqual(['specs', 'handlers', 'query', 'health.yaml']);
    expect(tree.entries[0].children?.map((e) => e.path)).toEqual(['specs/pets.openapi.yaml']);
    expect(tree.entries[2].children?.map((e) => e.path)).toEqual(['query/sources.yaml']);
  });

  it('creates, reads, writes, renames and deletes files', async () => {
    const created = await server.inject({
      method: 'POST',
      url: '/api/workbench/files',
      headers: auth,
      payload: { path: 'specs/new/a.openapi.yaml', content: 'openapi: 3.1.0\n' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ path: 'specs/new/a.openapi.yaml', type: 'file', size: 15 });
    const again = await server.inject({
      method: 'POST',
      url: '/api/workbench/files',
      headers: auth,
      payload: { path: 'specs/new/a.openapi.yaml' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'specs/new/a.openapi.yaml already exists', code: 'WB_EXISTS' });
    expect(fs.readFileSync(path.join(workspace, 'specs/new/a.openapi.yaml'), 'utf8')).toBe('openapi: 3.1.0\n');

    const written = await server.inject({
      method: 'PUT',
      url: contentUrl('specs/new/a.openapi.yaml'),
      headers: auth,
      payload: { content: 'changed' },
    });
    expect(written.statusCode).toBe(200);
    const read = (
      await server.inject({ url: contentUrl('specs/new/a.openapi.yaml'), headers: auth })
    ).json() as WorkspaceFile;
    expect(read).toMatchObject({ path: 'specs/new/a.openapi.yaml', content: 'changed', size: 7 });

    const renamed = await server.inject({
      method: 'POST',
      url: '/api/workbench/files/rename',
      headers: auth,
      payload: { from: 'specs/new/a.openapi.yaml', to: 'specs/b.openapi.yaml' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(fs.existsSync(path.join(workspace, 'specs/b.openapi.yaml'))).toBe(true);
    const clash = await server.inject({
      method: 'POST',
      url: '/api/workbench/files/rename',
      headers: auth,
      payload: { from: 'specs/b.openapi.yaml', to: 'specs/pets.openapi.yaml' },
    });
    expect(clash.statusCode).toBe(409);

    expect(
      (await server.inject({ method: 'DELETE', url: `/api/workbench/files?path=specs/b.openapi.yaml`, headers: auth }))
        .statusCode,
    ).toBe(204);
    expect((await server.inject({ url: contentUrl('specs/b.openapi.yaml'), headers: auth })).statusCode).toBe(404);
    expect(
      (await server.inject({ method: 'DELETE', url: `/api/workbench/files?path=specs/b.openapi.yaml`, headers: auth }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await server.inject({
          method: 'POST',
          url: '/api/workbench/files',
          headers: auth,
          payload: { path: 'handlers/lib', type: 'directory' },
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (await server.inject({ method: 'DELETE', url: `/api/workbench/files?path=handlers/lib`, headers: auth }))
        .statusCode,
    ).toBe(204);
  });

  it('refuses to delete, rename or overwrite an area folder, and answers {detail, code} for bad requests', async () => {
    for (const response of [
      await server.inject({ method: 'DELETE', url: '/api/workbench/files?path=specs', headers: auth }),
      await server.inject({
        method: 'POST',
        url: '/api/workbench/files/rename',
        headers: auth,
        payload: { from: 'handlers', to: 'specs/h' },
      }),
      await server.inject({ method: 'PUT', url: contentUrl('specs'), headers: auth, payload: { content: 'x' } }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ detail: expect.any(String), code: 'WB_AREA_ROOT' });
    }
    expect(fs.existsSync(path.join(workspace, 'specs/pets.openapi.yaml'))).toBe(true);
    const noBody = await server.inject({ method: 'PUT', url: contentUrl('specs/x.yaml'), headers: auth, payload: {} });
    expect(noBody.statusCode).toBe(400);
    const noPath = await server.inject({ url: '/api/workbench/files/content', headers: auth });
    expect(noPath.statusCode).toBe(400);
    const folder = await server.inject({ url: contentUrl('query'), headers: auth });
    expect(folder.statusCode).toBe(409);
    fs.writeFileSync(path.join(workspace, 'query', 'data.bin'), Buffer.from([1, 0, 2]));
    expect((await server.inject({ url: contentUrl('query/data.bin'), headers: auth })).statusCode).toBe(415);
  });
});

describe('path confinement', () => {
  // One server for the whole group: no hostile call may change anything, which the tests check.
  let server: FastifyInstance;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(closeServer);

  const hostile = [
    '../package.json',
    'specs/../../etc/passwd',
    'specs/../handlers/../../x',
    'specs/./pets.openapi.yaml',
    '/etc/passwd',
    '//etc/passwd',
    'C:/Windows/win.ini',
    'specs\\..\\..\\etc\\passwd',
    'specs/%2e%2e/%2e%2e/etc/passwd',
    'specs/..%2f..%2fetc%2fpasswd',
    'specs/a\u0000.openapi.yaml',
    'specs/a\n.yaml',
    'specs//pets.openapi.yaml',
    '.git/config',
    'package.json',
    'node_modules/x/index.js',
    'specs/.hidden.yaml',
    'specs/..data/pets.openapi.yaml',
    'health.yaml/x',
    'query/' + 'a/'.repeat(600) + 'x',
  ];

  it.each(hostile)('refuses %j on every operation with 403 {detail}', async (hostilePath) => {
    const responses = [
      await server.inject({ url: contentUrl(hostilePath), headers: auth }),
      await server.inject({
        method: 'PUT',
        url: contentUrl(hostilePath),
        headers: auth,
        payload: { content: 'pwned' },
      }),
      await server.inject({
        method: 'POST',
        url: '/api/workbench/files',
        headers: auth,
        payload: { path: hostilePath, content: 'pwned' },
      }),
      await server.inject({
        method: 'POST',
        url: '/api/workbench/files/rename',
        headers: auth,
        payload: { from: 'specs/pets.openapi.yaml', to: hostilePath },
      }),
      await server.inject({
        method: 'POST',
        url: '/api/workbench/files/rename',
        headers: auth,
        payload: { from: hostilePath, to: 'specs/stolen.yaml' },
      }),
      await server.inject({
        method: 'DELETE',
        url: `/api/workbench/files?path=${encodeURIComponent(hostilePath)}`,
        headers: auth,
      }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(403);
      expect(Object.keys(response.json())).toEqual(['detail', 'code']);
    }
    expect(fs.readFileSync(path.join(workspace, 'specs/pets.openapi.yaml'), 'utf8')).toBe(petsSpec);
    expect(fs.existsSync(path.join(workspace, 'specs/stolen.yaml'))).toBe(false);
  });

  it('refuses raw percent-encoded traversal in the query string', async () => {
    for (const url of [
      '/api/workbench/files/content?path=specs%2F..%2F..%2Fetc%2Fpasswd',
      '/api/workbench/files/content?path=specs/%252e%252e/%252e%252e/etc/passwd',
      '/api/workbench/files/content?path=specs/pets.openapi.yaml%00.txt',
      '/api/workbench/files/content?path=%2Fetc%2Fpasswd',
    ]) {
      const response = await server.inject({ url, headers: auth });
      expect(response.statusCode, url).toBe(403);
    }
  });

  it('refuses symlinks that lead out of the workspace, and leaves them out of the tree', async () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'specs/secret.openapi.yaml'));
    fs.symlinkSync(outside, path.join(workspace, 'handlers/out'));
    fs.symlinkSync(path.join(outside, 'new.txt'), path.join(workspace, 'query/dangling.yaml'));
    for (const p of [
      'specs/secret.openapi.yaml',
      'handlers/out/secret.txt',
      'handlers/out/new.ts',
      'query/dangling.yaml',
    ]) {
      expect((await server.inject({ url: contentUrl(p), headers: auth })).statusCode, p).toBe(403);
      expect(
        (await server.inject({ method: 'PUT', url: contentUrl(p), headers: auth, payload: { content: 'pwned' } }))
          .statusCode,
        p,
      ).toBe(403);
      expect(
        (await server.inject({ method: 'DELETE', url: `/api/workbench/files?path=${p}`, headers: auth })).statusCode,
        p,
      ).toBe(403);
    }
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    const tree = (await server.inject({ url: '/api/workbench/files', headers: auth })).json() as WorkspaceTree;
    const paths = JSON.stringify(tree);
    expect(paths).not.toContain('secret');
    expect(paths).not.toContain('handlers/out');
  });

  it('follows symlinks that stay inside the workspace area', async () => {
    fs.mkdirSync(path.join(workspace, 'specs/v1'));
    fs.writeFileSync(path.join(workspace, 'specs/v1/shared.yaml'), 'a: 1\n');
    fs.symlinkSync('v1', path.join(workspace, 'specs/current'));
    const read = await server.inject({ url: contentUrl('specs/current/shared.yaml'), headers: auth });
    expect(read.statusCode).toBe(200);
    expect(read.json().content).toBe('a: 1\n');
  });
});

describe('atomic writes', () => {
  let server: FastifyInstance;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(closeServer);

  it('never lets a reader see half a file, and leaves no temp files behind', async () => {
    const target = path.join(workspace, 'specs/big.openapi.yaml');
    const versions = ['a'.repeat(2_000_000), 'b'.repeat(1_500_000)];
    fs.writeFileSync(target, versions[0]);
    let reading = true;
    const seen = new Set<string>();
    const reader = (async () => {
      while (reading) {
        const text = await fs.promises.readFile(target, 'utf8');
        seen.add(text === versions[0] ? 'a' : text === versions[1] ? 'b' : `torn:${text.length}`);
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let i = 0; i < 12; i++) {
      const response = await server.inject({
        method: 'PUT',
        url: contentUrl('specs/big.openapi.yaml'),
        headers: auth,
        payload: { content: versions[(i + 1) % 2] },
      });
      expect(response.statusCode).toBe(200);
    }
    reading = false;
    await reader;
    expect([...seen].filter((s) => s.startsWith('torn'))).toEqual([]);
    // Temp files live in the data folder, never in the folders the gateway watches, and are gone after.
    expect(fs.readdirSync(path.join(workspace, 'specs')).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(fs.readdirSync(path.join(workspace, '.adaptive', 'tmp'))).toEqual([]);
  });

  it('keeps the file mode of the file it replaces', async () => {
    const target = path.join(workspace, 'query/run.sh');
    fs.writeFileSync(target, 'echo 1\n', { mode: 0o750 });
    fs.chmodSync(target, 0o750);
    await server.inject({
      method: 'PUT',
      url: contentUrl('query/run.sh'),
      headers: auth,
      payload: { content: 'echo 2\n' },
    });
    expect(fs.statSync(target).mode & 0o777).toBe(0o750);
    expect(fs.readFileSync(target, 'utf8')).toBe('echo 2\n');
  });

  it('leaves no temp file when the write cannot replace the target', async () => {
    fs.mkdirSync(path.join(workspace, 'specs/dir.yaml'));
    const response = await server.inject({
      method: 'PUT',
      url: contentUrl('specs/dir.yaml'),
      headers: auth,
      payload: { content: 'x' },
    });
    expect(response.statusCode).toBe(409);
    expect(fs.readdirSync(path.join(workspace, 'specs')).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});

describe('diagnostics', () => {
  afterEach(closeServer);

  it('reports spec load errors with line and column', async () => {
    const server = await start();
    fs.writeFileSync(
      path.join(workspace, 'specs/broken.openapi.yaml'),
      'openapi: 3.0.3\ninfo: {title: x, version: 1}\npaths:\n  /a: [\n',
    );
    await server.gateway.reload();
    const { diagnostics } = (
      await server.inject({ url: '/api/workbench/diagnostics', headers: auth })
    ).json() as WorkbenchDiagnostics;
    const broken = diagnostics.find((d) => d.path === 'specs/broken.openapi.yaml');
    expect(broken).toMatchObject({ severity: 'error' });
    expect(broken?.line).toBeGreaterThan(0);
    expect(broken?.column).toBeGreaterThan(0);
    expect(diagnostics.some((d) => d.path === 'specs/pets.openapi.yaml' && d.severity === 'error')).toBe(false);
  });
});

/** Reads this test server's event stream until `until` returns true for the events so far. */
function readEvents(
  base: string,
  headers: Record<string, string>,
  until: (events: StreamEvent[]) => boolean,
): Promise<StreamEvent[]> {
  return readWorkbenchEvents(base, token, headers, until);
}

describe('event stream', () => {
  afterEach(closeServer);

  it('streams reloads, diagnostics, log lines and requests with their bodies', async () => {
    const server = await start();
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    const seen = readEvents(
      base,
      {},
      (events) =>
        events.some((e) => e.event === 'request') &&
        events.some((e) => e.event === 'diagnostics' && JSON.stringify(e.data).includes('bad.openapi.yaml')),
    );
    // Let the stream open before producing events.
    await new Promise((r) => setTimeout(r, 200));
    const write = await fetch(`${base}${contentUrl('specs/bad.openapi.yaml')}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'openapi: 3.0.3\npaths: [\n' }),
    });
    expect(write.status).toBe(200);
    const call = await fetch(`${base}/api/adaptive/pets/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer abc' },
      body: '{"name":"Tom"}',
    });
    expect(call.status).toBe(201);
    const events = await seen;

    const reload = events.findLast((e) => e.event === 'reload')?.data as {
      status: string;
      errors: Array<{ file: string }>;
    };
    expect(reload.status).toBe('partial');
    expect(reload.errors.map((e) => e.file)).toContain('bad.openapi.yaml');
    const diagnostics = events.findLast((e) => e.event === 'diagnostics')?.data as WorkbenchDiagnostics;
    expect(diagnostics.diagnostics.find((d) => d.path === 'specs/bad.openapi.yaml')?.line).toBeGreaterThan(0);
    const logs = events.filter((e) => e.event === 'log').map((e) => e.data as WorkbenchLogLine);
    expect(logs.some((l) => l.level === 'error' && l.msg.includes('bad.openapi.yaml'))).toBe(true);

    const requests = events.filter((e) => e.event === 'request').map((e) => e.data as WorkbenchRequest);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/adaptive/pets/pets',
      status: 201,
      source: 'spec',
      file: 'pets.openapi.yaml',
    });
    expect(JSON.parse(requests[0].request.body!)).toEqual({ name: 'Tom' });
    expect(JSON.parse(requests[0].response.body!)).toEqual({ name: 'Tom' });
    expect(requests[0].request.headers.authorization).toBe('[redacted]');
    expect(requests[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('replays what a reconnecting client missed after Last-Event-ID', async () => {
    const server = await start();
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    await server.gateway.reload();
    const first = await readEvents(base, {}, (events) => events.some((e) => e.event === 'diagnostics'));
    const lastId = Math.max(...first.map((e) => e.id));
    await server.gateway.reload();
    const replay = await readEvents(base, { 'last-event-id': `${first[1].instance}:${lastId}` }, (events) =>
      events.some((e) => e.event === 'diagnostics'),
    );
    expect(replay.every((e) => e.id > lastId || e.event === 'hello')).toBe(true);
    expect(replay.map((e) => e.event)).toContain('reload');
    expect((replay[0].data as WorkbenchStreamHello).replayUntil).toBeGreaterThan(lastId);
  });

  it('says in its hello where the replay of what happened before the client connected ends', async () => {
    const server = await start();
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    await server.gateway.reload();
    const replayEnd = (events: Array<{ id: number; data: unknown }>) =>
      (events[0]?.data as WorkbenchStreamHello | undefined)?.replayUntil;
    const events = await readEvents(base, {}, (got) => got.some((e) => e.id > 0 && e.id === replayEnd(got)));
    const replayUntil = replayEnd(events)!;
    const ids = events.filter((e) => e.id > 0).map((e) => e.id);
    expect(ids[0]).toBe(1);
    expect(ids.slice(0, replayUntil)).toEqual(Array.from({ length: replayUntil }, (_, i) => i + 1));
    expect(events.map((e) => e.event)).toContain('reload');
  });

  it('says in its hello how long ago the last replayed reload happened, and nothing when it replays none', async () => {
    const server = await start();
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    await server.gateway.reload();
    const hasDiagnostics = (events: StreamEvent[]) => events.some((e) => e.event === 'diagnostics');
    const helloOf = (events: StreamEvent[]) => events[0].data as WorkbenchStreamHello;
    const first = await readEvents(base, {}, hasDiagnostics);
    const firstAge = helloOf(first).lastReloadAgoMs!;
    expect(Number.isInteger(firstAge) && firstAge >= 0).toBe(true);
    // A later client is told of the same reload, older by now (the server's monotonic clock).
    const later = await readEvents(base, {}, hasDiagnostics);
    expect(helloOf(later).lastReloadAgoMs).toBeGreaterThanOrEqual(firstAge);
    // A reconnect from where the later client's replay ended is told an age exactly when its replay holds a reload
    // (the lint's reload may still come in between).
    const { instance, replayUntil } = helloOf(later);
    const resumed = await readEvents(base, { 'last-event-id': `${instance}:${replayUntil}` }, (events) => {
      const end = events[0] && helloOf(events).replayUntil;
      return end === 0 || events.some((e) => e.id === end);
    });
    const { replayUntil: resumedEnd } = helloOf(resumed);
    const replayedReload = resumed.some((e) => e.event === 'reload' && e.id > 0 && e.id <= resumedEnd);
    expect('lastReloadAgoMs' in helloOf(resumed)).toBe(replayedReload);
    expect(resumedEnd === 0 || resumed.every((e) => e.id === 0 || e.id > replayUntil)).toBe(true);
  });

  it('names the server start first, and replays everything to a client of an earlier start', async () => {
    const server = await start();
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    await server.gateway.reload();
    const first = await readEvents(base, {}, (events) => events.some((e) => e.event === 'diagnostics'));
    expect(first[0].event).toBe('hello');
    const { instance } = first[0].data as WorkbenchStreamHello;
    expect(instance).toMatch(/^[0-9a-f]{12}$/);
    expect(first.slice(1).every((e) => e.instance === instance)).toBe(true);
    const lastId = Math.max(...first.map((e) => e.id));
    // The Last-Event-ID of another server start, with a number far above this one's: not a reason to skip.
    const fromOtherStart = await readEvents(base, { 'last-event-id': `0123456789ab:${lastId + 1000}` }, (events) =>
      events.some((e) => e.event === 'diagnostics'),
    );
    expect(fromOtherStart.map((e) => e.id).filter((id) => id > 0)).toContain(1);
    // Hostile ids resume from the start too, never throw.
    for (const id of ['x', `${instance}:-1`, `${instance}:1e400`, `${instance}:99999999999999999999`])
      expect(resumeAfter(id, instance)).toBe(0);
    expect(resumeAfter(`${instance}:7`, instance)).toBe(7);
  });

  it('ends open streams when the server closes', async () => {
    const server = await start();
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    const ended = new Promise<void>((resolve) => {
      http.get(`${base}/api/workbench/events?token=${token}`, (response) => {
        response.resume();
        response.on('end', () => resolve());
        response.on('close', () => resolve());
      });
    });
    await new Promise((r) => setTimeout(r, 100));
    await server.close();
    app = undefined;
    await ended;
  });
});

/** A server with only the workbench plugin, serving the UI from `rendererDir`. */
async function uiServer(rendererDir: string): Promise<FastifyInstance> {
  const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent' }, { workspace });
  const logger = pino({ level: 'silent' });
  const server = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  await server.register(workbenchPlugin, { config, gateway: new Gateway([], logger), logger, token, rendererDir });
  return server;
}

describe('workbench UI files', () => {
  afterEach(closeServer);

  it('serves the renderer build and nothing outside it', async () => {
    workspace = makeWorkspace();
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-renderer-'));
    const rendererDir = path.join(outside, 'renderer');
    fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>wb</title>');
    fs.writeFileSync(path.join(rendererDir, 'assets/app-1234.js'), 'console.log(1)');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'TOP-SECRET-CONTENT');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(rendererDir, 'assets/link.js'));
    app = await uiServer(rendererDir);

    const page = await app.inject({ url: '/workbench/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const asset = await app.inject({ url: '/workbench/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    for (const url of [
      '/workbench/../secret.txt',
      '/workbench/%2e%2e/secret.txt',
      '/workbench/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/workbench/assets/link.js',
      '/workbench/.hidden',
      '/workbench/assets/missing.js',
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('TOP-SECRET-CONTENT');
    }
  });

  it('says how to build the UI when it is missing', async () => {
    workspace = makeWorkspace();
    app = await uiServer(path.join(workspace, 'nothing'));
    const page = await app.inject({ url: '/workbench/' });
    expect(page.statusCode).toBe(503);
    expect(page.json()).toEqual({ detail: expect.stringMatching(/npm run build/), code: 'WB_UI_NOT_BUILT' });
  });
});

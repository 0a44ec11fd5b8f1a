import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpecChange } from '../gateway/index.js';
import { formatChanges } from './diff-command.js';

const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-cli-'));
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));
const v1 = `openapi: 3.0.3
info: {title: Orders, version: '1'}
paths:
  /orders:
    get:
      operationId: listOrders
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: './schemas.yaml#/Order'}
`;
fs.mkdirSync(path.join(repo, 'specs'));
fs.writeFileSync(path.join(repo, 'specs/orders.yaml'), v1);
fs.writeFileSync(
  path.join(repo, 'specs/schemas.yaml'),
  'Order: {type: object, properties: {id: {type: integer}, note: {type: string}}}\n',
);
fs.writeFileSync(path.join(repo, 'specs/renamed.yaml'), v1.replace('listOrders', 'getOrders'));
fs.writeFileSync(path.join(repo, 'specs/broken.yaml'), 'openapi: [\n');
const git = (...args: string[]) =>
  spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, encoding: 'utf8' });
git('init', '-q');
git('add', '.');
git('commit', '-qm', 'v1');
// The working copy drops a field of the referenced schema: a breaking change of the response.
fs.writeFileSync(path.join(repo, 'specs/schemas.yaml'), 'Order: {type: object, properties: {id: {type: integer}}}\n');

const cli = path.resolve('server/src/main/cli.ts');
const tsx = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;
function diff(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', tsx, cli, 'diff', ...args], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

// Each run starts the CLI (a few seconds, more on a busy machine): one run per exit path.
const slow = 180_000;

describe('adaptive-gateway diff', () => {
  it(
    'exits 1 on a breaking change between a git revision and the working copy, one line per change',
    () => {
      const { code, out } = diff('HEAD:specs/orders.yaml', 'specs/orders.yaml');
      // The committed version's external $ref is compared as written; the working copy is bundled.
      expect(code).toBe(1);
      expect(out).toMatch(/^breaking {6}\S+ {2}GET \/orders response 200 application\/json/);
    },
    slow,
  );

  it(
    'exits 0 with only non-breaking changes, and prints them as JSON',
    () => {
      const { code, out } = diff('--format', 'json', 'specs/orders.yaml', 'specs/renamed.yaml');
      expect(code).toBe(0);
      expect(JSON.parse(out)).toEqual([
        {
          verdict: 'non-breaking',
          kind: 'operation-id-changed',
          where: 'GET /orders',
          pointer: '#/paths/~1orders/get/operationId',
          message: 'operationId listOrders became getOrders',
        },
      ]);
    },
    slow,
  );

  it(
    'exits 2 naming the spec it cannot read',
    () => {
      const broken = diff('-f', 'github', 'specs/orders.yaml', 'specs/broken.yaml');
      expect(broken.code).toBe(2);
      expect(broken.err).toMatch(/^adaptive-gateway diff: specs\/broken.yaml: invalid YAML/);
      expect(broken.out).toBe('');
    },
    slow,
  );

  it(
    'exits 2 on a revision git does not know, an option in place of a revision, or a format it has not',
    () => {
      const revision = diff('HEAD:specs/missing.yaml', 'specs/orders.yaml');
      expect(revision.code).toBe(2);
      expect(revision.err).toMatch(/git show HEAD:specs\/missing.yaml: .*does not exist/);
      expect(diff('--', '--output=/tmp/x:y', 'specs/orders.yaml').code).toBe(2);
      expect(diff('-f', 'junit', 'specs/orders.yaml', 'specs/orders.yaml').code).toBe(2);
    },
    slow,
  );
});

describe('formatChanges', () => {
  const changes: SpecChange[] = [
    {
      verdict: 'breaking',
      kind: 'response-status-removed',
      where: 'GET /orders response 200',
      pointer: '#/paths/~1orders/get/responses/200',
      message: 'response 200 removed',
    },
    {
      verdict: 'non-breaking',
      kind: 'response-status-added',
      where: 'GET /orders response 201',
      pointer: '#/paths/~1orders/get/responses/201',
      message: 'response 201 added\nsecond line',
    },
  ];

  it('annotates GitHub runs: breaking changes as errors on the new file, the others as notices', () => {
    const [error, notice] = formatChanges(changes, 'github', 'specs/a,b.yaml').split('\n');
    expect(error).toBe(
      '::error file=specs/a%2Cb.yaml,title=breaking response-status-removed::' +
        'GET /orders response 200: response 200 removed',
    );
    expect(notice).toBe(
      '::notice file=specs/a%2Cb.yaml,title=non-breaking response-status-added::' +
        'GET /orders response 201: response 201 added%0Asecond line',
    );
  });

  it('prints one line per change in text: verdict, kind, where, message', () => {
    expect(formatChanges(changes, 'text', 'x').split('\n')[0]).toBe(
      'breaking      response-status-removed  GET /orders response 200  response 200 removed',
    );
  });
});

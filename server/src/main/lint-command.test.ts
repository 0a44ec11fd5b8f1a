import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-cli-'));
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));
fs.mkdirSync(path.join(workspace, 'specs'));
const clean = `openapi: 3.0.3
info: {title: Clean, version: '1', description: d, contact: {name: team}}
servers: [{url: 'https://api.example.com'}]
tags: [{name: pets, description: d}]
paths:
  /pets:
    get:
      operationId: listPets
      description: d
      tags: [pets]
      responses:
        '200': {description: ok}
`;
fs.writeFileSync(path.join(workspace, 'specs/clean.yaml'), clean);
fs.writeFileSync(path.join(workspace, 'specs/warned.yaml'), clean.replace('      operationId: listPets\n', ''));
fs.writeFileSync(
  path.join(workspace, 'broken.yaml'),
  clean.replace(
    "'200': {description: ok}",
    "'200': {description: ok, content: {application/json: " + '{schema: {type: integer}, example: two}}}',
  ),
);

const cli = path.resolve('server/src/main/cli.ts');
function lint(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', cli, 'lint', '-w', workspace, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('adaptive-gateway lint', { timeout: 300_000 }, () => {
  it('exits 0 on warnings only, 1 with --fail-severity warn, and prints file:line:col severity rule message', () => {
    const folder = lint(path.join(workspace, 'specs'));
    expect(folder.code).toBe(0);
    expect(folder.out).toMatch(/warned\.yaml:7:9 warning operation-operationId Operation must have "operationId"/);
    expect(folder.out).not.toContain('clean.yaml');
    expect(lint('--fail-severity', 'warn', path.join(workspace, 'specs')).code).toBe(1);
  });

  it('exits 1 on an error, in every format', () => {
    const file = path.join(workspace, 'broken.yaml');
    const text = lint(file);
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/broken\.yaml:12:\d+ error oas3-valid-media-example/);
    const json = lint('--format', 'json', file);
    expect(JSON.parse(json.out)).toContainEqual(
      expect.objectContaining({ rule: 'oas3-valid-media-example', severity: 'error', line: 12 }),
    );
    expect(lint('--format', 'junit', file).out).toMatch(/<testsuite name="[^"]*broken\.yaml" tests="1" failures="1">/);
    expect(lint('--format', 'github', file).out).toMatch(
      /^::error file=[^,]*broken\.yaml,line=12,col=\d+,title=oas3-valid/m,
    );
  });

  it('exits 2 on a usage error', () => {
    expect(lint('--format', 'xml', workspace).code).toBe(2);
    expect(lint(path.join(workspace, 'missing.yaml')).code).toBe(2);
  });
});

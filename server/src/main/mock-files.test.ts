import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const cli = path.join(import.meta.dirname, 'cli.ts');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-mock-files-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const runArgs = (args: string[]) => ['--import', 'tsx', cli, 'serve', '--port', '0', ...args];
const options = { cwd: path.join(import.meta.dirname, '..', '..'), env: { ...process.env, HOT_RELOAD: 'false' } };

/** Writes `text` as `name` in the scratch folder; its path. */
function file(name: string, text: string): string {
  fs.writeFileSync(path.join(scratch, name), text);
  return path.join(scratch, name);
}

const broken = () => file('broken.yaml', 'openapi: 3.0.3\ninfo: {title: x, version: 1}\npaths:\n  /a: [unclosed\n');
const good = () =>
  file(
    'good.yaml',
    'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths:\n  /a: {get: {responses: {"200": {description: ok}}}}\n',
  );

describe('one-file mock mode at start', () => {
  it('exits 1 with each error at its file, line and column when no named file loads', { timeout: 160_000 }, () => {
    const result = spawnSync(process.execPath, runArgs([broken()]), { ...options, encoding: 'utf8', timeout: 150_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^adaptive-gateway: broken\.yaml:5:1: invalid YAML/m);
  });

  it('keeps serving when one of the named files loads', { timeout: 160_000 }, async () => {
    const child = spawn(process.execPath, runArgs([broken(), good()]), {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // The first load is over (one spec, one error), and the server is still up a second later.
    await expect.poll(() => output, { timeout: 150_000 }).toContain('Loaded 1 spec');
    const stillUp = await Promise.race([exited.then(() => false), new Promise((r) => setTimeout(r, 1000, true))]);
    child.kill('SIGINT');
    await exited;
    expect(stillUp).toBe(true);
  });
});

/** A module hook (`--import`) that appends the URL of every module loaded to the file named by LOADED_MODULES. */
const recordLoads = () => {
  const hooks = file(
    'record-hooks.mjs',
    "import fs from 'node:fs';\nexport async function load(url, context, next) {\n" +
      '  fs.appendFileSync(process.env.LOADED_MODULES, url + "\\n");\n  return next(url, context);\n}\n',
  );
  return file(
    'record.mjs',
    `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`,
  );
};

describe('one-file mock mode loads only what it uses', () => {
  it(
    'never loads the query engine, authentication, the workbench, lint, the health clients, or what only proxies, ' +
      'XML answers and other locales need',
    { timeout: 160_000 },
    async () => {
      const loaded = path.join(scratch, 'loaded.txt');
      const child = spawn(process.execPath, ['--import', recordLoads(), ...runArgs([good()])], {
        ...options,
        env: { ...options.env, LOADED_MODULES: loaded },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await expect.poll(() => output, { timeout: 150_000 }).toContain('Loaded 1 spec');
      child.kill('SIGINT');
      await exited;
      const modules = fs.readFileSync(loaded, 'utf8').split('\n');
      // The recording works: the gateway's own modules are there.
      expect(modules.some((url) => url.includes('/gateway/gateway.ts'))).toBe(true);
      const unused = new RegExp(
        [
          ...['@duckdb', '/query/', '/auth/authenticator', '/jose/', 'bcryptjs', '/workbench/workbench-plugin'],
          ...['@stoplight/spectral', '@aws-sdk', '/pg/', 'ioredis', 'swagger2openapi'],
          ...['/undici/', '/fast-xml-parser/', '/@faker-js/faker/dist/index'],
        ].join('|'),
      );
      expect(modules.filter((url) => unused.test(url))).toEqual([]);
    },
  );
});

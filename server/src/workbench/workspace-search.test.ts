import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceSearchResult } from '../contract/index.js';
import { loadConfig } from '../core/config.js';
import { buildServer } from '../main/app.js';
import { makeWorkspace, removeWorkspace, writeFile } from '../test-support/workspace.js';
import { maxSearchMatches, maxSearchQuery } from './workspace-search.js';

const token = 'search-token-0123456789abcdefghij';

let workspace: string;
let outside: string;
let app: FastifyInstance;

beforeAll(async () => {
  workspace = makeWorkspace({
    'specs/pets.openapi.yaml': 'openapi: 3.0.3\ninfo: {title: Pets, version: 1.0.0}\npaths: {}\n',
    'handlers/notes.md': 'first line\nThe PETS handler\n\tpets again\n',
    'query/saved/pets.sql': 'SELECT * FROM pets\n',
    'health.yaml': 'components: {}\n',
  });
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-search-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'pets secret\n');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'handlers/link.txt'));
  fs.writeFileSync(path.join(workspace, 'handlers/image.bin'), Buffer.from([0x70, 0x65, 0x74, 0x73, 0, 1, 2]));
  writeFile(workspace, 'handlers/.hidden.md', 'pets hidden\n');
  const config = loadConfig(
    { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', WORKBENCH: 'true', HEALTH_CONFIG: 'health.yaml' },
    { workspace },
  );
  app = await buildServer(config, { logger: pino({ level: 'silent' }), workbenchToken: token });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
  fs.rmSync(outside, { recursive: true, force: true });
});

function search(q?: string | string[], headers: Record<string, string> = { 'x-workbench-token': token }) {
  return app.inject({ url: '/api/workbench/search', query: q === undefined ? {} : { q }, headers });
}

describe('GET /api/workbench/search', () => {
  it('finds the lines that contain the text, ignoring case, with line and column', async () => {
    const response = await search('pets');
    expect(response.statusCode).toBe(200);
    const body = response.json<WorkspaceSearchResult>();
    expect(body.truncated).toBe(false);
    expect(body.matches).toEqual([
      { path: 'specs/pets.openapi.yaml', line: 2, column: 15, text: 'info: {title: Pets, version: 1.0.0}' },
      { path: 'handlers/notes.md', line: 2, column: 5, text: 'The PETS handler' },
      { path: 'handlers/notes.md', line: 3, column: 2, text: '\tpets again' },
      { path: 'query/saved/pets.sql', line: 1, column: 15, text: 'SELECT * FROM pets' },
    ]);
  });

  it('stays in the workspace: no symlink out, no hidden file, no binary file', async () => {
    const paths = (await search('pets')).json<WorkspaceSearchResult>().matches.map((m) => m.path);
    expect(paths).not.toContain('handlers/link.txt');
    expect(paths).not.toContain('handlers/.hidden.md');
    expect(paths).not.toContain('handlers/image.bin');
    expect((await search('secret')).json<WorkspaceSearchResult>().matches).toEqual([]);
  });

  it('takes the text literally: pattern characters match only themselves', async () => {
    expect((await search('.*')).json<WorkspaceSearchResult>().matches).toEqual([]);
    expect((await search('(a+)+$')).json<WorkspaceSearchResult>().matches).toEqual([]);
    const braces = (await search('{title')).json<WorkspaceSearchResult>().matches;
    expect(braces.map((m) => m.path)).toEqual(['specs/pets.openapi.yaml']);
  });

  it('answers at most the cap of lines, and says it cut the list', async () => {
    writeFile(workspace, 'handlers/many.md', 'needle\n'.repeat(maxSearchMatches + 20));
    try {
      const body = (await search('NEEDLE')).json<WorkspaceSearchResult>();
      expect(body.matches).toHaveLength(maxSearchMatches);
      expect(body.truncated).toBe(true);
    } finally {
      fs.rmSync(path.join(workspace, 'handlers/many.md'));
    }
  });

  it('cuts a long line to a window around the match', async () => {
    writeFile(workspace, 'handlers/long.md', `${'x'.repeat(5000)}MARKER${'y'.repeat(5000)}\n`);
    try {
      const [match] = (await search('marker')).json<WorkspaceSearchResult>().matches;
      expect(match.column).toBe(5001);
      expect(match.text.length).toBeLessThan(300);
      expect(match.text).toContain('MARKER');
    } finally {
      fs.rmSync(path.join(workspace, 'handlers/long.md'));
    }
  });

  it('refuses an empty, missing, repeated or too long text with 400 {detail, code}', async () => {
    for (const q of [undefined, '', 'x'.repeat(maxSearchQuery + 1), ['a', 'b']]) {
      const response = await search(q);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'WB_SEARCH_QUERY', detail: expect.stringMatching(/1 to 200/) });
    }
    expect((await search('x'.repeat(maxSearchQuery))).statusCode).toBe(200);
  });

  it('needs the workbench token', async () => {
    const response = await search('pets', {});
    expect(response.statusCode).toBe(401);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.js';
import type { HttpError } from '../core/errors.js';
import { parseWorkspacePath, resolveWorkspacePath, workspaceAreas, type WorkspaceArea } from './workspace-paths.js';

const areas: WorkspaceArea[] = [
  { name: 'specs', type: 'directory', root: '/ws/specs' },
  { name: 'handlers', type: 'directory', root: '/mounted/handlers' },
  { name: 'health.yaml', type: 'file', root: '/ws/config/health.yaml' },
];

function statusOf(raw: unknown): number | undefined {
  try {
    parseWorkspacePath(areas, raw);
    return undefined;
  } catch (error) {
    return (error as HttpError).status;
  }
}

describe('parseWorkspacePath', () => {
  it('maps workspace paths to the folder each area really uses', () => {
    expect(parseWorkspacePath(areas, 'specs/a/b.openapi.yaml')).toMatchObject({
      path: 'specs/a/b.openapi.yaml',
      absolute: '/ws/specs/a/b.openapi.yaml',
      isAreaRoot: false,
    });
    expect(parseWorkspacePath(areas, 'handlers/x_handler.ts').absolute).toBe('/mounted/handlers/x_handler.ts');
    expect(parseWorkspacePath(areas, 'health.yaml')).toMatchObject({
      absolute: '/ws/config/health.yaml',
      isAreaRoot: true,
    });
    expect(parseWorkspacePath(areas, 'specs/')).toMatchObject({ path: 'specs', isAreaRoot: true });
  });

  it.each([
    '..',
    '../x',
    'specs/..',
    'specs/../handlers/x',
    'specs/./x',
    '/specs/x',
    'C:\\x',
    'c:/x',
    'specs\\x',
    'specs/%2e%2e/x',
    'specs/%2F',
    'specs/a\u0000',
    'specs/a\u001b',
    'specs/a\u001f',
    'specs/a\u007f',
    'specs//x',
    '.env',
    'specs/.git/x',
    'query/x',
    'Specs/x',
    'health.yaml/x',
    'x'.repeat(2000),
  ])('refuses %j with 403', (raw) => {
    expect(statusOf(raw)).toBe(403);
  });

  it.each([undefined, null, '', 42, ['specs/x']])('asks for a path (400) when given %j', (raw) => {
    expect(statusOf(raw)).toBe(400);
  });
});

describe('workspaceAreas', () => {
  it('edits the query folder the server reads: the folder of QUERY_SOURCES, also outside the workspace', () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-ws-'));
    const queryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-query-elsewhere-'));
    try {
      const config = loadConfig({ QUERY_SOURCES: path.join(queryDir, 'sources.yaml') }, { workspace });
      const areas = workspaceAreas(config);
      expect(areas.find((area) => area.name === 'query')?.root).toBe(queryDir);
      expect(resolveWorkspacePath(areas, 'query/mapping.ttl').absolute).toBe(path.join(queryDir, 'mapping.ttl'));
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
      fs.rmSync(queryDir, { recursive: true, force: true });
    }
  });
});

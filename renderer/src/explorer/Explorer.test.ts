import { describe, expect, it } from 'vitest';
import type { WorkspaceEntry } from '../../../server/src/contract/index.js';
import { targetFolder } from './Explorer.js';

const entries = [
  {
    name: 'specs',
    path: 'specs',
    type: 'directory',
    children: [
      { name: 'team', path: 'specs/team', type: 'directory', children: [] },
      { name: 'a.openapi.yaml', path: 'specs/a.openapi.yaml', type: 'file' },
    ],
  },
  { name: 'README.md', path: 'README.md', type: 'file' },
] as unknown as WorkspaceEntry[];

describe('targetFolder', () => {
  it('is the selected folder, or the selected file’s folder', () => {
    expect(targetFolder(entries, 'specs/team')).toBe('specs/team');
    expect(targetFolder(entries, 'specs/a.openapi.yaml')).toBe('specs');
  });

  it('is specs with nothing selected or a top-level file selected', () => {
    expect(targetFolder(entries, undefined)).toBe('specs');
    expect(targetFolder(entries, 'README.md')).toBe('specs');
    expect(targetFolder([], '')).toBe('specs');
  });

  it('takes the parent of a path the tree does not know (deleted meanwhile)', () => {
    expect(targetFolder(entries, 'handlers/gone_handler.ts')).toBe('handlers');
  });
});

import { describe, expect, it } from 'vitest';
import { restoreEntry, snapshotEntry } from './deleted-entries.js';
import { findEntry } from './tree-keys.js';
import { file, folder } from './workspace-entries.test-support.js';

const entries = [
  folder('specs', [
    file('specs/a.yaml'),
    folder('specs/old', [file('specs/old/x.yaml'), folder('specs/old/empty', [])]),
  ]),
  file('health.yaml'),
];

/** A workspace on a map: read answers from it, create writes to it in call order. */
function fakeWorkspace(files: Record<string, string>) {
  const created: string[] = [];
  return {
    created,
    files,
    read: async (path: string) => ({ path, content: files[path], size: 0, mtimeMs: 0, version: '' }),
    create: async (path: string, type: 'file' | 'directory', content = '') => {
      created.push(`${type} ${path}`);
      if (type === 'file') files[path] = content;
      return { path, type, size: 0, mtimeMs: 0 };
    },
  };
}

describe('findEntry', () => {
  it('finds a nested folder and a top-level file, and nothing for an unknown path', () => {
    expect(findEntry(entries, 'specs/old')?.children).toHaveLength(2);
    expect(findEntry(entries, 'health.yaml')?.type).toBe('file');
    expect(findEntry(entries, 'specs/none.yaml')).toBeUndefined();
  });
});

describe('snapshotEntry and restoreEntry', () => {
  it('keeps a file with its text and puts it back', async () => {
    const workspace = fakeWorkspace({ 'health.yaml': 'components: {}\n' });
    const deleted = await snapshotEntry(workspace, findEntry(entries, 'health.yaml')!);
    delete workspace.files['health.yaml'];
    await restoreEntry(workspace, deleted);
    expect(workspace.files['health.yaml']).toBe('components: {}\n');
    expect(workspace.created).toEqual(['file health.yaml']);
  });

  it('puts a folder back with its empty subfolders before the files inside it', async () => {
    const workspace = fakeWorkspace({ 'specs/old/x.yaml': 'x: 1\n' });
    const deleted = await snapshotEntry(workspace, findEntry(entries, 'specs/old')!);
    expect(deleted.folders).toEqual(['specs/old', 'specs/old/empty']);
    await restoreEntry(workspace, deleted);
    expect(workspace.created).toEqual(['directory specs/old', 'directory specs/old/empty', 'file specs/old/x.yaml']);
    expect(workspace.files['specs/old/x.yaml']).toBe('x: 1\n');
  });
});

import { describe, expect, it } from 'vitest';
import type { WorkspaceFile, WorkspaceFileInfo } from '../../../server/src/contract/index.js';
import { ApiError, type WorkbenchApi } from '../api/client.js';
import { DocumentStore, isDirty } from './documents.js';
import { Drafts } from './drafts.js';

/** A workspace API over an in-memory disk whose versions are the content itself, recording the saves. */
function fakeDisk(files: Record<string, string>) {
  const disk = { ...files };
  const saves: Array<{ path: string; content: string; baseVersion?: string }> = [];
  const version = (content: string) => `v:${content}`;
  const api = {
    read: async (path: string): Promise<WorkspaceFile> => {
      if (!(path in disk)) throw new ApiError(404, `${path} does not exist`, undefined, 'WB_NOT_FOUND');
      const content = disk[path];
      return { path, content, size: content.length, mtimeMs: 0, version: version(content) };
    },
    write: async (path: string, content: string, baseVersion?: string): Promise<WorkspaceFileInfo> => {
      saves.push({ path, content, baseVersion });
      if (baseVersion !== undefined && (!(path in disk) || version(disk[path]) !== baseVersion))
        throw new ApiError(409, `${path} was not saved: it changed on disk`, undefined, 'WB_STALE_SAVE');
      disk[path] = content;
      return { path, type: 'file', size: content.length, mtimeMs: 0, version: version(content) };
    },
  } as unknown as WorkbenchApi;
  return { disk, saves, api, version };
}

function drafts(): Drafts {
  return new Drafts(Promise.resolve(`test-${Math.random()}`));
}

describe('DocumentStore and the disk', () => {
  it('reloads a clean document when its file changes on disk, and ignores its own save', async () => {
    const { disk, api, version } = fakeDisk({ 'specs/a.yaml': 'one' });
    const documents = new DocumentStore(api, drafts());
    await documents.open('specs/a.yaml');
    documents.edit('specs/a.yaml', 'two');
    await documents.save('specs/a.yaml');
    await documents.diskChanged({ path: 'specs/a.yaml', version: version('two') });
    expect(documents.get('specs/a.yaml')).toMatchObject({ text: 'two', revision: 0 });

    disk['specs/a.yaml'] = 'three';
    await documents.diskChanged({ path: 'specs/a.yaml', version: version('three') });
    expect(documents.get('specs/a.yaml')).toMatchObject({ text: 'three', saved: 'three', revision: 1 });
    expect(documents.get('specs/a.yaml')?.conflict).toBeUndefined();
  });

  it('puts a conflict on a dirty document, not its text; keep mine makes the next save pass', async () => {
    const { disk, saves, api, version } = fakeDisk({ 'specs/a.yaml': 'one' });
    const documents = new DocumentStore(api, drafts());
    await documents.open('specs/a.yaml');
    documents.edit('specs/a.yaml', 'mine');
    disk['specs/a.yaml'] = 'theirs';
    await documents.diskChanged({ path: 'specs/a.yaml', version: version('theirs') });
    expect(documents.get('specs/a.yaml')).toMatchObject({
      text: 'mine',
      conflict: { disk: 'theirs', version: version('theirs'), cause: 'change' },
    });

    documents.resolve('specs/a.yaml', 'mine');
    expect(documents.get('specs/a.yaml')).toMatchObject({ text: 'mine', saved: 'theirs', conflict: undefined });
    await documents.save('specs/a.yaml');
    expect(saves.at(-1)).toEqual({ path: 'specs/a.yaml', content: 'mine', baseVersion: version('theirs') });
    expect(disk['specs/a.yaml']).toBe('mine');
  });

  it('take disk replaces the text with the disk version', async () => {
    const { disk, api, version } = fakeDisk({ 'specs/a.yaml': 'one' });
    const documents = new DocumentStore(api, drafts());
    await documents.open('specs/a.yaml');
    documents.edit('specs/a.yaml', 'mine');
    disk['specs/a.yaml'] = 'theirs';
    await documents.diskChanged({ path: 'specs/a.yaml', version: version('theirs') });
    documents.resolve('specs/a.yaml', 'disk');
    const doc = documents.get('specs/a.yaml');
    expect(doc).toMatchObject({ text: 'theirs', saved: 'theirs', version: version('theirs'), revision: 1 });
    expect(isDirty(doc)).toBe(false);
  });

  it('turns a refused stale save into the same conflict, keeping the text', async () => {
    const { disk, api } = fakeDisk({ 'specs/a.yaml': 'one' });
    const documents = new DocumentStore(api, drafts());
    await documents.open('specs/a.yaml');
    documents.edit('specs/a.yaml', 'mine');
    disk['specs/a.yaml'] = 'theirs';
    await expect(documents.save('specs/a.yaml')).rejects.toMatchObject({ code: 'WB_STALE_SAVE' });
    expect(disk['specs/a.yaml']).toBe('theirs');
    expect(documents.get('specs/a.yaml')).toMatchObject({
      text: 'mine',
      status: 'ready',
      conflict: { disk: 'theirs', cause: 'save' },
    });
  });

  it('marks a file deleted on disk under unsaved changes', async () => {
    const { disk, api } = fakeDisk({ 'specs/a.yaml': 'one' });
    const documents = new DocumentStore(api, drafts());
    await documents.open('specs/a.yaml');
    documents.edit('specs/a.yaml', 'mine');
    delete disk['specs/a.yaml'];
    await documents.diskChanged({ path: 'specs/a.yaml' });
    expect(documents.get('specs/a.yaml')?.conflict).toEqual({ disk: undefined, version: undefined, cause: 'change' });
  });

  it('restores unsaved text of an earlier session, with a conflict when the disk changed meanwhile', async () => {
    const { api, version } = fakeDisk({ 'specs/a.yaml': 'one', 'specs/b.yaml': 'theirs' });
    const kept = drafts();
    await kept.ready;
    kept.put('specs/a.yaml', { text: 'unsaved a', baseVersion: version('one') });
    kept.put('specs/b.yaml', { text: 'unsaved b', baseVersion: version('old b') });
    const documents = new DocumentStore(api, kept);
    expect(await documents.draftPaths()).toEqual(['specs/a.yaml', 'specs/b.yaml']);
    await documents.open('specs/a.yaml');
    await documents.open('specs/b.yaml');
    expect(documents.get('specs/a.yaml')).toMatchObject({ text: 'unsaved a', saved: 'one', restored: true });
    expect(documents.get('specs/a.yaml')?.conflict).toBeUndefined();
    expect(documents.get('specs/b.yaml')).toMatchObject({
      text: 'unsaved b',
      restored: true,
      conflict: { disk: 'theirs', cause: 'change' },
    });
  });

  it('keeps unsaved text in the drafts until it is saved or the tab is closed', async () => {
    const { api } = fakeDisk({ 'specs/a.yaml': 'one', 'specs/b.yaml': 'two' });
    const kept = drafts();
    const documents = new DocumentStore(api, kept);
    await documents.open('specs/a.yaml');
    await documents.open('specs/b.yaml');
    documents.edit('specs/a.yaml', 'a edited');
    documents.edit('specs/b.yaml', 'b edited');
    expect(kept.get('specs/a.yaml')).toEqual({ text: 'a edited', baseVersion: 'v:one' });
    await documents.save('specs/a.yaml');
    documents.close('specs/b.yaml');
    expect(kept.paths()).toEqual([]);
  });
});

import type { WorkspaceFile, WorkspaceFileChange } from '../../../server/src/contract/index.js';
import { ApiError, type WorkbenchApi } from '../api/client.js';
import type { Drafts } from './drafts.js';
import { ExternalStore } from '../base/external-store.js';
import { isWithin, movedPath } from './paths.js';

/** The file on disk differs from what the editor's text is based on, and the editor holds changes of its own. */
export interface DiskConflict {
  /** The file on disk now; undefined when it was deleted. */
  disk?: string;
  /** Its version (undefined when deleted). */
  version?: string;
  /** `save`: found by a save the server refused; `change`: announced by the server's file events. */
  cause: 'change' | 'save';
}

/** One open file: what is on disk (as last read or saved) and what the editor holds. */
export interface OpenDocument {
  path: string;
  saved: string;
  text: string;
  status: 'loading' | 'ready' | 'saving' | 'error';
  error?: string;
  /** The version of the file on disk that `text` is based on: a save sends it, and is refused when stale. */
  version?: string;
  /** Counts replacements of `text` from outside the editor (reloaded from disk): the editor takes the new text. */
  revision: number;
  /** A change on disk waiting for the user's choice (compare, keep mine, take disk). */
  conflict?: DiskConflict;
  /** `text` holds unsaved changes restored from an earlier session of the page. */
  restored?: boolean;
}

export interface DocumentsState {
  documents: Record<string, OpenDocument>;
}

/** True when the editor holds changes that are not on disk. */
export function isDirty(doc: OpenDocument | undefined): boolean {
  return doc !== undefined && doc.status !== 'loading' && doc.text !== doc.saved;
}

/**
 * The contents of open files. Editor keystrokes update `text` without re-rendering anything unless the
 * file's dirty state flips, so a large file stays fast to type in; saves go through the workspace API
 * with the version they are based on. Changes on disk ({@link diskChanged}) reload a clean document and
 * put a conflict on a dirty one. Unsaved text is kept in {@link Drafts} until saved or given up.
 */
export class DocumentStore extends ExternalStore<DocumentsState> {
  /** Paths whose file changed on disk while they were being saved: looked at again after the save. */
  private readonly changedWhileSaving = new Set<string>();

  constructor(
    private readonly api: WorkbenchApi,
    private readonly drafts: Drafts,
  ) {
    super({ documents: {} });
  }

  get(path: string): OpenDocument | undefined {
    return this.state.documents[path];
  }

  /** Loads a file unless it is already open; unsaved text of an earlier session comes back as unsaved. */
  async open(path: string): Promise<void> {
    if (this.state.documents[path] && this.state.documents[path].status !== 'error') return;
    this.set(path, { path, saved: '', text: '', status: 'loading', revision: 0 });
    try {
      const [file] = await Promise.all([this.api.read(path), this.drafts.ready]);
      this.set(path, this.withDraft(file));
    } catch (error) {
      this.set(path, { path, saved: '', text: '', status: 'error', error: (error as Error).message, revision: 0 });
    }
  }

  /** The paths with unsaved text kept from an earlier session (to reopen their tabs). */
  async draftPaths(): Promise<string[]> {
    await this.drafts.ready;
    return this.drafts.paths();
  }

  /** Records the editor's text; notifies only when the dirty marker changes. */
  edit(path: string, text: string): void {
    const doc = this.state.documents[path];
    if (!doc || doc.status === 'loading' || doc.status === 'error') return;
    const wasDirty = isDirty(doc);
    doc.text = text;
    this.keepDraft(doc);
    if (isDirty(doc) !== wasDirty) this.set(path, { ...doc });
  }

  /** Saves a file's editor text over the version it is based on; resolves when it is on disk. */
  async save(path: string): Promise<void> {
    const doc = this.state.documents[path];
    if (!doc || doc.status === 'loading' || doc.status === 'error') return;
    const text = doc.text;
    this.set(path, { ...doc, status: 'saving' });
    try {
      const written = await this.api.write(path, text, doc.version);
      const current = this.state.documents[path];
      if (current) {
        const saved = { ...current, saved: text, version: written.version, status: 'ready' as const };
        this.set(path, { ...saved, error: undefined, conflict: undefined, restored: false });
        this.keepDraft(saved);
      }
    } catch (error) {
      const current = this.state.documents[path];
      const stale = error instanceof ApiError && error.code === 'WB_STALE_SAVE';
      if (current) this.set(path, { ...current, status: 'ready', error: stale ? undefined : (error as Error).message });
      if (stale) await this.compareWithDisk(path, 'save');
      throw error;
    } finally {
      if (this.changedWhileSaving.delete(path)) await this.compareWithDisk(path, 'change');
    }
  }

  /** Follows a change of a file on disk (the server's file events). */
  async diskChanged(change: WorkspaceFileChange): Promise<void> {
    const doc = this.state.documents[change.path];
    if (!doc || doc.status === 'loading' || doc.status === 'error') return;
    if (doc.status === 'saving') {
      this.changedWhileSaving.add(change.path);
      return;
    }
    if (change.version !== undefined && (change.version === doc.version || change.version === doc.conflict?.version))
      return;
    await this.compareWithDisk(change.path, 'change');
  }

  /** Settles a conflict: keep the editor's text (a save then replaces the disk version) or take the disk's. */
  resolve(path: string, choice: 'mine' | 'disk'): void {
    const doc = this.state.documents[path];
    if (!doc?.conflict) return;
    const { disk, version } = doc.conflict;
    if (choice === 'mine') {
      const mine = { ...doc, saved: disk ?? '', version, conflict: undefined };
      this.set(path, mine);
      this.keepDraft(mine);
      return;
    }
    const text = disk ?? '';
    this.set(path, { ...doc, saved: text, text, version, revision: doc.revision + 1, conflict: undefined });
    this.drafts.remove(path);
  }

  /** Writes the unsaved text to the drafts now (the page is going away). */
  flushDrafts(): void {
    this.drafts.flush();
  }

  /** Hides the note that the text was restored from an earlier session. */
  dismissRestored(path: string): void {
    const doc = this.state.documents[path];
    if (doc?.restored) this.set(path, { ...doc, restored: false });
  }

  /** Follows a rename of a file or folder: open documents under `from` move to `to`. */
  renamed(from: string, to: string): void {
    const documents: Record<string, OpenDocument> = {};
    for (const [path, doc] of Object.entries(this.state.documents)) {
      const moved = movedPath(path, from, to);
      documents[moved] = { ...doc, path: moved };
      if (moved !== path) {
        this.drafts.remove(path);
        this.keepDraft(documents[moved]);
      }
    }
    this.replace(documents);
  }

  /** Forgets a closed (or deleted) document, and its unsaved text. */
  close(path: string): void {
    const documents = { ...this.state.documents };
    for (const key of Object.keys(documents)) {
      if (!isWithin(key, path)) continue;
      delete documents[key];
      this.drafts.remove(key);
    }
    this.replace(documents);
  }

  /** The document for a file just read, with the unsaved text of an earlier session if there is some. */
  private withDraft(file: WorkspaceFile): OpenDocument {
    const { path, content, version } = file;
    const doc: OpenDocument = { path, saved: content, text: content, version, status: 'ready', revision: 0 };
    const draft = this.drafts.get(path);
    if (!draft || draft.text === content) {
      this.drafts.remove(path);
      return doc;
    }
    // The draft started from another version than the disk's now: the disk changed while the page was away.
    const conflict: DiskConflict | undefined =
      draft.baseVersion === version ? undefined : { disk: content, version, cause: 'change' };
    return { ...doc, text: draft.text, version: draft.baseVersion, conflict, restored: true };
  }

  /** Reads the file and reloads a clean document, or puts a conflict on a dirty one. */
  private async compareWithDisk(path: string, cause: DiskConflict['cause']): Promise<void> {
    let file: WorkspaceFile | undefined;
    try {
      file = await this.api.read(path);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) return;
    }
    const doc = this.state.documents[path];
    if (!doc || doc.status !== 'ready') return;
    if (file && file.version === doc.version) return;
    if (file && file.content === doc.text) {
      this.set(path, { ...doc, saved: file.content, version: file.version, conflict: undefined });
      this.drafts.remove(path);
    } else if (file && !isDirty(doc)) {
      const reloaded = { saved: file.content, text: file.content, version: file.version, revision: doc.revision + 1 };
      this.set(path, { ...doc, ...reloaded, conflict: undefined });
    } else {
      this.set(path, { ...doc, conflict: { disk: file?.content, version: file?.version, cause } });
    }
  }

  /** Keeps (or drops) the unsaved text of a document in the drafts. */
  private keepDraft(doc: OpenDocument): void {
    if (doc.text === doc.saved && !doc.conflict) this.drafts.remove(doc.path);
    else this.drafts.put(doc.path, { text: doc.text, baseVersion: doc.version });
  }

  private set(path: string, doc: OpenDocument): void {
    this.replace({ ...this.state.documents, [path]: doc });
  }

  private replace(documents: Record<string, OpenDocument>): void {
    this.replaceState({ documents });
  }
}

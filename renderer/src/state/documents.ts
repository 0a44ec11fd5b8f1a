import type { WorkbenchApi } from '../api/client.js';
import { isWithin, movedPath } from './paths.js';

/** One open file: what is on disk (as last read or saved) and what the editor holds. */
export interface OpenDocument {
  path: string;
  saved: string;
  text: string;
  status: 'loading' | 'ready' | 'saving' | 'error';
  error?: string;
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
 * file's dirty state flips, so a large file stays fast to type in; saves go through the workspace API.
 */
export class DocumentStore {
  private state: DocumentsState = { documents: {} };
  private readonly listeners = new Set<() => void>();

  constructor(private readonly api: WorkbenchApi) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): DocumentsState => this.state;

  get(path: string): OpenDocument | undefined {
    return this.state.documents[path];
  }

  /** Loads a file unless it is already open. */
  async open(path: string): Promise<void> {
    if (this.state.documents[path] && this.state.documents[path].status !== 'error') return;
    this.set(path, { path, saved: '', text: '', status: 'loading' });
    try {
      const file = await this.api.read(path);
      this.set(path, { path, saved: file.content, text: file.content, status: 'ready' });
    } catch (error) {
      this.set(path, { path, saved: '', text: '', status: 'error', error: (error as Error).message });
    }
  }

  /** Records the editor's text; notifies only when the dirty marker changes. */
  edit(path: string, text: string): void {
    const doc = this.state.documents[path];
    if (!doc || doc.status === 'loading') return;
    const wasDirty = isDirty(doc);
    doc.text = text;
    if (isDirty(doc) !== wasDirty) this.set(path, { ...doc });
  }

  /** Saves a file's editor text; resolves when it is on disk. */
  async save(path: string): Promise<void> {
    const doc = this.state.documents[path];
    if (!doc || doc.status === 'loading' || doc.status === 'error') return;
    const text = doc.text;
    this.set(path, { ...doc, status: 'saving' });
    try {
      await this.api.write(path, text);
      const current = this.state.documents[path];
      if (current) this.set(path, { ...current, saved: text, status: 'ready', error: undefined });
    } catch (error) {
      const current = this.state.documents[path];
      if (current) this.set(path, { ...current, status: 'ready', error: (error as Error).message });
      throw error;
    }
  }

  /** Follows a rename of a file or folder: open documents under `from` move to `to`. */
  renamed(from: string, to: string): void {
    const documents: Record<string, OpenDocument> = {};
    for (const [path, doc] of Object.entries(this.state.documents)) {
      const moved = movedPath(path, from, to);
      documents[moved] = { ...doc, path: moved };
    }
    this.replace(documents);
  }

  /** Forgets a closed (or deleted) document. */
  close(path: string): void {
    const documents = { ...this.state.documents };
    for (const key of Object.keys(documents)) if (isWithin(key, path)) delete documents[key];
    this.replace(documents);
  }

  private set(path: string, doc: OpenDocument): void {
    this.replace({ ...this.state.documents, [path]: doc });
  }

  private replace(documents: Record<string, OpenDocument>): void {
    this.state = { documents };
    for (const listener of this.listeners) listener();
  }
}

import { loadPersisted, savePersisted } from './persisted.js';

/** Unsaved editor text of one file, and the version of the file on disk it started from. */
export interface Draft {
  text: string;
  baseVersion?: string;
}

const writeDelayMs = 300;

/**
 * Unsaved changes kept in the browser (localStorage, per workspace), so that a reload of the page, a
 * crash or a closed window does not lose them: the next session restores them as unsaved buffers.
 * Writes are batched; {@link flush} writes at once (the page is going away).
 */
export class Drafts {
  private drafts: Record<string, Draft> = {};
  private key: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Resolves once the workspace, whose drafts these are, is known. */
  readonly ready: Promise<void>;

  /** `workspace` resolves with the workspace's name (the key of its drafts); a failure means no drafts. */
  constructor(workspace: Promise<string>) {
    this.ready = workspace.then(
      (name) => {
        this.key = `drafts:${name}`;
        this.drafts = { ...loadPersisted<Record<string, Draft>>(this.key, {}), ...this.drafts };
      },
      () => undefined,
    );
  }

  get(path: string): Draft | undefined {
    const draft = this.drafts[path];
    return draft && typeof draft.text === 'string' ? draft : undefined;
  }

  /** The paths that have a draft. */
  paths(): string[] {
    return Object.keys(this.drafts);
  }

  put(path: string, draft: Draft): void {
    this.drafts[path] = draft;
    this.schedule();
  }

  remove(path: string): void {
    if (!(path in this.drafts)) return;
    delete this.drafts[path];
    this.schedule();
  }

  /** Writes the drafts now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.key) savePersisted(this.key, this.drafts);
  }

  private schedule(): void {
    if (this.timer === undefined) this.timer = setTimeout(() => this.flush(), writeDelayMs);
  }
}

import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { parse } from 'yaml';
import type { WorkbenchDiagnostic } from '../contract/index.js';
import type { Logger } from '../core/logger.js';
import { watchPaths } from '../core/watch-paths.js';

/** One file read only when the server starts. */
export interface StartOnlyFile {
  absolute: string;
  /** Its name as the workbench shows it (`query/sources.yaml`). */
  workspacePath: string;
  /** Top-level YAML sections that are read again while the server runs, so a change to them needs no restart. */
  liveSections?: string[];
}

/** The file's content, less its live sections (all of it when it does not parse as a YAML mapping). */
function fingerprint(file: StartOnlyFile): string | undefined {
  let content: string;
  try {
    content = fs.readFileSync(file.absolute, 'utf8');
  } catch {
    return undefined;
  }
  if (file.liveSections?.length) {
    try {
      const parsed: unknown = parse(content);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const rest = { ...(parsed as Record<string, unknown>) };
        for (const section of file.liveSections) delete rest[section];
        content = JSON.stringify(rest);
      }
    } catch {
      // Not YAML: the text itself is compared, and any change asks for a restart.
    }
  }
  return createHash('sha256').update(content).digest('hex');
}

/**
 * Files a part of the server reads only at start (the query folder's sources.yaml, ontology.ttl and
 * mapping.ttl: the query service attaches its sources once). Watched so that an edit is not silently
 * ignored: while a file differs from what the server started with (outside its live sections),
 * {@link problems} holds a warning that a restart is needed, and the first change is logged. Emits `change`
 * when that list may have changed.
 */
export class StartOnlyFiles extends EventEmitter<{ change: [] }> {
  private readonly atStart = new Map<string, string | undefined>();
  private readonly changed = new Set<StartOnlyFile>();
  private readonly closeWatcher: () => Promise<void>;

  constructor(
    private readonly files: StartOnlyFile[],
    private readonly readBy: string,
    private readonly log: Logger,
    debounceMs = 100,
  ) {
    super();
    for (const file of files) this.atStart.set(file.absolute, fingerprint(file));
    const watcher = watchPaths(
      files.map((file) => ({ path: file.absolute, type: 'file' as const })),
      () => this.check(),
      log,
      debounceMs,
    );
    this.closeWatcher = watcher.close;
  }

  /** A warning for each file that differs from the version the server started with. */
  problems(): WorkbenchDiagnostic[] {
    return [...this.changed].map((file) => ({
      path: file.workspacePath,
      severity: 'warning' as const,
      message: `changed since the server started: ${this.readBy} reads it only at start; restart the server`,
    }));
  }

  /** Compares every file with its version at start. */
  check(): void {
    for (const file of this.files) {
      const differs = fingerprint(file) !== this.atStart.get(file.absolute);
      if (differs && !this.changed.has(file))
        this.log.warn(
          { file: file.workspacePath },
          `${file.workspacePath} changed: ${this.readBy} reads it only at start; restart the server to apply it`,
        );
      if (differs) this.changed.add(file);
      else this.changed.delete(file);
    }
    this.emit('change');
  }

  /** Stops watching. */
  close(): Promise<void> {
    return this.closeWatcher();
  }
}

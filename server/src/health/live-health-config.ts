import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { WorkbenchDiagnostic } from '../contract/index.js';
import { ConfigFileError } from '../core/config-file.js';
import type { Logger } from '../core/logger.js';
import { watchPaths } from '../core/watch-paths.js';
import { loadHealthConfig } from './health-config.js';
import type { Contributor } from './health-types.js';

/** Options of {@link LiveHealthConfig}. */
export interface LiveHealthConfigOptions {
  /** The health.yaml file. */
  file: string;
  /** Its name as the workbench shows it (`health.yaml`). */
  workspacePath: string;
  /** Names of the built-in components, which the file may not replace. */
  reserved: readonly string[];
  log: Logger;
  /** Watch the file and apply every change (the server's hot reload); otherwise it is read once. */
  watch: boolean;
  debounceMs?: number;
}

/**
 * `health.yaml` as the health routes use it: read at start (a bad file stops the start, as any bad
 * configuration does) and, with hot reload, again after every change. A change that does not load keeps
 * the last good components serving; its error, with line and column, goes to the log and to
 * {@link problems} until a good version replaces it. Emits `change` after each reload, good or bad.
 */
export class LiveHealthConfig extends EventEmitter<{ change: [] }> {
  private current: Record<string, Contributor>;
  private fault: ConfigFileError | undefined;
  private readonly closeWatcher: () => Promise<void>;

  constructor(private readonly options: LiveHealthConfigOptions) {
    super();
    this.current = loadHealthConfig(options.file, options.reserved);
    if (!options.watch) {
      this.closeWatcher = async () => undefined;
      return;
    }
    const watcher = watchPaths(
      [{ path: options.file, type: 'file' }],
      () => this.reload(),
      options.log,
      options.debounceMs,
    );
    this.closeWatcher = watcher.close;
  }

  /** The components health.yaml adds, as of its last good version. */
  components(): Record<string, Contributor> {
    return this.current;
  }

  /** Why the file on disk is not the one serving, if it is not: one error with its line. */
  problems(): WorkbenchDiagnostic[] {
    if (!this.fault) return [];
    const { line, column } = this.fault;
    const message = `${this.fault.detail} (the last good health.yaml is still in use)`;
    return [{ path: this.options.workspacePath, severity: 'error', message, line, column }];
  }

  /** Reads the file again: its components replace the current ones, or its error is kept and logged. */
  reload(): void {
    const { file, reserved, log } = this.options;
    try {
      this.current = loadHealthConfig(file, reserved);
      this.fault = undefined;
      log.info({ file: path.basename(file), components: Object.keys(this.current) }, 'health.yaml reloaded');
    } catch (error) {
      if (!(error instanceof ConfigFileError)) {
        this.fault = new ConfigFileError(file, (error as Error).message);
      } else this.fault = error;
      const { line, column } = this.fault;
      log.error(
        { file: path.basename(file), line, column },
        `${this.fault.message}: health.yaml not applied, the last good version stays in use`,
      );
    }
    this.emit('change');
  }

  /** Stops watching the file. */
  close(): Promise<void> {
    return this.closeWatcher();
  }
}

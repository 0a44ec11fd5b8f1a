import type { Logger } from '../../core/logger.js';
import type { Gateway } from '../gateway.js';
import { ReloadFollower } from '../reload-follower.js';
import type { WorkspaceUnit } from '../route-table.js';
import { DiffPool } from './diff-pool.js';
import { diffSpecsInSlices, type SpecChange } from './spec-diff.js';

/** What a new version of one spec file changed since its last good version. */
export interface SpecChangeReport {
  /** The spec's file name in the specs folder. */
  file: string;
  time: number;
  breaking: number;
  changes: SpecChange[];
}

/** At most this many changes go into one log line; the workbench gets them all. */
const loggedChanges = 50;

/**
 * Compares each spec that a reload loads anew with its last good version (the document the route table served
 * until then) and reports every change, breaking or not, to the log and the listeners (the workbench). A spec
 * that fails to load keeps its last good version, which the next good one is compared with. Comparison starts
 * after the reload is reported, on a later turn of the event loop: the first load and readiness never wait
 * for it, and the first load compares nothing.
 */
export class SpecChanges extends ReloadFollower<SpecChangeReport> {
  private readonly current = new Map<string, WorkspaceUnit>();
  private readonly pool = new DiffPool();

  constructor(
    gateway: Gateway,
    private readonly log: Logger,
  ) {
    super(gateway);
    for (const unit of gateway.loadedUnits) if (unit.kind === 'spec') this.current.set(unit.file, unit);
  }

  /** Stops following reloads and ends the worker. */
  override close(): void {
    super.close();
    this.pool.close();
  }

  protected followReload(): void {
    const specs = this.gateway.loadedUnits.filter((u) => u.kind === 'spec');
    const pairs: Array<[WorkspaceUnit, WorkspaceUnit]> = [];
    const loaded = new Set<string>();
    for (const unit of specs) {
      loaded.add(unit.file);
      const last = this.current.get(unit.file);
      this.current.set(unit.file, unit);
      if (last && last !== unit && last.document && unit.document) pairs.push([last, unit]);
    }
    for (const file of [...this.current.keys()]) if (!loaded.has(file)) this.current.delete(file);
    if (pairs.length === 0) return;
    this.queue(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await this.compare(pairs);
    });
  }

  private async compare(pairs: Array<[WorkspaceUnit, WorkspaceUnit]>): Promise<void> {
    for (const [last, unit] of pairs) {
      let changes: SpecChange[];
      try {
        // In the worker when both versions came as JSON text; a document that is not JSON-safe (`.inf`) is
        // compared here, in slices.
        changes =
          last.documentJson !== undefined && unit.documentJson !== undefined
            ? await this.pool.diff(last.documentJson, unit.documentJson)
            : await diffSpecsInSlices(last.document, unit.document);
      } catch (error) {
        this.log.warn(
          { file: unit.file },
          `cannot compare ${unit.file} with its last version: ${(error as Error).message}`,
        );
        continue;
      }
      if (changes.length === 0) continue;
      const breaking = changes.filter((c) => c.verdict === 'breaking').length;
      const report: SpecChangeReport = { file: unit.file, time: Date.now(), breaking, changes };
      const fields = { file: unit.file, breaking, changes: changes.slice(0, loggedChanges) };
      const summary =
        `${unit.file}: ${breaking} breaking, ${changes.length - breaking} non-breaking ` +
        'changes since the last version';
      if (breaking > 0) this.log.warn(fields, summary);
      else this.log.info(fields, summary);
      this.emit(report);
    }
  }
}

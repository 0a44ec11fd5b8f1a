import { BoundedWorker, type WorkerLimits } from '../bounded-worker.js';
import type { SpecChange } from './spec-diff.js';

/** Two versions of a spec's bundled document, as JSON text (posting a string costs a copy, not a clone walk). */
export interface DiffJob {
  oldJson: string;
  newJson: string;
}

/** Comparison bounds by default: a 20 000-path spec compares in about 2 s on a loaded machine. */
export const defaultDiffLimits: WorkerLimits = { timeoutMs: 60_000, maxHeapMb: 512 };

/**
 * The breaking-change comparison in one worker thread (see {@link BoundedWorker}): the documents are parsed and
 * walked there, so the event loop that serves requests only copies two strings.
 */
export class DiffPool extends BoundedWorker<DiffJob, SpecChange[]> {
  constructor(limits: WorkerLimits = defaultDiffLimits) {
    super(import.meta.url, './diff-worker', 'comparison', limits);
  }

  /** The changes from the document of `oldJson` to that of `newJson`. */
  diff(oldJson: string, newJson: string): Promise<SpecChange[]> {
    return this.run({ oldJson, newJson });
  }
}

import { BoundedWorker, type WorkerLimits, type WorkerReply } from '../bounded-worker.js';
import type { LintFinding } from './spectral-linter.js';

/** One file to lint: its text when the caller has it, else the worker reads `file`. */
export interface LintJob {
  file: string;
  text?: string;
  /** Referenced files are read only under this folder. */
  root: string;
  rulesetFile?: string;
}

/** What the lint worker answers for one job. */
export type LintReply = WorkerReply<LintFinding[]>;

/** Bounds of one lint job. */
export type LintLimits = WorkerLimits;

/** Lint bounds by default: generous for a 3 MB vendor spec, short for a reference bomb. */
export const defaultLintLimits: LintLimits = { timeoutMs: 30_000, maxHeapMb: 512 };

/** The one lint worker thread (see {@link BoundedWorker}): files linted one at a time, off the request path. */
export class LintPool extends BoundedWorker<LintJob, LintFinding[]> {
  constructor(limits: LintLimits = defaultLintLimits) {
    super(import.meta.url, './lint-worker', 'lint', limits);
  }

  /** The findings of `file` (of `text` when given), with references read only under `root`. */
  lint(file: string, root: string, rulesetFile?: string, text?: string): Promise<LintFinding[]> {
    return this.run({ file, text, root, rulesetFile });
  }
}

import fs from 'node:fs';
import os from 'node:os';

/**
 * The nice value of the threads large queries compute on. Nice 10 weighs about a ninth of nice 0, so a short
 * query's step that wakes beside them gets a core at once, and large queries still share the machine's time.
 */
export const LOWERED_NICE = 10;

/** Why the priority of a thread could not be lowered, once: the caller logs it and queries go on unlowered. */
export type RefusalReport = (error: Error) => void;

/**
 * Lowers the scheduling priority of the threads a piece of work starts in this process (Linux: DuckDB's worker
 * threads, which an instance starts when it is created or its `threads` setting changes). The threads are the
 * ones that appear in `/proc/self/task` while the work runs; an unprivileged thread cannot raise its priority
 * back (RLIMIT_NICE is usually 0), so only threads dedicated to large queries may be given to this. Where
 * renicing is refused, or there is no `/proc`, nothing is lowered: reported once, and the work runs as before.
 */
export class LowPriorityThreads {
  private enabled: boolean;

  /**
   * `taskFolder` lists the process's threads; `renice` sets one thread's nice value (`os.setPriority` takes a
   * thread id on Linux). Both are parameters so tests can see and refuse what is done.
   */
  constructor(
    private readonly refused: RefusalReport,
    private readonly taskFolder = '/proc/self/task',
    private readonly renice: (tid: number, nice: number) => void = (tid, nice) => os.setPriority(tid, nice),
    platform: NodeJS.Platform = process.platform,
  ) {
    // Elsewhere a thread id is not something setPriority takes (on macOS it would name a process).
    this.enabled = platform === 'linux';
  }

  /** Runs `work` and lowers the priority of the threads that appeared in the process meanwhile. */
  async around<T>(work: () => Promise<T>): Promise<T> {
    const before = this.threads();
    try {
      return await work();
    } finally {
      // Threads started by work that then failed belong to the same instance, so they are lowered as well.
      if (before) for (const tid of this.threads() ?? []) if (!before.has(tid)) this.lower(Number(tid));
    }
  }

  private threads(): Set<string> | undefined {
    if (!this.enabled) return undefined;
    try {
      return new Set(fs.readdirSync(this.taskFolder));
    } catch (error) {
      this.disable(error as Error);
      return undefined;
    }
  }

  private lower(tid: number): void {
    if (!this.enabled) return;
    try {
      this.renice(tid, LOWERED_NICE);
    } catch (error) {
      // A thread that ended meanwhile (ESRCH) is no refusal; anything else (EACCES, EPERM) is.
      if ((error as { info?: { code?: string } }).info?.code !== 'ESRCH') this.disable(error as Error);
    }
  }

  private disable(error: Error): void {
    this.enabled = false;
    this.refused(error);
  }
}

import { EventEmitter } from 'node:events';

/** A fault of loaded code while it served: a handler stopped for time or memory, or one that crashed. */
export interface RuntimeFault {
  /** The workspace file the code comes from. */
  file: string;
  /** `GET /library-api/books`, when one route caused it. */
  route?: string;
  message: string;
  /** When it happened (ISO 8601). */
  at: string;
}

/** How many faults are kept per file: enough to see a pattern, bounded against a module that faults in a loop. */
const keptPerFile = 5;

/**
 * The recent runtime faults of each workspace file, for the workbench's problems panel. A file's faults
 * are cleared when a new version of it loads (they describe the code that faulted, not its successor) and when
 * the restarted module answers again (they are past).
 */
export class RuntimeFaults extends EventEmitter<{ fault: [RuntimeFault]; cleared: [string] }> {
  private readonly byFile = new Map<string, RuntimeFault[]>();

  /** Records a fault and tells listeners. */
  record(fault: Omit<RuntimeFault, 'at'>): void {
    const entry: RuntimeFault = { ...fault, at: new Date().toISOString() };
    const list = this.byFile.get(fault.file) ?? [];
    list.push(entry);
    if (list.length > keptPerFile) list.shift();
    this.byFile.set(fault.file, list);
    this.emit('fault', entry);
  }

  /** Forgets the faults of `file`, telling listeners when there were any. */
  clear(file: string): void {
    if (this.byFile.delete(file)) this.emit('cleared', file);
  }

  /** Every kept fault, oldest first per file. */
  list(): RuntimeFault[] {
    return [...this.byFile.values()].flat();
  }
}

import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { startModuleProcess } from '../../runtime/module-entry.js';
import type { HandlerProcessData } from './handler-protocol.js';

/** The nice value of handler processes: below the gateway's (0), so a busy handler never slows the rest. */
const handlerPriority = 10;

/**
 * Starts the processes handler modules run in, one ahead of need: Node's start-up and the SDK's import
 * are most of the time from saving a handler to its serving, so a spare process waits, booted, for the
 * next module to load, and a new spare boots behind each one taken. One pool per server; every process
 * has the same memory and answer limits.
 */
export class HandlerProcesses {
  private spare: ChildProcess | undefined;
  private closed = false;

  constructor(private readonly settings: { memoryMb: number; responseLimit: number }) {}

  /** A booted process for a module: the spare when it is alive, else a new one. */
  take(): ChildProcess {
    let child = this.spare;
    this.spare = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null || !child.connected) {
      child?.kill('SIGKILL');
      child = this.start();
    }
    child.ref();
    child.channel?.ref();
    setImmediate(() => this.refill());
    return child;
  }

  /** Stops the spare; processes taken belong to their modules. */
  close(): void {
    this.closed = true;
    this.spare?.kill('SIGKILL');
    this.spare = undefined;
  }

  private refill(): void {
    if (this.closed || this.spare !== undefined) return;
    const spare = this.start();
    // A spare must not keep the server (or a test) alive.
    spare.unref();
    spare.channel?.unref();
    this.spare = spare;
  }

  private start(): ChildProcess {
    const data: HandlerProcessData = { responseLimit: this.settings.responseLimit };
    const child = startModuleProcess(import.meta.url, './handler-process', [JSON.stringify(data)], {
      execArgv: [`--max-old-space-size=${this.settings.memoryMb}`],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    // A handler spinning in a loop holds a core until it is cut off; at a lower priority it cannot
    // take that core from the gateway, while the gateway waiting on it leaves it all the time it needs.
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, handlerPriority);
    } catch {
      // Not allowed here (some sandboxes): same priority as the gateway.
    }
    return child;
  }
}

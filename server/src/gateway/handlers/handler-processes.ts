import type { ChildProcess } from 'node:child_process';
import { startModuleProcess } from '../../runtime/module-entry.js';
import { killGroup } from './process-tree.js';
import type { TracingSettings } from '../../core/settings.js';
import type { Socket } from 'node:net';
import { messageFrameLimit, type HandlerProcessData } from './handler-protocol.js';
import type { HandlerEnvSource } from './workspace-env.js';
import { FrameChannel } from './frame-channel.js';

/** A handler process, its channel (fd 3), and when it has booted (its first frame). */
export interface BootingProcess {
  child: ChildProcess;
  channel: FrameChannel;
  booted: Promise<void>;
}

/**
 * How long Node may take to start a handler process. Generous: it is not the module's load time
 * (HANDLER_LOAD_TIMEOUT_MS, counted from here), and a busy machine can take seconds.
 */
const bootTimeoutMs = 60_000;

/**
 * Starts the processes handler modules run in, one ahead of need: Node's start-up and the SDK's import
 * are most of the time from saving a handler to its serving, so a spare process waits, booted, for the
 * next module to load, and a new spare boots behind each one taken. One pool per server; every process
 * has the same memory and answer limits.
 */
export class HandlerProcesses {
  private spare: BootingProcess | undefined;
  /** The environment the spare started with: a spare from before a change of `handlers/.env` is not handed out. */
  private spareEnv: NodeJS.ProcessEnv | undefined;
  private closed = false;

  constructor(
    private readonly settings: {
      memoryMb: number;
      responseLimit: number;
      /** The environment of handler processes, never the gateway's. */
      env: HandlerEnvSource;
      /** The gateway's tracing: processes load the SDK only when it is on. */
      tracing?: TracingSettings;
    },
  ) {}

  /** A process for a module: the spare when it is alive, else a new one; `booted` settles once it can take the module.
   * */
  take(): BootingProcess {
    let taken = this.spare;
    const stale = this.spareEnv !== this.settings.env.current();
    this.spare = undefined;
    const { child, channel } = taken ?? {};
    if (taken === undefined || stale || child!.exitCode !== null || child!.signalCode !== null || channel!.isClosed) {
      if (child?.pid !== undefined) killGroup(child.pid);
      taken = this.start();
    }
    taken.child.ref();
    taken.channel.ref(true);
    setImmediate(() => this.refill());
    return taken;
  }

  /** Stops the spare; processes taken belong to their modules. */
  close(): void {
    this.closed = true;
    const pid = this.spare?.child.pid;
    if (pid !== undefined) killGroup(pid);
    this.spare = undefined;
  }

  private refill(): void {
    if (this.closed || this.spare !== undefined) return;
    this.spareEnv = this.settings.env.current();
    const spare = this.start();
    // A spare must not keep the server (or a test) alive.
    spare.child.unref();
    spare.channel.ref(false);
    this.spare = spare;
  }

  private start(): BootingProcess {
    const data: HandlerProcessData = { responseLimit: this.settings.responseLimit, tracing: this.settings.tracing };
    const child = startModuleProcess(import.meta.url, './handler-process', [JSON.stringify(data)], {
      execArgv: [`--max-old-space-size=${this.settings.memoryMb}`],
      // fd 3: the frame channel (a socket pair); no IPC channel, so the module cannot reach one.
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: this.settings.env.current(),
      // The leader of a process group of its own, so that whatever the module starts is stopped with it.
      detached: true,
    });
    // The module's answers are bounded by the response limit, its other messages by messageFrameLimit.
    const channel = new FrameChannel(child.stdio[3] as Socket, [messageFrameLimit, this.settings.responseLimit]);
    const booted = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`its process did not start within ${bootTimeoutMs} ms`)),
        bootTimeoutMs,
      ).unref();
      channel.receive({
        frame: () => {
          clearTimeout(timer);
          resolve();
        },
        oversized: () => undefined,
        broken: () => undefined,
        ended: () => undefined,
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`its process ended while starting (${signal ?? `exit code ${code}`})`));
      });
    });
    booted.catch(() => undefined); // a spare nobody takes may fail unobserved
    return { child, channel, booted };
  }
}

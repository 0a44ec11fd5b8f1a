import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../../core/logger.js';
import { LoadError } from '../load-error.js';
import type { BundleSourceMap } from './bundle-source-map.js';
import { sdkImportName, type CompiledHandler } from './handler-compiler.js';
import type { HandlerProcesses } from './handler-processes.js';
import { checkedMessage, oversizedResult, type ProtocolViolation } from './handler-messages.js';
import {
  messageFrame,
  resultFrame,
  type FromHandler,
  type RouteDescription,
  type ToHandler,
} from './handler-protocol.js';
import type { HandlerOutput } from './handler-output.js';
import type { FrameChannel, FrameSink } from './frame-channel.js';
import { forgetHandlerMemory, recordHandlerMemory } from '../../observability/metrics.js';
import { ProcessTree } from './process-tree.js';

/** What a handler process needs to start. */
export interface HandlerChildOptions {
  /** The handler file name, for messages and logs. */
  file: string;
  /** The process's JavaScript heap (`--max-old-space-size`); its whole resident memory may reach twice that. */
  memoryMb: number;
  loadTimeoutMs: number;
  log: Logger;
  /** Where processes come from. */
  processes: HandlerProcesses;
  /** Largest JSON answer in bytes: a result message over it is a protocol violation. */
  responseLimit: number;
  /** Where the module's stdout and stderr are logged, within its budget. */
  output: HandlerOutput;
}

/** How often the resident memory of a handler's processes is read (buffers live outside the JavaScript heap). */
const memoryCheckMs = 500;
/**
 * How long a process whose channel ended has to exit by itself before it is killed: a crash or V8's out-of-memory
 * abort closes the channel first, and its exit says better why it ended.
 */
const channelEndGraceMs = 200;

/**
 * One running process of a handler module: it loads the module's bundle, then runs its route functions
 * on the messages it is sent. Its output goes to the gateway's log, its memory is bounded (heap by V8,
 * the whole process by a watch on its resident size), and its end is reported with the reason.
 */
export class HandlerChild {
  /** The process and every process it started. */
  private readonly tree: ProcessTree;
  private outOfMemory = false;
  /** Why the process was stopped for what it did to its channel, when it was. */
  private channelFault: string | undefined;
  private killed = false;
  private onMessage: (message: FromHandler | ProtocolViolation) => void = () => undefined;
  private onEnd: (reason: string) => void = () => undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly channel: FrameChannel,
    private readonly options: HandlerChildOptions,
  ) {
    this.tree = new ProcessTree(child.pid!);
    this.forwardOutput();
    const memoryWatch = setInterval(() => this.checkMemory(), memoryCheckMs).unref();
    child.once('exit', (code, signal) => {
      clearInterval(memoryWatch);
      channel.close();
      forgetHandlerMemory(options.file);
      // What the module started goes with it, however it ended.
      this.tree.kill();
      if (this.killed) return;
      const reason = this.outOfMemory
        ? `ran out of memory (HANDLER_MEMORY_MB=${options.memoryMb})`
        : (this.channelFault ?? `stopped (${signal === null ? `exit code ${code}` : `signal ${signal}`})`);
      this.onEnd(reason);
    });
  }

  /**
   * The frames of the process, checked: the handler's own code runs in that process and can write anything onto its
   * channel (fd 3). A message that is not right answers its call 502; bytes that are not frames, or a channel closed
   * while the process lives, stop the module as a crash.
   */
  private readonly frames: FrameSink = {
    frame: (kind, id, body) => {
      if (kind === resultFrame) {
        this.onMessage({ type: 'result', id, payload: body.toString() });
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(body.toString());
      } catch {
        return this.stopForChannel('wrote a frame that is not JSON onto its channel');
      }
      this.onMessage(checkedMessage(message, this.options.responseLimit));
    },
    oversized: (kind, id, length) => {
      if (kind === resultFrame) this.onMessage(oversizedResult(id, length, this.options.responseLimit));
      else this.stopForChannel(`wrote a frame of ${length} bytes onto its channel`);
    },
    broken: (reason) => this.stopForChannel(`wrote ${reason} onto its channel`),
    ended: (reason) => {
      setTimeout(() => this.stopForChannel(`broke its channel: ${reason}`), channelEndGraceMs).unref();
    },
  };

  /** Stops the process for what it did to its channel; its end is reported with `reason`. */
  private stopForChannel(reason: string): void {
    if (this.killed || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.channelFault ??= reason;
    this.channel.close();
    this.tree.kill();
  }

  /**
   * Loads the bundle in a process and resolves once its module has loaded and described its routes.
   * Rejects with a {@link LoadError} when the module throws, exports no router, runs out of memory, or
   * does not finish loading within `loadTimeoutMs`.
   */
  static start(
    bundlePath: string,
    compiled: CompiledHandler,
    sourceMap: BundleSourceMap,
    options: HandlerChildOptions,
  ): Promise<{ child: HandlerChild; routes: RouteDescription[] }> {
    const { child: process, channel, booted } = options.processes.take();
    const child = new HandlerChild(process, channel, options);
    const { file, loadTimeoutMs } = options;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const fail = (error: LoadError) => {
        clearTimeout(timer);
        child.kill();
        reject(error);
      };
      // The load timeout bounds the module's top level, not Node's start-up.
      booted.then(
        () => {
          // Until booted, the pool reads the channel (its first frame is the boot).
          channel.receive(child.frames);
          child.send({ type: 'load', bundleUrl: pathToFileURL(bundlePath).href });
          timer = setTimeout(
            () =>
              fail(
                new LoadError(
                  file,
                  `did not finish loading within ${loadTimeoutMs} ms (HANDLER_LOAD_TIMEOUT_MS): a loop or a ` +
                    `promise that never settles at its top level?`,
                ),
              ),
            loadTimeoutMs,
          );
        },
        (error: Error) => fail(new LoadError(file, error.message)),
      );
      child.onMessage = (message) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve({ child, routes: message.routes });
        } else if (message.type === 'load-failed') {
          fail(loadFailure(message, file, compiled, sourceMap));
        } else if (message.type === 'invalid') {
          fail(new LoadError(file, `its process sent ${message.problem} while loading`));
        }
      };
      child.onEnd = (reason) =>
        fail(
          new LoadError(
            file,
            child.outOfMemory ? `needed more than its memory while loading: ${reason}` : `${reason} while loading`,
          ),
        );
    });
  }

  /** Hands the module's messages and its unexpected end (with the reason) to the gateway. */
  serve(onMessage: (message: FromHandler | ProtocolViolation) => void, onEnd: (reason: string) => void): void {
    this.onMessage = onMessage;
    this.onEnd = onEnd;
  }

  /** Queues a message for the module (sent with the others of this turn). */
  send(message: ToHandler): void {
    this.channel.send(messageFrame, 0, JSON.stringify(message));
  }

  /** Ends the process and all it started at once, even in the middle of a synchronous loop; its end is not reported. */
  kill(): void {
    this.killed = true;
    this.channel.close();
    this.tree.kill();
  }

  /**
   * The process's output, as log lines of its file (bounded, within the module's budget); V8's out-of-memory
   * report marks the process out of memory.
   */
  private forwardOutput(): void {
    const { output } = this.options;
    output.forward(this.child.stdout!, 'info');
    output.forward(this.child.stderr!, 'warn', undefined, (line, cut) => {
      if (this.outOfMemory) return; // the native stack trace that follows V8's report
      if (line.includes('heap out of memory')) this.outOfMemory = true;
      output.write('warn', line, cut);
    });
  }

  /** Kills the module when its processes together hold more than twice its heap bound. */
  private checkMemory(): void {
    const resident = this.tree.residentBytes();
    const limit = 2 * this.options.memoryMb * 1024 * 1024;
    recordHandlerMemory(this.options.file, resident, limit);
    if (resident <= limit) return;
    this.outOfMemory = true;
    this.options.log.warn(
      { handler: this.options.file, resident },
      `handler processes use ${Math.round(resident / 1048576)} MB together, more than twice HANDLER_MEMORY_MB`,
    );
    this.tree.kill();
  }
}

/** The {@link LoadError} of a failed load: a throw at the line that threw, a missing or foreign `router`, a schema
 * that is not JSON. */
function loadFailure(
  message: Extract<FromHandler, { type: 'load-failed' }>,
  file: string,
  compiled: CompiledHandler,
  sourceMap: BundleSourceMap,
): LoadError {
  if (message.reason === 'no-router') {
    return new LoadError(
      file,
      `does not export a router: add \`export const router = new Router();\` (import { Router } from ` +
        `'${sdkImportName}')`,
    );
  }
  if (message.reason === 'not-a-router')
    return new LoadError(file, `its export \`router\` is not a Router from '${sdkImportName}'`);
  if (message.reason === 'bad-schema') return new LoadError(file, message.error.message);
  const { name, message: text, stack = '' } = message.error;
  const description = name === 'Error' && text.startsWith('non-error thrown') ? text : `${name}: ${text}`;
  const position = sourceMap.firstFrameIn(stack, compiled.inputs);
  if (!position) return new LoadError(file, `threw while loading: ${description}`);
  if (position.file === compiled.entry)
    return new LoadError(file, `threw while loading: ${description}`, position.line, position.column);
  const where = `${path.relative(path.dirname(compiled.entry), position.file)}:${position.line}:${position.column}`;
  return new LoadError(file, `threw while loading: ${description} (at ${where})`);
}

import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../../core/logger.js';
import { LoadError } from '../load-error.js';
import type { BundleSourceMap } from './bundle-source-map.js';
import { sdkImportName, type CompiledHandler } from './handler-compiler.js';
import type { HandlerProcesses } from './handler-processes.js';
import { checkedBatch, type ProtocolViolation } from './handler-messages.js';
import type { FromHandler, RouteDescription, ToHandler } from './handler-protocol.js';
import type { HandlerOutput } from './handler-output.js';
import { MessageBatch } from './message-batch.js';
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
 * One running process of a handler module: it loads the module's bundle, then runs its route functions
 * on the messages it is sent. Its output goes to the gateway's log, its memory is bounded (heap by V8,
 * the whole process by a watch on its resident size), and its end is reported with the reason.
 */
export class HandlerChild {
  private readonly outbox: MessageBatch<ToHandler>;
  /** The process and every process it started. */
  private readonly tree: ProcessTree;
  private outOfMemory = false;
  private killed = false;
  private onMessage: (message: FromHandler | ProtocolViolation) => void = () => undefined;
  private onEnd: (reason: string) => void = () => undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly options: HandlerChildOptions,
  ) {
    this.tree = new ProcessTree(child.pid!);
    this.outbox = new MessageBatch((messages) => {
      if (child.connected) child.send(messages);
    });
    // Checked: the handler's own code runs in that process and can send anything.
    child.on('message', (messages: unknown) => {
      for (const message of checkedBatch(messages, options.responseLimit)) this.onMessage(message);
    });
    this.forwardOutput();
    const memoryWatch = setInterval(() => this.checkMemory(), memoryCheckMs).unref();
    child.once('exit', (code, signal) => {
      clearInterval(memoryWatch);
      forgetHandlerMemory(options.file);
      // What the module started goes with it, however it ended.
      this.tree.kill();
      if (this.killed) return;
      const reason = this.outOfMemory
        ? `ran out of memory (HANDLER_MEMORY_MB=${options.memoryMb})`
        : `stopped (${signal === null ? `exit code ${code}` : `signal ${signal}`})`;
      this.onEnd(reason);
    });
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
    const { child: process, booted } = options.processes.take();
    const child = new HandlerChild(process, options);
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
    this.outbox.push(message);
  }

  /** Ends the process and all it started at once, even in the middle of a synchronous loop; its end is not reported. */
  kill(): void {
    this.killed = true;
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

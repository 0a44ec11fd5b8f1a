import fs from 'node:fs';
import path from 'node:path';
import { httpError, revivedHttpError, type HttpError } from '../../core/errors.js';
import type { AuthClaims } from '../../handler-sdk/types.js';
import type { Logger } from '../../core/logger.js';
import type { RuntimeFault } from '../runtime-faults.js';
import { BundleSourceMap } from './bundle-source-map.js';
import { HandlerChild, type HandlerChildOptions } from './handler-child.js';
import { HandlerOutput } from './handler-output.js';
import type { HandlerProcesses } from './handler-processes.js';
import type { CompiledHandler } from './handler-compiler.js';
import type { ProtocolViolation } from './handler-messages.js';
import type { ErrorDescription, FromHandler, RouteDescription, ToHandler } from './handler-protocol.js';
import type { RouteInput } from './input-validator.js';
import { countHandlerAnswer, countHandlerRestart, countHandlerTimeout } from '../../observability/metrics.js';

/** The bounds every handler module runs within. */
export interface HandlerIsolation {
  /** Time a route function has to answer (504 beyond). */
  timeoutMs: number;
  /** Time the module's top-level code has to finish loading. */
  loadTimeoutMs: number;
  /** JavaScript heap of the module's process, in MB (its whole resident memory may reach twice that). */
  memoryMb: number;
  /** Largest JSON answer in bytes. */
  responseLimit: number;
}

/** What a {@link HandlerHost} needs besides the compiled module. */
export interface HandlerHostOptions extends HandlerIsolation {
  /** The handler file name. */
  file: string;
  mount: string;
  log: Logger;
  /** Where the module's processes come from. */
  processes: HandlerProcesses;
  /** The loader's private folder, where the module's bundle is written. */
  bundleDir: string;
  /** Told when the module is stopped for time or memory, or crashes. */
  onFault(fault: Omit<RuntimeFault, 'at'>): void;
  /** Told when the module answers again after a fault: the faults of `file` are past. */
  onRecovered(file: string): void;
}

/** A route function's answer: its JSON text, or `undefined` for no body. */
export type HandlerPayload = string | undefined;

interface PendingCall {
  resolve(payload: HandlerPayload): void;
  reject(error: HttpError): void;
  /** `performance.now()` past which the call is answered 504. */
  deadline: number;
  route: number;
  /** The server's id of the request (Fastify's `reqId`), which the call's log lines carry. */
  requestId?: string;
  /** What runs the call in a process: kept so that a call can wait for, or be retried on, a new process. */
  message: Extract<ToHandler, { type: 'call' }>;
  /** `false` while the call waits for a restarting module's new process. */
  sent: boolean;
  /** Sent again to a new process once already: a second kill answers it 503. */
  retried: boolean;
}

/**
 * Calls that may wait for a restarting module's new process, per module; beyond, 503 at once. Each waiting call holds
 * its request and a few hundred bytes; the bound keeps a flood during a restart from holding memory without end.
 */
export const restartQueueLimit = 1000;
/** Methods whose call, cut off by a process kill, is run again on the new process: they change nothing. */
const retriedMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** After a call times out, how long the module has to answer a ping before it counts as stuck. */
const stuckGraceMs = 500;
/** Restart back-off: immediate the first time, then doubling up to this. */
const maxRestartDelayMs = 30_000;
/** A module that served this long since its last restart starts its back-off afresh. */
const restartsForgottenAfterMs = 60_000;

let bundleSequence = 0;

/** Writes the bundle to a private file: the handler process imports it by URL, and it must outlive restarts. */
function writeBundle(
  compiled: CompiledHandler,
  file: string,
  bundleDir: string,
): { bundlePath: string; sourceMap: BundleSourceMap } {
  const bundlePath = path.join(bundleDir, `${++bundleSequence}-${file}.mjs`);
  const sourceMap = new BundleSourceMap(bundlePath, compiled.map);
  fs.writeFileSync(bundlePath, compiled.code + sourceMap.comment, { mode: 0o600 });
  return { bundlePath, sourceMap };
}

/**
 * Runs one handler module in a process of its own ({@link HandlerChild}), so that a handler can only
 * hurt its own routes: a route stuck in synchronous code is cut off at the deadline and the module
 * restarted, a module out of memory is restarted, a large answer is serialised off the gateway's
 * event loop.
 *
 * While the module restarts (stuck, out of memory, crashed), new calls wait for the new process within
 * their own deadline (up to {@link restartQueueLimit} of them), and a GET, HEAD or OPTIONS call cut off
 * by the kill is run once more on it; other calls cut off are answered 503. A module that fails to load
 * again, or whose restart waits longer than a call's timeout (back-off), answers 503 at once. A call that
 * only waits on a promise is answered 504 at its deadline and its `ctx.signal` aborted; the module keeps
 * running.
 */
export class HandlerHost {
  /** The process serving calls; `undefined` while the module restarts. */
  private child: HandlerChild | undefined;
  /** Calls in flight, oldest first: every call has the same timeout, so also in deadline order. */
  private readonly calls = new Map<number, PendingCall>();
  /** One timer for the oldest call's deadline, instead of one per call. */
  private deadlineTimer: NodeJS.Timeout | undefined;
  private nextId = 0;
  private pingTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private restartReason = '';
  /** While restarting: whether new calls wait for the new process (else 503 at once). */
  private holdCalls = false;
  /** Calls waiting for the new process. */
  private waiting = 0;
  private restarts = 0;
  private lastRestartAt = 0;
  /** A fault was reported and the module has not answered a call since. */
  private faulted = false;
  private state: 'serving' | 'restarting' | 'retiring' | 'closed' = 'serving';
  private markClosed: () => void = () => undefined;
  /** Settles once the module is stopped for good (closed, or retired and its last calls answered). */
  readonly closed = new Promise<void>((resolve) => (this.markClosed = resolve));

  private constructor(
    private readonly options: HandlerChildOptions & HandlerHostOptions,
    private readonly compiled: CompiledHandler,
    private readonly bundlePath: string,
    /** Maps stacks of the module's errors back to its source files. */
    readonly sourceMap: BundleSourceMap,
    /** The module's routes, in registration order; calls name them by index. */
    readonly routes: readonly RouteDescription[],
    child: HandlerChild,
  ) {
    this.adopt(child);
  }

  /** Loads the module in a new process. Throws {@link LoadError} when it fails to load within its bounds. */
  static async start(compiled: CompiledHandler, options: HandlerHostOptions): Promise<HandlerHost> {
    const { bundlePath, sourceMap } = writeBundle(compiled, options.file, options.bundleDir);
    const output = new HandlerOutput(options.log, { handler: options.file });
    const childOptions = { ...options, output };
    try {
      const { child, routes } = await HandlerChild.start(bundlePath, compiled, sourceMap, childOptions);
      return new HandlerHost(childOptions, compiled, bundlePath, sourceMap, routes, child);
    } catch (error) {
      output.close();
      fs.rmSync(bundlePath, { force: true });
      throw error;
    }
  }

  /** Method and path under the gateway of route `index`: `{method: 'GET', path: '/library-api/books'}`. */
  routeFields(index: number): { method: string; path: string } {
    const route = this.routes[index];
    return { method: route.method, path: `/${this.options.mount}${route.path === '/' ? '' : route.path}` };
  }

  /** `GET /library-api/books`: route `index` in messages. */
  routeName(index: number): string {
    const { method, path } = this.routeFields(index);
    return `${method} ${path}`;
  }

  /**
   * Runs route `route` on validated input; rejects with the {@link HttpError} to answer with. `traceparent`
   * names the caller's span, whose child the process makes its span of the call.
   */
  call(
    route: number,
    input: RouteInput,
    auth: AuthClaims | null,
    requestId?: string,
    traceparent?: string,
  ): Promise<HandlerPayload> {
    if (this.child === undefined && !(this.holdCalls && this.waiting < restartQueueLimit))
      return Promise.reject(this.restarting());
    const id = ++this.nextId;
    const message: PendingCall['message'] = Buffer.isBuffer(input.body)
      ? {
          type: 'call',
          id,
          route,
          input: { ...input, body: undefined },
          auth,
          binaryBody: input.body.toString('base64'),
          traceparent,
        }
      : { type: 'call', id, route, input, auth, traceparent };
    return new Promise((resolve, reject) => {
      const deadline = performance.now() + this.options.timeoutMs;
      const call = { resolve, reject, deadline, route, requestId, message, sent: false, retried: false };
      this.calls.set(id, call);
      this.deadlineTimer ??= setTimeout(this.expireCalls, this.options.timeoutMs);
      if (this.child) this.dispatch(this.child, call);
      else this.waiting++;
    });
  }

  private dispatch(child: HandlerChild, call: PendingCall): void {
    call.sent = true;
    child.send(call.message);
  }

  private restarting(): HttpError {
    return httpError('HANDLER_RESTARTING', [this.options.file, this.restartReason]);
  }

  /** Stops the module once its calls in flight are answered (it was replaced by a new version or removed). */
  retire(): void {
    if (this.state === 'closed') return;
    this.state = 'retiring';
    if (this.calls.size === 0) void this.close();
    else setTimeout(() => void this.close(), this.options.timeoutMs + stuckGraceMs).unref();
  }

  /**
   * The server is stopping: calls still in flight after `withinMs` (a handler stuck or slower than the
   * shutdown allows) are answered 503 and the module stopped, so that shutdown ends in time.
   */
  drain(withinMs: number): void {
    setTimeout(() => void this.close(), withinMs).unref();
  }

  /** Stops the module now; calls in flight are answered 503. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.holdCalls = false;
    this.restartReason = 'the server is stopping';
    clearTimeout(this.restartTimer);
    clearTimeout(this.pingTimer);
    this.child?.kill();
    this.child = undefined;
    this.failCalls(this.restartReason);
    this.options.output.close();
    fs.rmSync(this.bundlePath, { force: true });
    this.markClosed();
  }

  /** Makes `child` the process that serves, listening to its answers and its end, and sends it the calls that wait. */
  private adopt(child: HandlerChild): void {
    this.child = child;
    child.serve(
      (message) => this.onMessage(message),
      (reason) => this.restart(child, reason),
    );
    this.waiting = 0;
    for (const call of this.calls.values()) if (!call.sent) this.dispatch(child, call);
  }

  private onMessage(message: FromHandler | ProtocolViolation): void {
    countHandlerAnswer(message.type);
    switch (message.type) {
      case 'invalid':
        return this.protocolViolation(message);
      case 'result':
        this.recovered();
        return this.settle(message.id)?.resolve(message.payload);
      case 'http-error':
        this.recovered();
        return this.settle(message.id)?.reject(revivedHttpError(message));
      case 'failed': {
        const call = this.settle(message.id);
        if (!call) return;
        this.logError(message.error, 'handler failed', call.route, call.requestId);
        return call.reject(httpError('INTERNAL'));
      }
      case 'too-large': {
        const call = this.settle(message.id);
        if (!call) return;
        const error = httpError('HANDLER_RESPONSE_TOO_LARGE', [message.size, this.options.responseLimit]);
        this.options.log.warn({ handler: this.options.file, ...this.routeFields(call.route) }, error.detail);
        return call.reject(error);
      }
      case 'pong':
        clearTimeout(this.pingTimer);
        this.pingTimer = undefined;
        return;
      case 'stray-error':
        return this.logError(
          message.error,
          'handler error outside any request (a rejection nobody handled, or a throw from a timer)',
        );
      default:
        return;
    }
  }

  /** Reports the faults past once the module answered again (a route's own HTTP error counts as an answer). */
  private recovered(): void {
    if (!this.faulted) return;
    this.faulted = false;
    this.options.onRecovered(this.options.file);
  }

  /** Reports a fault and remembers it until the module answers again. */
  private fault(fault: Omit<RuntimeFault, 'at'>): void {
    this.faulted = true;
    this.options.onFault(fault);
  }

  /**
   * A message the gateway cannot trust: logged, and the call it names (if still waiting) answered 502.
   * The process keeps serving: its other calls and the module's state are as good as before.
   */
  private protocolViolation(message: ProtocolViolation): void {
    const call = message.id === undefined ? undefined : this.settle(message.id);
    const error = httpError('HANDLER_PROTOCOL_ERROR', [this.options.file, message.problem]);
    const route = call ? this.routeFields(call.route) : {};
    this.options.log.error({ handler: this.options.file, ...route, reqId: call?.requestId }, error.detail);
    call?.reject(error);
  }

  /** Removes call `id`; `undefined` when it was answered already (timed out). */
  private settle(id: number): PendingCall | undefined {
    const call = this.calls.get(id);
    if (!call) return undefined;
    this.calls.delete(id);
    if (this.state === 'retiring' && this.calls.size === 0) void this.close();
    return call;
  }

  /** Answers 504 to every call past its deadline, then waits for the next oldest. */
  private readonly expireCalls = (): void => {
    this.deadlineTimer = undefined;
    const now = performance.now();
    for (const [id, call] of this.calls) {
      if (call.deadline > now) {
        this.deadlineTimer = setTimeout(this.expireCalls, call.deadline - now);
        return;
      }
      this.timedOut(id, call);
    }
  };

  private timedOut(id: number, call: PendingCall): void {
    this.settle(id);
    if (!call.sent) {
      // It waited for a restart that did not end in time: the module never saw it.
      this.waiting--;
      return call.reject(this.restarting());
    }
    countHandlerTimeout();
    const error = httpError('HANDLER_TIMEOUT', [this.options.timeoutMs]);
    const fields = { handler: this.options.file, ...this.routeFields(call.route), reqId: call.requestId };
    this.options.log.warn(fields, error.detail);
    call.reject(error);
    const child = this.child;
    if (!child) return;
    child.send({ type: 'abort', id, ...error.fields() });
    this.probe(child, call.route);
  }

  /** Asks the process whether its event loop is free; no answer within the grace means a route is stuck in synchronous
   * code. */
  private probe(child: HandlerChild, route: number): void {
    if (this.pingTimer !== undefined) return;
    child.send({ type: 'ping' });
    this.pingTimer = setTimeout(() => {
      this.pingTimer = undefined;
      if (this.child !== child) return;
      const reason =
        `${this.routeName(route)} did not answer within ${this.options.timeoutMs} ms and blocked ` + `the module`;
      this.fault({
        file: this.options.file,
        route: this.routeName(route),
        message: `${reason}; it was stopped and the module restarted`,
      });
      this.restart(child, reason, false);
    }, stuckGraceMs);
  }

  /**
   * Replaces a process that is stuck, out of memory or gone: its calls are retried on the new process
   * or answered 503 ({@link requeueCalls}), and a new process loads the same module, at once the first
   * time and with a growing delay if it keeps failing.
   */
  private restart(child: HandlerChild, reason: string, report = true): void {
    if (this.child !== child || this.state === 'closed') return;
    this.child = undefined;
    clearTimeout(this.pingTimer);
    this.pingTimer = undefined;
    child.kill();
    this.restartReason = reason;
    countHandlerRestart(reason, !report);
    if (report) this.fault({ file: this.options.file, message: `the module ${reason}; it was restarted` });
    this.options.log.error(
      { handler: this.options.file },
      `handler module ${this.options.file} ${reason}; restarting it`,
    );
    if (this.state === 'retiring') return void this.close();
    this.state = 'restarting';
    const delay = this.restartDelay();
    // Calls wait only for a restart that can begin before their deadline: a module in a restart loop backs
    // off past it, and then answers 503 at once as it would without waiting.
    this.holdCalls = delay < this.options.timeoutMs;
    this.requeueCalls();
    this.scheduleRestart(delay);
  }

  /**
   * The calls in flight on a killed process: a GET, HEAD or OPTIONS not retried yet waits for the new process
   * (it changes nothing, so running it twice is safe); any other call may have done part of its work, and
   * is answered 503.
   */
  private requeueCalls(): void {
    for (const [id, call] of this.calls) {
      if (this.holdCalls && !call.retried && retriedMethods.has(this.routes[call.route].method)) {
        call.sent = false;
        call.retried = true;
        this.waiting++;
      } else {
        this.calls.delete(id);
        this.cutOff(call, this.restartReason);
      }
    }
  }

  private restartDelay(): number {
    if (Date.now() - this.lastRestartAt > restartsForgottenAfterMs) this.restarts = 0;
    return this.restarts === 0 ? 0 : Math.min(maxRestartDelayMs, 250 * 2 ** (this.restarts - 1));
  }

  private scheduleRestart(delay: number): void {
    this.restarts++;
    this.restartTimer = setTimeout(() => {
      this.lastRestartAt = Date.now();
      HandlerChild.start(this.bundlePath, this.compiled, this.sourceMap, this.options).then(
        ({ child }) => {
          if (this.state === 'closed') return child.kill();
          this.state = 'serving';
          this.adopt(child);
          this.options.log.info({ handler: this.options.file }, `handler module ${this.options.file} restarted`);
        },
        (error: Error) => {
          if (this.state === 'closed') return;
          this.restartReason = `restart failed: ${error.message}`;
          this.options.log.error(
            { handler: this.options.file },
            `handler module ${this.options.file} could not be restarted: ${error.message}`,
          );
          // A module that cannot load answers its load error at once, to the calls waiting and to new ones.
          this.holdCalls = false;
          this.failCalls(this.restartReason);
          this.scheduleRestart(this.restartDelay());
        },
      );
    }, delay);
  }

  private failCalls(reason: string): void {
    const calls = [...this.calls.values()];
    this.calls.clear();
    this.waiting = 0;
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    for (const call of calls) this.cutOff(call, reason);
  }

  /** Answers a call the module's restart or stop cut short 503, with one log line, so the requests panel links it. */
  private cutOff(call: PendingCall, reason: string): void {
    const error = httpError('HANDLER_RESTARTING', [this.options.file, reason]);
    this.options.log.warn(
      { handler: this.options.file, ...this.routeFields(call.route), reqId: call.requestId },
      error.detail,
    );
    call.reject(error);
  }

  /** Logs an error of the module with its stack mapped to the handler's sources. */
  private logError(description: ErrorDescription, message: string, route?: number, requestId?: string): void {
    const err = new Error(description.message);
    err.name = description.name;
    err.stack =
      description.stack === undefined
        ? `${description.name}: ${description.message}`
        : this.sourceMap.mapStack(description.stack);
    this.options.log.error(
      {
        err,
        handler: this.options.file,
        ...(route === undefined ? {} : this.routeFields(route)),
        ...(requestId === undefined ? {} : { reqId: requestId }),
      },
      message,
    );
  }
}

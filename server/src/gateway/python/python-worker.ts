import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError, type HttpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { bodyWithin, isRefusedRequest, limitedBody, readyProblem, responseRefusal } from './python-messages.js';
import { LoadError } from '../load-error.js';
import type { RuntimeFault } from '../runtime-faults.js';
import { gatewayPrefix } from '../model/mount.js';
import { packageRoot } from '../../core/version.js';
import { HandlerOutput, readBoundedLines } from '../handlers/handler-output.js';
import { ProcessTree } from '../handlers/process-tree.js';
import { currentTraceparent } from '../../observability/tracing.js';
import { forgetHandlerMemory, recordHandlerMemory } from '../../observability/metrics.js';
import { errorReportedHeader, handlerErrorOf, maxReportChars, requestIdHeader } from './python-errors.js';

/** The worker's script: its frames in a traceback are the gateway's plumbing, not the handler's. */
export const pythonWorkerScript = path.join(packageRoot, 'python', 'adaptive_worker.py');
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'proxy-connection',
  'te',
  'trailer',
]);
const readyTimeoutMs = 30_000;
/** The largest ready line (routes and OpenAPI document) read from the worker's protocol pipe. */
const maxReadyBytes = 32 * 1024 * 1024;
/** How often the resident memory of the worker and what it started is read. */
const memoryCheckMs = 500;
const maxBackoffMs = 30_000;
/**
 * How long a 500 whose exception the worker reported waits for the report: it comes on stderr, another pipe
 * than the answer's socket, and must be logged before the answer goes out so that the request capture links it.
 */
const reportWaitMs = 1000;

/**
 * Looks at a whole answer of the handler (status, lower-case headers, body) before it is sent: the error to answer
 * with instead, or `undefined` to send it.
 */
export type AnswerCheck = (status: number, headers: http.IncomingHttpHeaders, body: Buffer) => HttpError | undefined;

/** The worker's first line: its routes and OpenAPI document. */
export interface WorkerReady {
  routes: Array<{ method: string; path: string }>;
  openapi: Record<string, unknown>;
}

function requestBody(body: unknown): Buffer | string | undefined {
  if (body === undefined || body === null) return undefined;
  if (Buffer.isBuffer(body) || typeof body === 'string') return body;
  return JSON.stringify(body);
}

/**
 * One Python process serving one handler module on a private Unix socket. Requests are forwarded
 * with their method, path, headers and body; the answer streams back. A process that dies is
 * restarted with exponential back-off; meanwhile its routes answer 503.
 */
export class PythonWorker {
  private child: ChildProcess | undefined;
  /** The worker and every process it started. */
  private tree: ProcessTree | undefined;
  /** The module's stdout and stderr lines, within its budget (across restarts). */
  private readonly output: HandlerOutput;
  private alive = false;
  private stopping = false;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  /** The worker is being replaced after a timeout: restart at once, without the crash back-off. */
  private replacing = false;
  private restartReason = 'it stopped';
  /** The requests in flight (by Fastify's id) whose exception report is awaited; told when it is logged. */
  private readonly awaitedReports = new Map<string, { method: string; path: string; reported(): void }>();

  constructor(
    private readonly options: {
      file: string;
      python: string;
      /** The worker's environment, without the gateway's secrets (`handlerEnvironment` in core/config.ts). */
      env: NodeJS.ProcessEnv;
      /** The worker and what it starts may hold twice this together (HANDLER_MEMORY_MB); killed beyond. */
      memoryMb: number;
      mount: string;
      socketPath: string;
      timeoutMs: number;
      /** Largest answer in bytes (HANDLER_RESPONSE_LIMIT). */
      responseLimit: number;
      log: Logger;
      /** Told when the worker is replaced for time or dies. */
      onFault(fault: Omit<RuntimeFault, 'at'>): void;
    },
  ) {
    this.output = new HandlerOutput(options.log, { file: path.basename(options.file) });
  }

  /** Starts the process and resolves with its routes once it serves; rejects with a LoadError when the module fails. */
  start(): Promise<WorkerReady> {
    const { file, python, mount, socketPath } = this.options;
    fs.rmSync(socketPath, { force: true });
    const moduleName = `adaptive_handler_${path.basename(file, '.py')}`;
    // stdin: the worker ends (with all it started) when it reads its end, that is when the gateway is gone;
    // fd 3: the protocol's ready line, apart from what the handler prints.
    const child = spawn(python, [pythonWorkerScript, file, moduleName, `${gatewayPrefix}/${mount}`, socketPath], {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      env: { ...this.options.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' },
      detached: true,
    });
    this.child = child;
    const tree = new ProcessTree(child.pid!);
    this.tree = tree;
    const memoryWatch = setInterval(() => this.checkMemory(tree), memoryCheckMs).unref();
    const name = path.basename(file);
    this.output.forward(child.stdout!, 'info');
    // Long enough for the worker's own exception report (python-errors.ts), bounded all the same.
    this.output.forward(child.stderr!, 'warn', maxReportChars * 4, (line, cut) => this.takeStderrLine(line, cut));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        tree.kill();
        reject(new LoadError(name, `the Python worker did not start within ${readyTimeoutMs} ms`));
      }, readyTimeoutMs);
      let answered = false;
      readBoundedLines(child.stdio[3] as Readable, maxReadyBytes, (line, cut) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        if (cut) {
          tree.kill();
          return reject(new LoadError(name, `the Python worker's routes and document are over ${maxReadyBytes} bytes`));
        }
        let message: {
          ready?: boolean;
          error?: { message: string; line?: number; column?: number };
        } & Partial<WorkerReady>;
        try {
          message = JSON.parse(line.toString('utf8'));
        } catch {
          tree.kill();
          return reject(
            new LoadError(name, `the Python worker said something unexpected: ${line.toString('utf8', 0, 200)}`),
          );
        }
        const problem = message.error ? undefined : readyProblem(message, `${gatewayPrefix}/${mount}`);
        if (problem) {
          child.kill('SIGKILL');
          return reject(new LoadError(name, `the Python worker's ready line is not valid: ${problem}`));
        }
        if (message.error)
          return reject(
            new LoadError(
              name,
              message.error.message,
              message.error.line ?? undefined,
              message.error.column ?? undefined,
            ),
          );
        this.alive = true;
        resolve({ routes: message.routes ?? [], openapi: message.openapi ?? {} });
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        clearInterval(memoryWatch);
        forgetHandlerMemory(name);
        // What the handler started goes with its worker, however it ended.
        tree.kill();
        const wasAlive = this.alive;
        this.alive = false;
        reject(new LoadError(name, `the Python worker exited (${signal ?? `code ${code}`}) before it was ready`));
        if ((wasAlive || this.replacing) && !this.stopping) this.scheduleRestart(code, signal);
      });
    });
  }

  private scheduleRestart(code: number | null, signal: NodeJS.Signals | null): void {
    const replaced = this.replacing;
    this.replacing = false;
    const delay = replaced ? 0 : Math.min(maxBackoffMs, 500 * 2 ** this.failures++);
    if (!replaced) {
      this.restartReason = `the worker died (${signal ?? `exit code ${code}`})`;
      this.options.log.error(
        { file: path.basename(this.options.file), code, signal },
        `Python handler worker died; restarting in ${delay} ms`,
      );
      this.options.onFault({
        file: path.basename(this.options.file),
        message: `the Python worker died (${signal ?? `exit code ${code}`}); it was restarted`,
      });
    }
    this.restartTimer = setTimeout(() => {
      this.start().then(
        () => {
          this.options.log.info({ file: path.basename(this.options.file) }, 'Python handler worker restarted');
          setTimeout(() => (this.failures = 0), 60_000).unref();
        },
        (error: Error) => {
          this.options.log.error(
            { file: path.basename(this.options.file) },
            `Python handler worker restart failed: ${error.message}`,
          );
          if (!this.stopping) this.scheduleRestart(null, null);
        },
      );
    }, delay);
  }

  /**
   * A line the worker wrote to stderr: the exception report of a request in flight is logged as that request's
   * error (with its `reqId`, as a TypeScript handler's is); any other line, whatever it holds, as a warning.
   */
  private takeStderrLine(line: Buffer, cut: boolean): void {
    const file = path.basename(this.options.file);
    // Only a line that starts as a report is decoded here: the rest may be dropped unread.
    const report = cut || line[0] !== 0x7b ? undefined : handlerErrorOf(line.toString('utf8'));
    const awaited = report && this.awaitedReports.get(report.requestId);
    if (!report || !awaited) return this.output.write('warn', line, cut);
    // One report per request: another line naming it is a warning like any other.
    this.awaitedReports.delete(report.requestId);
    const { method, path: route } = awaited;
    this.options.log.error(
      { err: report.error, handler: file, method, path: route, reqId: report.requestId },
      'handler failed',
    );
    awaited.reported();
  }

  /**
   * Forwards a request to the worker and streams its answer back. With `check`, the answer is read whole (within
   * HANDLER_RESPONSE_LIMIT) and shown to it before it is sent; an error it returns is answered instead. The
   * answer to a request FastAPI refused or to a handler's crash is the gateway's error, not the handler's: not shown.
   */
  async forward(request: FastifyRequest, reply: FastifyReply, check?: AnswerCheck): Promise<FastifyReply> {
    const name = path.basename(this.options.file);
    if (!this.alive) throw httpError('HANDLER_RESTARTING', [name, this.restartReason]);
    const body = requestBody(request.body);
    const headers: Record<string, string | string[]> = {};
    for (const [key, value] of Object.entries(request.headers))
      if (value !== undefined && !hopByHop.has(key)) headers[key] = value;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    // Set after the client's headers: a client's header of this name is replaced, never passed on.
    headers[requestIdHeader] = request.id;
    // With tracing on, the handler code reads the gateway's `handler call` span as its parent (W3C).
    const traceparent = currentTraceparent();
    if (traceparent !== undefined) headers.traceparent = traceparent;
    const reported = this.awaitReport(request);
    try {
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const upstream = http.request(
          {
            socketPath: this.options.socketPath,
            method: request.method === 'HEAD' ? 'GET' : request.method,
            path: request.url,
            headers,
          },
          (answer) => {
            clearTimeout(deadline);
            resolve(answer);
          },
        );
        // One deadline for the whole answer (a socket's idle timeout would let a trickle through).
        const deadline = setTimeout(() => {
          upstream.destroy();
          reject(httpError('HANDLER_TIMEOUT', [this.options.timeoutMs]));
          this.replace(`${request.method} ${request.url.split('?')[0]}`);
        }, this.options.timeoutMs);
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          clearTimeout(deadline);
          reject(httpError('HANDLER_UNAVAILABLE', [name, error.code ?? error.message]));
        });
        upstream.end(body);
      });
      if (response.statusCode === 500 && response.headers[errorReportedHeader] !== undefined)
        await Promise.race([reported, sleep(reportWaitMs, undefined, { ref: false })]);
      const refusal = responseRefusal(response, name, this.options.responseLimit);
      if (refusal) {
        response.destroy();
        this.options.log.error({ handler: name, reqId: request.id }, refusal.detail);
        throw refusal;
      }
      const limit = this.options.responseLimit;
      // Checked before a header is copied: a refused answer's headers are not the error's.
      const checked = check && (await this.checkedBody(response, check));
      reply.code(response.statusCode!);
      for (const [key, value] of Object.entries(response.headers))
        if (value !== undefined && !hopByHop.has(key) && key !== errorReportedHeader) reply.header(key, value);
      if (checked) return reply.send(checked);
      const over = () => this.options.log.error({ handler: name, reqId: request.id }, `answer over ${limit} bytes cut`);
      // Returning the reply tells Fastify the answer is being sent (it streams).
      return reply.send(response.headers['content-length'] ? response : limitedBody(response, limit, over));
    } finally {
      this.awaitedReports.delete(request.id);
    }
  }

  /** The whole body of a handler's answer once `check` passed it; throws the error to answer with instead. */
  private async checkedBody(response: http.IncomingMessage, check: AnswerCheck): Promise<Buffer> {
    const limit = this.options.responseLimit;
    const body = await bodyWithin(response, limit);
    if (body === undefined) throw httpError('HANDLER_RESPONSE_TOO_LARGE', [`more than ${limit}`, limit]);
    const status = response.statusCode!;
    if (response.headers[errorReportedHeader] !== undefined || isRefusedRequest(status, body)) return body;
    const refusal = check(status, response.headers, body);
    if (refusal) throw refusal;
    return body;
  }

  /** Resolves once the worker's exception report for `request` is logged (it may never come: most succeed). */
  private awaitReport(request: FastifyRequest): Promise<void> {
    return new Promise((resolve) =>
      this.awaitedReports.set(request.id, {
        method: request.method,
        path: request.url.split('?')[0],
        reported: resolve,
      }),
    );
  }

  /**
   * Replaces a worker whose request ran past the deadline: Python cannot stop a running thread or a
   * blocked event loop, so the process is killed (its other requests in flight fail) and started again.
   */
  private replace(route: string): void {
    const child = this.child;
    if (!this.alive || this.stopping || !child) return;
    const file = path.basename(this.options.file);
    const reason = `${route} did not answer within ${this.options.timeoutMs} ms`;
    this.alive = false;
    this.replacing = true;
    this.restartReason = reason;
    this.options.log.error({ file }, `Python handler ${file}: ${reason}; replacing its worker`);
    this.options.onFault({ file, route, message: `${reason}; the worker was replaced` });
    this.tree?.kill();
  }

  /** Kills the worker (and so restarts it) when it and what it started hold more than twice HANDLER_MEMORY_MB. */
  private checkMemory(tree: ProcessTree): void {
    const resident = tree.residentBytes();
    const limit = 2 * this.options.memoryMb * 1024 * 1024;
    const file = path.basename(this.options.file);
    recordHandlerMemory(file, resident, limit);
    if (resident <= limit) return;
    this.options.log.warn(
      { file, resident },
      `Python handler processes use ${Math.round(resident / 1048576)} MB together, more than twice HANDLER_MEMORY_MB`,
    );
    tree.kill();
  }

  /** Stops the worker: SIGTERM lets uvicorn finish requests in flight; SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.output.close();
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => this.tree?.kill(), graceMs);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
    fs.rmSync(this.options.socketPath, { force: true });
  }
}

import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { httpError, type HttpError } from '../../core/errors.js';

/** An upstream answer read whole. */
export interface UpstreamAnswer {
  status: number;
  /** Names in lower case; a header sent more than once has an array of its values. */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** The bounds of one exchange with an upstream. */
export interface ExchangeLimits {
  /** The upstream's origin, for error messages. */
  origin: string;
  /** Time the whole exchange (connect, headers, body) may take (504 beyond). */
  timeoutMs: number;
  /** Largest body read (502 beyond). */
  responseLimit: number;
}

type ParseHeaders = typeof Undici.util.parseHeaders;

/** Kept-alive connections to one upstream, and undici's header parser for the answers that come through them. */
export interface Upstream {
  agent: Undici.Agent;
  parseHeaders: ParseHeaders;
}

/**
 * Connections to an upstream whose every phase (connect, headers, body) is bounded by `timeoutMs`. undici is
 * imported here, at a proxy's first request: a server that proxies nothing never loads it (66 ms at start).
 */
export async function upstreamConnections(timeoutMs: number): Promise<Upstream> {
  const { Agent, util } = await import('undici');
  const agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  return { agent, parseHeaders: util.parseHeaders };
}

/** undici's errors of a phase that ran out of time: its own per-phase timeouts, inside our whole-exchange deadline. */
const timeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * One request to an upstream through undici's dispatch interface, its answer collected whole. This is
 * what `undici.request()` does without the parts a relayed answer does not need (an AbortSignal per
 * request, a readable stream around the body); the deadline is one timer, and a body beyond the limit
 * stops the exchange as its bytes arrive.
 */
class Exchange implements Dispatcher.DispatchHandlers {
  private abortUpstream?: (reason: Error) => void;
  private settled = false;
  private status = 0;
  private headers: Record<string, string | string[]> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly limits: ExchangeLimits,
    private readonly parseHeaders: ParseHeaders,
    private readonly resolve: (answer: UpstreamAnswer) => void,
    private readonly reject: (error: HttpError) => void,
  ) {
    this.timer = setTimeout(
      () => this.fail(httpError('UPSTREAM_TIMEOUT', [limits.origin, limits.timeoutMs])),
      limits.timeoutMs,
    );
  }

  onConnect(abort: (reason?: Error) => void): void {
    // The deadline may have passed while the request waited for a connection.
    if (this.settled) abort(new Error('the exchange has ended'));
    else this.abortUpstream = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    this.status = status;
    this.headers = this.parseHeaders(rawHeaders);
    const declared = Number(this.headers['content-length']);
    if (declared > this.limits.responseLimit) this.fail(this.tooLarge());
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.limits.responseLimit) {
      this.fail(this.tooLarge());
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    this.resolve({ status: this.status, headers: this.headers, body });
  }

  onError(error: Error): void {
    const code = (error as { code?: string }).code;
    if (code !== undefined && timeoutCodes.has(code))
      this.fail(httpError('UPSTREAM_TIMEOUT', [this.limits.origin, this.limits.timeoutMs]));
    else this.fail(httpError('UPSTREAM_UNAVAILABLE', [this.limits.origin, code ?? error.message]));
  }

  /** Ends the exchange with `error` (the first end wins) and stops the upstream's side of it. */
  private fail(error: HttpError): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.reject(error);
    // undici answers an abort with onError, which finds the exchange settled.
    this.abortUpstream?.(error);
  }

  private tooLarge(): HttpError {
    return httpError('UPSTREAM_RESPONSE_TOO_LARGE', [this.limits.origin, this.limits.responseLimit]);
  }
}

/**
 * Sends one request through `upstream`'s connections and resolves with the whole answer; rejects with a catalogued
 * error: 504 when the exchange outlasts `limits.timeoutMs`, 502 when the upstream cannot be reached,
 * sends something that is not HTTP, or a body over `limits.responseLimit`.
 */
export function exchange(
  upstream: Upstream,
  options: Dispatcher.DispatchOptions,
  limits: ExchangeLimits,
): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    upstream.agent.dispatch(options, new Exchange(limits, upstream.parseHeaders, resolve, reject));
  });
}

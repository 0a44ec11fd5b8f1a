import type { AuthClaims, HandlerContext, HandlerTrace } from '../../handler-sdk/types.js';
import type { RouteInput } from './input-validator.js';
import { LazyAbortSignal } from './abort-signal.js';

/**
 * The context a route function receives. A class on purpose: an object literal with a `signal`
 * getter carries a fresh accessor per request, which V8 keeps alive past young-generation
 * collections; that GC work once cost more than the rest of a handler route. `signal` lives on the
 * prototype, so destructuring and `ctx.signal` see it, and a spread copy does not.
 */
export class RouteContext implements HandlerContext {
  readonly params: HandlerContext['params'];
  readonly query: HandlerContext['query'];
  readonly headers: HandlerContext['headers'];
  readonly body: unknown;
  readonly auth: AuthClaims | null;
  /** Set by the handler process when the call is traced. */
  trace: HandlerTrace | null = null;
  readonly #abort = new LazyAbortSignal();

  constructor(input: RouteInput, auth: AuthClaims | null) {
    this.params = input.params as HandlerContext['params'];
    this.query = input.query as HandlerContext['query'];
    this.headers = input.headers as HandlerContext['headers'];
    this.body = input.body;
    this.auth = auth;
  }

  /** Aborted when the request exceeds the handler timeout; made on first read. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Aborts the signal with `reason`, now or when it is first read. */
  abort(reason: Error): void {
    this.#abort.abort(reason);
  }
}

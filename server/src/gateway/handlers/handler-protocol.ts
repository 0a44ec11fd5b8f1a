/**
 * The messages between the gateway and the process that runs one handler module, as frames of a
 * `FrameChannel` (frame-channel.ts: an extra stdio fd, not Node's IPC channel): each message as JSON text in a
 * {@link messageFrame}, except a call's answer, whose JSON text is the whole body of a {@link resultFrame}
 * (neither escaped into another JSON text nor parsed by the gateway). Kept small and flat: every field of every
 * request is copied across.
 */
import type { HttpErrorFields } from '../../core/errors.js';
import type { TracingSettings } from '../../core/settings.js';
import type { AuthClaims, HttpMethod, RouteSchema } from '../../handler-sdk/types.js';
import type { RouteInput } from './input-validator.js';

/** The content type of a handler's answers (and of its `HTTPException`s' bodies). */
export const handlerJsonType = 'application/json; charset=utf-8';

/** A frame whose body is one {@link ToHandler} or {@link FromHandler} message as JSON. */
export const messageFrame = 0;
/** A frame whose body is the JSON text a call answered with; its number is the call's id. */
export const resultFrame = 1;
/**
 * The largest message frame a handler process may send: its routes' schemas and error stacks fit many times over;
 * a longer one is garbage, and the module is stopped.
 */
export const messageFrameLimit = 16 * 1024 * 1024;

/** What the process is started with (as JSON, its first argument). */
export interface HandlerProcessData {
  /** Largest JSON answer in bytes; a larger one is refused in the process, before it crosses. */
  responseLimit: number;
  /** The gateway's tracing, when on: the process then loads the SDK and makes a span of every traced call. */
  tracing?: TracingSettings;
}

/** A route of the module as the gateway needs it: everything but the function, which stays in the process. */
export interface RouteDescription {
  method: HttpMethod;
  path: string;
  paramNames: string[];
  /** The route's schemas as JSON: TypeBox's symbol keys do not cross, and neither validation nor documentation reads
   * them. */
  schema: RouteSchema;
}

/** An error as it crosses: the stack is mapped to the handler's sources on the gateway side. */
export interface ErrorDescription {
  name: string;
  message: string;
  stack?: string;
}

/** Gateway -> handler process. */
export type ToHandler =
  /** The first message: import the bundle at this `file:` URL and describe its routes. */
  | { type: 'load'; bundleUrl: string }
  /**
   * `input.body` is `undefined` when the body is binary (not JSON): then `binaryBody` has it in base64.
   * `traceparent` names the gateway's span of the call while tracing is on.
   */
  | {
      type: 'call';
      id: number;
      route: number;
      input: RouteInput;
      auth: AuthClaims | null;
      binaryBody?: string;
      traceparent?: string;
    }
  /** The call timed out on the gateway side: abort its `ctx.signal` with this HANDLER_TIMEOUT error. */
  | ({ type: 'abort'; id: number } & HttpErrorFields)
  /** Is the event loop free? Answered with `pong`. */
  | { type: 'ping' };

/** Handler process -> gateway. */
export type FromHandler =
  /** Node has started and the SDK is loaded: the process can take a module. */
  | { type: 'booted' }
  | { type: 'ready'; routes: RouteDescription[] }
  /**
   * The module threw while loading, exports no `router`, exports something else as `router`, or
   * declares a schema that is not plain JSON.
   */
  | { type: 'load-failed'; reason: 'threw'; error: ErrorDescription }
  | { type: 'load-failed'; reason: 'bad-schema'; error: ErrorDescription }
  | { type: 'load-failed'; reason: 'no-router' }
  | { type: 'load-failed'; reason: 'not-a-router' }
  /** `payload` is the JSON text; absent for `undefined`. Sent as a {@link resultFrame} when present. */
  | { type: 'result'; id: number; payload?: string }
  /** An `HTTPException` (or any HttpError) the route threw. */
  | ({ type: 'http-error'; id: number } & HttpErrorFields)
  /** Anything else the route threw, or an answer that is not JSON (a cycle, a BigInt). */
  | { type: 'failed'; id: number; error: ErrorDescription }
  /** The answer's JSON is larger than the response limit; it was not sent. */
  | { type: 'too-large'; id: number; size: number }
  | { type: 'pong' }
  /** A rejection nobody handled or a throw from a timer: logged, the module keeps serving. */
  | { type: 'stray-error'; error: ErrorDescription };

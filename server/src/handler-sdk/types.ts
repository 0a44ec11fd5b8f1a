import type { Static, TSchema } from '@sinclair/typebox';

/** The HTTP methods a {@link Router} registers routes for. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * How a route's input is validated and its answer documented. Every schema is built with `t`
 * (TypeBox) and becomes part of the route's OpenAPI operation.
 */
export interface RouteSchema {
  /** The `{name}` parameters of the path, usually `t.Object({bookId: t.Integer()})`. Coerced from strings. */
  params?: TSchema;
  /** The query string, as `t.Object({...})`. Values are coerced from strings (`?available=true` -> `true`). */
  query?: TSchema;
  /** Request headers, as `t.Object({...})` with lower-case names. Coerced from strings. */
  headers?: TSchema;
  /** The JSON request body. Validated as sent, without coercion; a request without a body is rejected. */
  body?: TSchema;
  /** The body the handler returns: types the handler's return value and documents the answer. Not checked at run time.
   * */
  response?: TSchema;
  /** The status of a successful answer. Default 200. */
  status?: number;
  /** A one-line summary for the API documentation. */
  summary?: string;
  /** A longer description for the API documentation (CommonMark). */
  description?: string;
  /** Documentation tags; default: the handler's mount. */
  tags?: string[];
  /** Error statuses the handler answers with (through {@link HTTPException}) and what they mean, for the
   * documentation. */
  errors?: Record<number, string>;
}

/**
 * The claims of the caller's verified credentials (JWT claims, or `{sub}` for a Basic user); `null` when
 * the request carries none or authentication is off.
 */
export interface AuthClaims {
  sub?: string;
  iss?: string;
  aud?: string | string[];
  exp?: number;
  scope?: string;
  [claim: string]: unknown;
}

type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

/** The path parameters of a path template as strings: `PathParams<'/books/{bookId}'>` is `{bookId: string}`. */
export type PathParams<P extends string> = string extends P
  ? Record<string, string>
  : { [K in PathParamNames<P>]: string };

type SchemaOf<S, K extends keyof RouteSchema> = S extends { [Key in K]: infer X extends TSchema } ? X : undefined;

/** `Static<schema>` when the route declares `K`, else `Fallback`. */
type Input<S, K extends keyof RouteSchema, Fallback> =
  SchemaOf<S, K> extends TSchema ? Static<SchemaOf<S, K>> : Fallback;

/** What a route function receives; every part is typed from the route's schema. */
export interface HandlerContext<S extends RouteSchema = RouteSchema, P extends string = string> {
  /** Path parameters: coerced and validated by `schema.params`, else the raw strings of the path. */
  params: Input<S, 'params', PathParams<P>>;
  /** Query parameters: coerced and validated by `schema.query`, else as parsed (repeated names give arrays). */
  query: Input<S, 'query', Record<string, string | string[] | undefined>>;
  /** Request headers (lower-case names): coerced and validated by `schema.headers`, else as received. */
  headers: Input<S, 'headers', Record<string, string | string[] | undefined>>;
  /** The request body: validated by `schema.body`, else as parsed (JSON value, or a Buffer for other media types, or
   * undefined). */
  body: Input<S, 'body', unknown>;
  /** The verified claims of the caller, or `null` when the request is not authenticated. */
  auth: AuthClaims | null;
  /**
   * Aborted when the request exceeds the handler timeout: pass it on to long work (fetch, database calls)
   * to stop it. Read it from the context (`ctx.signal` or destructuring); a spread copy leaves it out.
   */
  signal: AbortSignal;
  /**
   * The call's trace context while the server traces (`OTEL_EXPORTER_OTLP_ENDPOINT`), else `null`. Send
   * `traceparent` as a header on the module's own outgoing calls to keep them in the request's trace; a module
   * that uses `@opentelemetry/api` finds the call's span active.
   */
  trace: HandlerTrace | null;
}

/** A handler call's span in W3C trace context terms. */
export interface HandlerTrace {
  /** 32 hex digits: the trace of the request. */
  traceId: string;
  /** 16 hex digits: the call's span in the handler process. */
  spanId: string;
  /** `00-<traceId>-<spanId>-<flags>`: the W3C header value for a downstream call. */
  traceparent: string;
}

/** What a route function returns: `Static<schema.response>` when declared, else any JSON value. */
export type HandlerResult<S extends RouteSchema> = Input<S, 'response', unknown>;

/**
 * A route function: receives the typed {@link HandlerContext} and returns (or resolves to) the response
 * body, sent as JSON with `schema.status`. Returning `undefined` sends no body.
 */
export type RouteHandler<S extends RouteSchema = RouteSchema, P extends string = string> = (
  context: HandlerContext<S, P>,
) => HandlerResult<S> | Promise<HandlerResult<S>>;

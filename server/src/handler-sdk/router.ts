import type { TSchema } from '@sinclair/typebox';
import type { HandlerContext, HttpMethod, RouteHandler, RouteSchema } from './types.js';

/** One route registered on a {@link Router}, as the gateway reads it. */
export interface RouteDefinition {
  readonly method: HttpMethod;
  /** The path template relative to the mount, OpenAPI style: `/books/{bookId}`. */
  readonly path: string;
  /** The `{name}` parameters of the path, in order. */
  readonly paramNames: readonly string[];
  readonly schema: Readonly<RouteSchema>;
  readonly handler: (context: HandlerContext) => unknown;
}

const paramPattern = /\{([^{}]*)\}/g;
const paramName = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The parameter names of a path template; throws when the template is malformed. */
function parsePath(method: HttpMethod, path: unknown): string[] {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`${method} route path must be a string starting with "/", got ${JSON.stringify(path)}`);
  }
  if (/[\s?#]/.test(path)) throw new TypeError(`${method} ${path}: a route path cannot contain spaces, "?" or "#"`);
  const names: string[] = [];
  for (const match of path.matchAll(paramPattern)) {
    const name = match[1];
    if (!paramName.test(name)) throw new TypeError(`${method} ${path}: {${name}} is not a valid parameter name`);
    if (names.includes(name)) throw new TypeError(`${method} ${path}: parameter {${name}} appears twice`);
    names.push(name);
  }
  if (/[{}]/.test(path.replace(paramPattern, ''))) throw new TypeError(`${method} ${path}: unbalanced "{" or "}"`);
  return names;
}

/** Checks that a params schema declares exactly the parameters of the path. */
function checkParamsSchema(method: HttpMethod, path: string, names: string[], params: TSchema): void {
  const properties = (params as { properties?: Record<string, unknown> }).properties;
  if (params.type !== 'object' || properties === null || typeof properties !== 'object') {
    throw new TypeError(`${method} ${path}: schema.params must be t.Object({...})`);
  }
  for (const key of Object.keys(properties)) {
    if (!names.includes(key))
      throw new TypeError(`${method} ${path}: schema.params declares "${key}", which is not a {parameter} of the path`);
  }
  for (const name of names) {
    if (!Object.hasOwn(properties, name))
      throw new TypeError(`${method} ${path}: path parameter {${name}} is missing from schema.params`);
  }
}

function checkSchema(method: HttpMethod, path: string, schema: RouteSchema): void {
  if (schema === null || typeof schema !== 'object')
    throw new TypeError(`${method} ${path}: the schema must be an object`);
  for (const part of ['params', 'query', 'headers', 'body', 'response'] as const) {
    const value = schema[part];
    if (value !== undefined && (value === null || typeof value !== 'object')) {
      throw new TypeError(`${method} ${path}: schema.${part} must be a schema built with t, such as t.Object({...})`);
    }
  }
  const headerNames = Object.keys((schema.headers as { properties?: object } | undefined)?.properties ?? {});
  const mixedCase = headerNames.find((name) => name !== name.toLowerCase());
  if (mixedCase !== undefined) {
    throw new TypeError(
      `${method} ${path}: schema.headers names must be lower case, as Node delivers them: use ` +
        `"${mixedCase.toLowerCase()}"`,
    );
  }
  const status = schema.status;
  if (status !== undefined && (!Number.isInteger(status) || status < 100 || status > 599)) {
    throw new TypeError(`${method} ${path}: schema.status must be an HTTP status from 100 to 599, got ${status}`);
  }
}

/**
 * The routes of one handler module. A handler file exports one, named `router`; its paths are
 * relative to the handler's mount (`library_api_handler.ts` serves `/books` at
 * `/api/adaptive/library-api/books`).
 *
 * ```ts
 * import { Router, HTTPException, t } from 'adaptive-workbench/handler';
 * export const router = new Router();
 * router.get('/books/{bookId}', { params: t.Object({ bookId: t.Integer() }) }, async ({ params }) => {
 *   return findBook(params.bookId) ?? Promise.reject(new HTTPException(404, `Book ${params.bookId} not found`));
 * });
 * ```
 *
 * Each method takes the path, an optional {@link RouteSchema} and the route function, and returns the
 * router so calls can be chained. Registration checks the path and schema and throws on a mistake,
 * which fails the handler's load with the position of the call.
 */
export class Router {
  readonly #routes: RouteDefinition[] = [];

  /** The registered routes, in registration order. */
  get routes(): readonly RouteDefinition[] {
    return this.#routes;
  }

  /** Registers a GET route. */
  get<const P extends string, S extends RouteSchema>(path: P, schema: S, handler: RouteHandler<S, P>): this;
  /** Registers a GET route without a schema: parameters arrive as strings. */
  get<const P extends string>(path: P, handler: RouteHandler<object, P>): this;
  get(path: string, schemaOrHandler: RouteSchema | RouteHandler, handler?: RouteHandler): this {
    return this.add('GET', path, schemaOrHandler, handler);
  }

  /** Registers a POST route. */
  post<const P extends string, S extends RouteSchema>(path: P, schema: S, handler: RouteHandler<S, P>): this;
  /** Registers a POST route without a schema: the body arrives unvalidated. */
  post<const P extends string>(path: P, handler: RouteHandler<object, P>): this;
  post(path: string, schemaOrHandler: RouteSchema | RouteHandler, handler?: RouteHandler): this {
    return this.add('POST', path, schemaOrHandler, handler);
  }

  /** Registers a PUT route. */
  put<const P extends string, S extends RouteSchema>(path: P, schema: S, handler: RouteHandler<S, P>): this;
  /** Registers a PUT route without a schema. */
  put<const P extends string>(path: P, handler: RouteHandler<object, P>): this;
  put(path: string, schemaOrHandler: RouteSchema | RouteHandler, handler?: RouteHandler): this {
    return this.add('PUT', path, schemaOrHandler, handler);
  }

  /** Registers a DELETE route. */
  delete<const P extends string, S extends RouteSchema>(path: P, schema: S, handler: RouteHandler<S, P>): this;
  /** Registers a DELETE route without a schema. */
  delete<const P extends string>(path: P, handler: RouteHandler<object, P>): this;
  delete(path: string, schemaOrHandler: RouteSchema | RouteHandler, handler?: RouteHandler): this {
    return this.add('DELETE', path, schemaOrHandler, handler);
  }

  /** Registers a PATCH route. */
  patch<const P extends string, S extends RouteSchema>(path: P, schema: S, handler: RouteHandler<S, P>): this;
  /** Registers a PATCH route without a schema. */
  patch<const P extends string>(path: P, handler: RouteHandler<object, P>): this;
  patch(path: string, schemaOrHandler: RouteSchema | RouteHandler, handler?: RouteHandler): this {
    return this.add('PATCH', path, schemaOrHandler, handler);
  }

  private add(
    method: HttpMethod,
    path: string,
    schemaOrHandler: RouteSchema | RouteHandler,
    handler?: RouteHandler,
  ): this {
    const paramNames = parsePath(method, path);
    const schema: RouteSchema = typeof schemaOrHandler === 'function' ? {} : schemaOrHandler;
    const fn = typeof schemaOrHandler === 'function' ? schemaOrHandler : handler;
    if (typeof fn !== 'function')
      throw new TypeError(`${method} ${path}: the last argument must be the route function`);
    checkSchema(method, path, schema);
    if (schema.params) checkParamsSchema(method, path, paramNames, schema.params);
    const key = `${method} ${path.replace(paramPattern, '{}')}`;
    if (this.#routes.some((r) => `${r.method} ${r.path.replace(paramPattern, '{}')}` === key)) {
      throw new TypeError(`${method} ${path} is registered twice`);
    }
    this.#routes.push({
      method,
      path,
      paramNames,
      schema: { ...schema },
      handler: fn as (context: HandlerContext) => unknown,
    });
    return this;
  }
}

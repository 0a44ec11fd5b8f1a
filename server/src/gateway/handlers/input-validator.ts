import type { Ajv, ValidateFunction } from 'ajv';
import type { FastifyRequest } from 'fastify';
import { httpError } from '../../core/errors.js';
import type { RouteSchema } from '../../handler-sdk/types.js';
import { isJsonMediaType } from '../content-negotiation.js';
import { createAjv, toIssues, validationError, type ValidationIssue } from '../request-validator.js';

/** The validated, coerced input of one request to a handler route. */
export interface RouteInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

/** What {@link RouteInputValidator.read} reads of a request: Fastify's, or one made before Fastify sees it. */
export type RequestParts = Pick<FastifyRequest, 'query' | 'headers' | 'body' | 'url'>;

/**
 * The Ajv instances of one handler load. Fresh per load: a reloaded handler may declare new schemas
 * under the same `$id`, which one Ajv instance would refuse.
 */
export interface HandlerAjv {
  /** Parameters, query and headers arrive as strings and are coerced to their schema types. */
  coercing: Ajv;
  /** JSON bodies are validated as sent. */
  strict: Ajv;
}

/** A new pair of Ajv instances for one handler load. */
export function handlerAjv(): HandlerAjv {
  return { coercing: createAjv('3.0.3', true), strict: createAjv('3.0.3', false) };
}

function compile(ajv: Ajv, schema: object, part: string): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw new Error(`schema.${part} cannot be used for validation: ${(error as Error).message}`, { cause: error });
  }
}

/** `data` after validation (coerced in place), its issues added to `issues`. */
function check<T>(validate: ValidateFunction, location: ValidationIssue['in'], data: T, issues: ValidationIssue[]): T {
  if (!validate(data)) issues.push(...toIssues(location, validate.errors ?? []));
  return data;
}

/**
 * Validates the input of one handler route against its {@link RouteSchema}: path parameters, query and
 * headers coerced from strings, the body as JSON. The validators are compiled when the handler loads,
 * so a schema Ajv cannot compile fails the load, not a request.
 */
export class RouteInputValidator {
  private readonly params?: ValidateFunction;
  private readonly query?: ValidateFunction;
  private readonly headers?: ValidateFunction;
  private readonly body?: ValidateFunction;
  /**
   * The query schema accepts an empty query as it is (nothing required, no defaults to fill in), so a
   * request without a query string needs no validation: a list endpoint's plain GET, the most
   * frequent request of all.
   */
  private readonly emptyQueryPasses: boolean = false;

  constructor(schema: RouteSchema, ajv: HandlerAjv) {
    if (schema.params) this.params = compile(ajv.coercing, schema.params, 'params');
    if (schema.query) {
      this.query = compile(ajv.coercing, schema.query, 'query');
      const empty = {};
      this.emptyQueryPasses = this.query(empty) && Object.keys(empty).length === 0;
    }
    if (schema.headers) this.headers = compile(ajv.coercing, schema.headers, 'headers');
    if (schema.body) this.body = compile(ajv.strict, schema.body, 'body');
  }

  /**
   * The request's input, validated. Throws a 400 naming every invalid field, or a 415 when a body
   * schema is declared and the body is not JSON.
   */
  read(request: RequestParts, params: Record<string, string>): RouteInput {
    const issues: ValidationIssue[] = [];
    const input: RouteInput = {
      params: this.params ? check(this.params, 'path', { ...params }, issues) : params,
      query: this.readQuery(request, issues),
      headers: this.headers ? check(this.headers, 'header', { ...request.headers }, issues) : request.headers,
      body: request.body,
    };
    if (this.body) {
      const contentType = request.headers['content-type'];
      if (request.body === undefined) {
        issues.push({ in: 'body', name: '', message: 'a request body is required' });
      } else if (contentType === undefined || !isJsonMediaType(contentType) || Buffer.isBuffer(request.body)) {
        throw httpError('UNSUPPORTED_MEDIA_TYPE', [contentType ?? '(none)', 'application/json']);
      } else {
        check(this.body, 'body', request.body, issues);
      }
    }
    if (issues.length > 0) throw validationError(issues);
    return input;
  }

  private readQuery(request: RequestParts, issues: ValidationIssue[]): Record<string, unknown> {
    const query = request.query as Record<string, unknown>;
    if (!this.query) return query;
    if (this.emptyQueryPasses && !request.url.includes('?')) return {};
    return check(this.query, 'query', { ...query }, issues);
  }
}

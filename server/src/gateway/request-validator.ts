import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { httpError } from '../core/errors.js';
import type { FastifyRequest } from 'fastify';
import { findDeclaredMediaType, isJsonMediaType } from './content-negotiation.js';
import { shapeQuery, shapeSimple } from './parameter-styles.js';
import type { OperationSpec, ParameterSpec } from './model/spec-types.js';

// ajv-formats is CommonJS with a default export object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** One finding of request validation. */
export interface ValidationIssue {
  in: 'path' | 'query' | 'header' | 'cookie' | 'body';
  name: string;
  message: string;
}

/** The parts of a request that are validated; parameters are coerced in place to their schema types. */
export interface RequestParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  contentType?: string;
  body: unknown;
  hasBody: boolean;
}

/** The id under which validators register the spec document; schemas refer to it as `documentId + pointer`. */
export const documentId = 'urn:adaptive:spec';
const openApiFormats = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

/** An Ajv instance for the JSON Schema dialect of `openapi` (3.0: draft-07, 3.1: 2020-12); `coerce` converts strings
 * to the schema's types. */
export function createAjv(openapi: string, coerce: boolean): Ajv {
  const options = {
    strict: false,
    allErrors: true,
    validateSchema: false,
    coerceTypes: coerce ? ('array' as const) : false,
    logger: false as const,
  };
  const ajv = openapi.startsWith('3.1') ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv as Ajv);
  for (const format of openApiFormats) ajv.addFormat(format, true);
  return ajv as Ajv;
}

type Location = 'path' | 'query' | 'header';

/** One Ajv per dialect and thread, for {@link registrationProblem}. */
const registrationAjvs = new Map<string, Ajv>();

/**
 * Why `document` cannot be registered for validation (duplicate or malformed `$id`s), or `undefined`
 * when it can. Registering is what makes a {@link RequestValidator}, which the gateway now makes on
 * a spec's first validated request: the spec worker calls this at load, so such a spec still fails
 * to load, with the same message, instead of failing its first request.
 */
export function registrationProblem(openapi: string, document: Record<string, unknown>): string | undefined {
  const dialect = openapi.startsWith('3.1') ? '3.1' : '3.0';
  let ajv = registrationAjvs.get(dialect);
  if (!ajv) {
    ajv = createAjv(openapi, false);
    registrationAjvs.set(dialect, ajv);
  }
  try {
    ajv.addSchema(document, documentId);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    ajv.removeSchema(documentId);
  }
}

/**
 * Validates requests against one spec's parameters and request bodies, compiling each validator on
 * first use. A schema that Ajv cannot compile disables that one check (reported once through
 * `onWarning`) rather than failing every request.
 */
export class RequestValidator {
  private readonly parameterAjv: Ajv;
  private readonly bodyAjv: Ajv;
  private readonly cache = new Map<string, ValidateFunction | null>();
  private readonly byOperation = new WeakMap<OperationSpec, Record<Location, ValidateFunction | null>>();

  constructor(
    openapi: string,
    document: Record<string, unknown>,
    private readonly onWarning: (message: string) => void,
  ) {
    this.parameterAjv = createAjv(openapi, true);
    this.bodyAjv = createAjv(openapi, false);
    this.parameterAjv.addSchema(document, documentId);
    this.bodyAjv.addSchema(document, documentId);
  }

  private compiled(key: string, ajv: Ajv, schema: () => object): ValidateFunction | null {
    if (this.cache.has(key)) return this.cache.get(key)!;
    let validate: ValidateFunction | null = null;
    try {
      validate = ajv.compile(schema());
    } catch (error) {
      this.onWarning(`validation of ${key} is off: ${(error as Error).message}`);
    }
    this.cache.set(key, validate);
    return validate;
  }

  private parameterValidator(operation: OperationSpec, location: Location): ValidateFunction | null {
    const parameters = operation.parameters.filter((p) => p.in === location);
    if (parameters.length === 0) return null;
    const nameOf = (p: ParameterSpec) => (location === 'header' ? p.name.toLowerCase() : p.name);
    return this.compiled(`${operation.pointer}:${location}`, this.parameterAjv, () => ({
      type: 'object',
      properties: Object.fromEntries(
        parameters.map((p) => [nameOf(p), p.schemaPointer ? { $ref: documentId + p.schemaPointer } : {}]),
      ),
      required: parameters.filter((p) => p.required).map(nameOf),
    }));
  }

  /** The parameter validators of an operation, looked up once per operation rather than per request. */
  private parameterValidators(operation: OperationSpec): Record<Location, ValidateFunction | null> {
    let validators = this.byOperation.get(operation);
    if (!validators) {
      validators = {
        path: this.parameterValidator(operation, 'path'),
        query: this.parameterValidator(operation, 'query'),
        header: this.parameterValidator(operation, 'header'),
      };
      this.byOperation.set(operation, validators);
    }
    return validators;
  }

  /** Validates `parts` against `operation`; returns the issues found (empty when valid). */
  validate(operation: OperationSpec, parts: RequestParts): ValidationIssue[] {
    const validators = this.parameterValidators(operation);
    const issues: ValidationIssue[] = [];
    const check = (location: Location, data: Record<string, unknown>) => {
      const validate = validators[location];
      if (validate && !validate(data)) issues.push(...toIssues(location, validate.errors ?? []));
    };
    check('path', parts.params);
    check('query', parts.query);
    check('header', parts.headers);
    if (operation.requestBody) issues.push(...this.validateBody(operation, parts));
    return issues;
  }

  private validateBody(operation: OperationSpec, parts: RequestParts): ValidationIssue[] {
    const requestBody = operation.requestBody;
    if (!requestBody) return [];
    if (!parts.hasBody)
      return requestBody.required ? [{ in: 'body', name: '', message: 'a request body is required' }] : [];
    const declared = Object.keys(requestBody.content);
    if (declared.length === 0) return [];
    const mediaType = findDeclaredMediaType(parts.contentType ?? 'application/octet-stream', declared);
    if (mediaType === undefined)
      throw httpError('UNSUPPORTED_MEDIA_TYPE', [parts.contentType ?? '(none)', declared.join(', ')]);
    const schemaPointer = requestBody.content[mediaType];
    if (!schemaPointer || !isJsonMediaType(parts.contentType ?? '')) return [];
    const validate = this.compiled(`${operation.pointer}:body:${mediaType}`, this.bodyAjv, () => ({
      $ref: documentId + schemaPointer,
    }));
    if (!validate || validate(parts.body)) return [];
    return toIssues('body', validate.errors ?? []);
  }
}

/**
 * Validates a request to `operation` (its path `params` decoded by the router): parameters shaped by
 * their styles, then the body. Returns the issues found; throws 415 for an undeclared Content-Type.
 */
export function requestIssues(
  validator: RequestValidator,
  operation: OperationSpec,
  request: Pick<FastifyRequest, 'query' | 'headers' | 'body'>,
  params: Record<string, string>,
): ValidationIssue[] {
  const located = (where: Location) => operation.parameters.some((p) => p.in === where);
  return validator.validate(operation, {
    params: located('path') ? shapeSimple(operation.parameters, 'path', params) : params,
    query: located('query') ? shapeQuery(operation.parameters, request.query as Record<string, unknown>) : {},
    headers: located('header') ? shapeSimple(operation.parameters, 'header', request.headers) : {},
    contentType: request.headers['content-type'],
    body: request.body,
    hasBody: request.body !== undefined && request.body !== null,
  });
}

/** Ajv's errors as validation issues, one per field and message. */
export function toIssues(location: ValidationIssue['in'], errors: ErrorObject[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const missing =
      error.keyword === 'required'
        ? String((error.params as { missingProperty?: string }).missingProperty ?? '')
        : undefined;
    const segments = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (missing !== undefined) segments.push(missing);
    const name = location === 'body' ? segments.join('.') : (segments[0] ?? '');
    const message = missing !== undefined ? 'is required' : (error.message ?? 'is invalid');
    const key = `${name}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ in: location, name, message });
  }
  return issues;
}

/** The 400 answer for validation issues: `{detail, code, errors:[{in, name, message}]}`. */
export function validationError(issues: ValidationIssue[]) {
  const summary = issues.map((i) => `${i.in}${i.name ? ` ${i.name}` : ''} ${i.message}`).join('; ');
  return httpError('VALIDATION_FAILED', [summary], { errors: issues });
}

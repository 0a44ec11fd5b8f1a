import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError, type HttpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { findDeclaredMediaType, isJsonMediaType } from '../content-negotiation.js';
import { createAjv, documentId, toIssues, type ValidationIssue } from '../request-validator.js';
import { dereference, escapeToken, resolvePointer } from '../model/json-pointer.js';
import type { OperationSpec } from '../model/spec-types.js';
import { isObject } from '../../core/json.js';

/** One place where a request or a response breaks the spec's contract. */
export interface ContractViolation {
  in: 'request' | 'response';
  /** Where: `status`, `content-type`, `query.limit`, `body.owner.name`, `body`. */
  path: string;
  rule: string;
}

/** The response header that lists a request's contract violations as a JSON array. */
export const violationsHeader = 'x-adaptive-violations';

/** Violations listed in the header; the log has them all. */
const maxHeaderViolations = 20;

/** Request validation issues as violations of the request. */
export function requestViolations(issues: readonly ValidationIssue[]): ContractViolation[] {
  return issues.map((issue) => ({
    in: 'request',
    path: issue.name ? `${issue.in}.${issue.name}` : issue.in,
    rule: issue.message,
  }));
}

/** The declared response of `operation` for `status` (exact, by class such as `4XX`, or `default`) and its JSON
 * pointer. */
export function declaredResponse(
  document: Record<string, unknown>,
  operation: OperationSpec,
  status: number,
): { value: Record<string, unknown>; pointer: string } | undefined {
  const pointer = `${operation.pointer}/responses`;
  const responses = resolvePointer(document, pointer);
  if (!isObject(responses)) return undefined;
  const keys = Object.keys(responses);
  const key =
    keys.find((k) => k === String(status)) ??
    keys.find((k) => k.toUpperCase() === `${String(status)[0]}XX`) ??
    keys.find((k) => k.toLowerCase() === 'default');
  if (key === undefined) return undefined;
  try {
    const found = dereference(document, responses[key], `${pointer}/${escapeToken(key)}`);
    return isObject(found.value) ? { value: found.value, pointer: found.pointer } : undefined;
  } catch {
    return undefined;
  }
}

/** The lower-case names of the headers the declared response for `status` requires (its media type is checked
 * with the body, so `Content-Type` is left out, as OpenAPI ignores it). */
function requiredHeadersOf(document: Record<string, unknown>, operation: OperationSpec, status: number): string[] {
  const headers = declaredResponse(document, operation, status)?.value.headers;
  if (!isObject(headers)) return [];
  return Object.entries(headers)
    .filter(([name, header]) => {
      if (name.toLowerCase() === 'content-type') return false;
      try {
        const found = dereference(document, header, '');
        return isObject(found.value) && found.value.required === true;
      } catch {
        return false;
      }
    })
    .map(([name]) => name.toLowerCase());
}

/** The pointer of the schema of `mediaType` in the declared response for `status`, when it has one. */
export function responseSchemaPointer(
  document: Record<string, unknown>,
  operation: OperationSpec,
  status: number,
  mediaType: string,
): string | undefined {
  const response = declaredResponse(document, operation, status);
  if (!response || !isObject(response.value.content)) return undefined;
  const declared = findDeclaredMediaType(mediaType, Object.keys(response.value.content));
  if (declared === undefined) return undefined;
  const media = response.value.content[declared];
  return isObject(media) && media.schema !== undefined
    ? `${response.pointer}/content/${escapeToken(declared)}/schema`
    : undefined;
}

/** What checking one answer's status and content type against an operation comes to; the same for every answer of that
 * kind. */
interface ResponsePlan {
  /** The status is not declared. */
  undeclared?: ContractViolation;
  /** The media types the response declares. */
  declared: string[];
  /** The declared media type matching the answer's content type. */
  mediaType?: string;
  isJson: boolean;
  validate: ValidateFunction | null;
}

/** The violations of one answer's body (parsed when `bodyIsJson`), and of its headers (lower-case names). */
interface AnswerCheck {
  body(body: unknown, bodyIsJson: boolean): ContractViolation[];
  headers(headers: () => Record<string, unknown>): ContractViolation[];
}

/** The required headers (lower-case names) that `headers` lacks. */
function missingOf(required: readonly string[], headers: Record<string, unknown>): ContractViolation[] {
  return required
    .filter((name) => headers[name] === undefined)
    .map((name) => ({ in: 'response' as const, path: `header.${name}`, rule: 'is required by the spec and missing' }));
}

/** Plans one operation keeps: the statuses and content types an upstream sends are few, but not bounded by the spec. */
const maxPlansPerOperation = 64;

/**
 * Checks answers against the spec's responses: a declared status, a declared media type, and a
 * JSON body that its schema accepts. What a status and content type need is worked out once per
 * operation; a schema Ajv cannot compile disables that one check (reported once through `onWarning`).
 */
export class ResponseValidator {
  private readonly ajv;
  private readonly validators = new Map<string, ValidateFunction | null>();
  private readonly plans = new WeakMap<OperationSpec, Map<string, ResponsePlan>>();
  private readonly requiredHeaders = new Map<string, string[]>();

  constructor(
    openapi: string,
    private readonly document: Record<string, unknown>,
    private readonly onWarning: (message: string) => void,
  ) {
    this.ajv = createAjv(openapi, false);
    this.ajv.addSchema(document, documentId);
  }

  /** The headers the declared response for `status` requires (`required: true`) that `headers` lacks. */
  missingHeaders(operation: OperationSpec, status: number, headers: Record<string, unknown>): ContractViolation[] {
    return missingOf(this.requiredHeadersOf(operation, status), headers);
  }

  private requiredHeadersOf(operation: OperationSpec, status: number): string[] {
    const key = `${operation.pointer}|${status}`;
    let required = this.requiredHeaders.get(key);
    if (!required) this.requiredHeaders.set(key, (required = requiredHeadersOf(this.document, operation, status)));
    return required;
  }

  /**
   * The checks of every answer of `operation` with `status` and `contentType`, worked out once: of its body (parsed
   * JSON when `bodyIsJson`) and of its headers, read only when the response requires some. A handler route answers
   * with one status and type, so it looks nothing up per answer.
   */
  answerCheck(operation: OperationSpec, status: number, contentType: string | undefined): AnswerCheck {
    const plan = this.plan(operation, status, contentType);
    const required = this.requiredHeadersOf(operation, status);
    return {
      body: (body, bodyIsJson) => this.check(plan, contentType, body, bodyIsJson),
      headers: (headers) => (required.length === 0 ? [] : missingOf(required, headers())),
    };
  }

  private validator(operation: OperationSpec, status: number, mediaType: string): ValidateFunction | null {
    const key = `${operation.pointer}|${status}|${mediaType}`;
    if (this.validators.has(key)) return this.validators.get(key)!;
    const pointer = responseSchemaPointer(this.document, operation, status, mediaType);
    let validate: ValidateFunction | null = null;
    if (pointer !== undefined) {
      try {
        validate = this.ajv.compile({ $ref: documentId + pointer });
      } catch (error) {
        this.onWarning(`response validation of ${key} is off: ${(error as Error).message}`);
      }
    }
    this.validators.set(key, validate);
    return validate;
  }

  private plan(operation: OperationSpec, status: number, contentType: string | undefined): ResponsePlan {
    let plans = this.plans.get(operation);
    if (!plans) this.plans.set(operation, (plans = new Map()));
    const key = `${status} ${contentType ?? ''}`;
    let plan = plans.get(key);
    if (plan) return plan;
    const response = declaredResponse(this.document, operation, status);
    const content = response && isObject(response.value.content) ? response.value.content : {};
    const declared = Object.keys(content);
    const mediaType = findDeclaredMediaType(contentType ?? 'application/octet-stream', declared);
    const isJson = isJsonMediaType(contentType ?? '');
    plan = {
      undeclared: response
        ? undefined
        : {
            in: 'response',
            path: 'status',
            rule: `status ${status} is not declared for ${operation.method} ${operation.path}`,
          },
      declared,
      mediaType,
      isJson,
      validate: mediaType !== undefined && isJson ? this.validator(operation, status, mediaType) : null,
    };
    if (plans.size < maxPlansPerOperation) plans.set(key, plan);
    return plan;
  }

  /**
   * Checks one answer. `body` is the parsed JSON value, `undefined` for no body, or the raw bytes when
   * they are not JSON (then only status and media type are checked, and JSON media types report it).
   */
  validate(
    operation: OperationSpec,
    status: number,
    contentType: string | undefined,
    body: unknown,
    bodyIsJson: boolean,
  ): ContractViolation[] {
    return this.check(this.plan(operation, status, contentType), contentType, body, bodyIsJson);
  }

  /** Checks an answer given as its bytes (a proxied one); they are parsed only when its media type is JSON. */
  validateBytes(
    operation: OperationSpec,
    status: number,
    contentType: string | undefined,
    bytes: Buffer,
  ): ContractViolation[] {
    const plan = this.plan(operation, status, contentType);
    if (bytes.length === 0) return this.check(plan, contentType, undefined, false);
    if (!plan.isJson || plan.mediaType === undefined) return this.check(plan, contentType, bytes, false);
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      return this.check(plan, contentType, bytes, false);
    }
    return this.check(plan, contentType, parsed, true);
  }

  private check(
    plan: ResponsePlan,
    contentType: string | undefined,
    body: unknown,
    bodyIsJson: boolean,
  ): ContractViolation[] {
    if (plan.undeclared) return [plan.undeclared];
    if (body === undefined || plan.declared.length === 0) return [];
    if (plan.mediaType === undefined)
      return [
        {
          in: 'response',
          path: 'content-type',
          rule: `${contentType ?? '(none)'} is not declared; expected one of: ${plan.declared.join(', ')}`,
        },
      ];
    if (!plan.isJson) return [];
    if (!bodyIsJson) return [{ in: 'response', path: 'body', rule: 'is not valid JSON' }];
    if (!plan.validate || plan.validate(body)) return [];
    return bodyViolations(plan.validate.errors ?? []);
  }
}

/** How handler answers are held to the spec operations they override (`CONTRACT_ENFORCE`). */
export type ContractEnforcement = 'off' | 'report' | 'strict';

/** One spec operation's declared responses, held against the answers of a handler route that overrides it. */
export interface ResponseContract {
  /** `report` sends the answer with its violations listed; `strict` answers 500 `CONTRACT_VIOLATION` instead. */
  enforce: Exclude<ContractEnforcement, 'off'>;
  /** The spec file that declares the operation (for the log). */
  spec: string;
  /**
   * The violations of one answer: its status, headers (lower-case names), content type and body text (JSON
   * when its media type is; `undefined` for no body).
   */
  check(
    status: number,
    headers: Record<string, unknown>,
    contentType: string | undefined,
    payload: string | undefined,
  ): ContractViolation[];
  /**
   * {@link check} for answers that all have `status` and `contentType` (a handler route's), worked out on its first
   * use; the headers are read only when the response requires some.
   */
  checker(
    status: number,
    contentType: string | undefined,
  ): (headers: () => Record<string, unknown>, payload: string | undefined) => ContractViolation[];
}

/** The longest answer text a contract remembers with its violations (one per route, status and type). */
const maxRememberedBody = 64 * 1024;

/**
 * The contract of `operation` of `spec`. `responses` is the spec's validator, made on the first check: its
 * schemas are compiled once per status and media type, and made afresh only when the spec reloads.
 */
export function responseContract(
  spec: string,
  operation: OperationSpec,
  enforce: ResponseContract['enforce'],
  responses: () => ResponseValidator,
): ResponseContract {
  const checker: ResponseContract['checker'] = (status, contentType) => {
    let check: AnswerCheck | undefined;
    const parsesJson = isJsonMediaType(contentType ?? '');
    // The last body checked and its violations: a route often answers the same text again (a list nobody changed),
    // and comparing it costs a fraction of parsing it.
    let last: { payload: string; violations: ContractViolation[] } | undefined;
    const bodyViolations = (answerCheck: AnswerCheck, payload: string | undefined): ContractViolation[] => {
      if (payload === undefined || !parsesJson) return answerCheck.body(payload, false);
      if (payload === last?.payload) return last.violations;
      let body: unknown;
      let isJson = true;
      try {
        body = JSON.parse(payload);
      } catch {
        // Checked as bytes: the validator reports a JSON media type whose body is not JSON.
        body = payload;
        isJson = false;
      }
      const violations = answerCheck.body(body, isJson);
      last = payload.length <= maxRememberedBody ? { payload, violations } : undefined;
      return violations;
    };
    return (headers, payload) => {
      check ??= responses().answerCheck(operation, status, contentType);
      const violations = bodyViolations(check, payload);
      const missing = check.headers(headers);
      return missing.length === 0 ? violations : [...violations, ...missing];
    };
  };
  return {
    enforce,
    spec,
    checker,
    check: (status, headers, contentType, payload) => checker(status, contentType)(() => headers, payload),
  };
}

/** Ajv's errors on a response body as violations (`body.owner.name`: the rule it breaks). */
export function bodyViolations(errors: ErrorObject[]): ContractViolation[] {
  return toIssues('body', errors).map((issue) => ({
    in: 'response',
    path: issue.name ? `body.${issue.name}` : 'body',
    rule: issue.message,
  }));
}

/** JSON with every character beyond ASCII escaped, so that it is a valid header value. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Reports violations: in the {@link violationsHeader} header of the reply (the workbench's requests
 * panel shows it with the response headers) and as one warning in the log.
 */
export function reportViolations(
  reply: FastifyReply,
  log: Logger,
  context: { spec: string; method: string; url: string; handler?: string; route?: string },
  violations: readonly ContractViolation[],
): void {
  if (violations.length === 0) return;
  reply.header(violationsHeader, asciiJson(violations.slice(0, maxHeaderViolations)));
  const summary = violations.map((v) => `${v.in} ${v.path} ${v.rule}`).join('; ');
  log.warn({ ...context, violations }, `contract violations on ${context.method} ${context.url}: ${summary}`);
}

/**
 * Holds a handler's answer to the contract of the spec route it overrides: reports its violations (the
 * {@link reportViolations} header and log line) and, under `strict`, returns the error to answer with instead.
 * TypeScript and Python handler routes both check their answers through it.
 */
export function enforceContract(
  contract: ResponseContract,
  violations: ContractViolation[],
  request: FastifyRequest,
  reply: FastifyReply,
  context: { log: Logger; handler: string; route: string },
): HttpError | undefined {
  if (violations.length === 0) return undefined;
  const { log, ...fields } = context;
  reportViolations(
    reply,
    log,
    { spec: contract.spec, method: request.method, url: request.url, ...fields },
    violations,
  );
  if (contract.enforce !== 'strict') return undefined;
  return httpError('CONTRACT_VIOLATION', [`${request.method} ${request.url}`, contract.spec, violations.length], {
    violations,
  });
}

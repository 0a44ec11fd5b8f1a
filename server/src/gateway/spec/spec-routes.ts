import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../core/logger.js';
import { httpError } from '../../core/errors.js';
import { concreteMediaType, negotiate, serialize } from '../content-negotiation.js';
import { echoMerge, namedExample, parsePrefer, selectResponse, type Preference } from '../mock/example-responder.js';
import { RequestValidator, requestIssues, validationError } from '../request-validator.js';
import { inSpan } from '../../observability/tracing.js';
import type { DirectRequest, RouteEntry, WorkspaceUnit } from '../route-table.js';
import type { StatefulAction } from '../mock/stateful-resources.js';
import { validationDocument } from '../model/validation-document.js';
import { mockModes, type MockContext, type SpecMockModes } from '../mock/mock-modes.js';
import { allowedBodyDepth, nestingDepth } from '../body-depth.js';
import type { CompiledSpec, MediaExample, OperationSpec } from '../model/spec-types.js';
import { DynamicExamples } from '../mock/dynamic-example.js';
import { delayFor, describeFault, faultHeader, injectedError, planFault, type PlannedFault } from '../mock/faults.js';
import { isPlain, mockSettingsOf, withoutFaults, type MockSettings } from '../mock/mock-settings.js';
import { defaultWorkspaceMock, type WorkspaceMockSettings } from '../../core/settings.js';
import { LoadError } from '../load-error.js';
import { modeHeader } from '../mock/answer-mode.js';
import { ruleHeader, tableChoice, withTableFaults, type MockTable, type TableRoute } from '../mock/mock-table.js';
import {
  ResponseValidator,
  responseContract,
  type ContractEnforcement,
  type ResponseContract,
} from '../mock/contract.js';
import { DeclaredErrors } from '../mock/declared-errors.js';
import { credentialsCheck, enforcesSecurity, type CredentialsCheck } from '../mock/security.js';
import { takeQueryPreference } from '../mock/query-preference.js';
import { declaredResponseHeaders } from '../cors.js';
import { isXmlMediaType, toXml } from '../xml-body.js';
import { prepared, sentContentType, type Answer, type PreparedAnswer } from '../prepared-answer.js';
import { send, sendPrepared } from './sent-answers.js';
import { DirectDecisions, type DirectDecision } from './direct-decisions.js';
import { documentedOperation } from './documented-operation.js';

const echoMethods = new Set(['POST', 'PUT', 'PATCH']);

/** Distinct Accept headers whose answers an operation remembers; browsers and clients send few. */
const maxPlainAnswers = 32;

/** Options of the generated routes of one spec. */
export interface SpecRouteOptions {
  /** Validate requests against the spec's parameters and bodies (400 on failure). */
  validateRequests: boolean;
  log: Logger;
  /** Workspace-wide mock settings (static or dynamic examples, the delay bound); default: static. */
  mock?: WorkspaceMockSettings;
  /** Stateful resources and the proxy (off without it). */
  modes?: MockContext;
  /** The spec's mock table (`<name>.mock.yaml`): per-route choices, faults and rules. */
  mockTable?: MockTable;
  /** How handler routes overriding the spec's are held to its responses (`CONTRACT_ENFORCE`); default: off. */
  contractEnforce?: ContractEnforcement;
}

/** Whether a parsed body is empty: `""` from a text parser, or no bytes. */
const isEmptyBody = (body: unknown): boolean => body === '' || (body instanceof Uint8Array && body.byteLength === 0);

/** The response, status and media type an answer is made from; `media` is unset when the response has no content. */
interface Choice {
  status: number;
  headers?: Record<string, string>;
  media?: MediaExample;
  mediaType?: string;
  contentType?: string;
  /** The example `Prefer: example=` named. */
  exampleName?: string;
}

/** A proxy's route handler that marks its answers (and its 502/504 failures) as the proxy's. */
function markedProxy(handle: RouteEntry['handle']): RouteEntry['handle'] {
  return (request, reply, params) => {
    reply.header(modeHeader, 'proxy');
    return handle(request, reply, params);
  };
}

/** What the routes of one spec share. */
interface SpecServing {
  spec: CompiledSpec;
  modes: SpecMockModes;
  workspaceMock: WorkspaceMockSettings;
  mockTable?: MockTable;
  /** Whether requests are validated (the setting, or the mock modes asked for a validator). */
  validates: boolean;
  /** The spec's request validator, made on the first request that is validated. */
  validator(): RequestValidator;
  /** The spec's generator of dynamic examples, made on first use. */
  dynamicExamples(): DynamicExamples;
  /** Answers the mock's own errors with the responses the spec declares for them. */
  errors: DeclaredErrors;
  /** Whether requests must carry the credentials of their operation's `security`. */
  enforcesSecurity: boolean;
  /** The contract of an operation for a handler route that overrides it; unset when contracts are not enforced. */
  contract?(operation: OperationSpec): ResponseContract;
}

/**
 * The route of one operation, answering with the spec's examples. What does not change between
 * requests is decided once, when the route is made: a plain route (no `x-mock` faults or dynamic
 * examples) keeps a cached answer per Accept header.
 */
class ExampleRoute {
  private readonly label: string;
  private readonly mock: MockSettings;
  // The route's row of the mock table; a route without one keeps its fast path.
  private readonly table: TableRoute | undefined;
  // Decided once per route: a plain route keeps the cached fast path of handle().
  private readonly plain: boolean;
  private readonly payloads = new Map<string, string>();
  private readonly stateful: StatefulAction | undefined;
  private readonly validates: boolean;
  // A validated operation that declares no requestBody refuses a body (415), as Prism does: the client sends
  // something the contract has no place for.
  private readonly refusesBody: boolean;
  // Such an operation has nothing to check in a request without a query string (a list endpoint's
  // plain GET, the most frequent request of all).
  private readonly onlyOptionalQuery: boolean;
  // Without Prefer and without a body to echo, the same Accept header always gets the same answer.
  private readonly plainAnswers = new Map<string | undefined, PreparedAnswer>();
  // A table route's static answers by what chose them (response, example, status) and Accept: a rule-matched
  // request without faults is then answered as a plain one is, without serialising its example again.
  private readonly chosenAnswers = new Map<string, PreparedAnswer>();
  // Checked before a body is validated or echoed, both of which recurse through it.
  private bodyDepth: number | undefined;
  private readonly credentials: CredentialsCheck | undefined;
  // Whether a GET without body or Prefer (its query the mock's control parameters alone) is answered as the example,
  // the table or the control parameters choose, never by a fault, state or credentials check: then the route offers
  // its answers to be sent before Fastify (RouteEntry.prepared).
  private readonly answersDirectly: boolean;
  // The answers offered so, by what chose them and Accept: static ones whole, dynamic ones with the body drawn per
  // request (null: that choice gets an error, which Fastify's path answers).
  private readonly directAnswers = new Map<string, PreparedAnswer | null>();
  // Its decisions by the values they read, when there is more to decide than the Accept header (which the prepared
  // answers are found by anyway): validation, or the table's rules.
  private readonly decisions: DirectDecisions | undefined;

  constructor(
    private readonly serving: SpecServing,
    private readonly operation: OperationSpec,
  ) {
    const { spec } = serving;
    this.label = `${operation.method} ${operation.path}`;
    this.table = serving.mockTable?.get(this.label);
    const settings = mockSettingsOf(spec.document, operation.pointer, serving.workspaceMock, spec.warnings, this.label);
    this.mock = withTableFaults(settings, this.table?.row, serving.workspaceMock.maxDelayMs);
    this.plain = isPlain(this.mock) && this.table === undefined;
    this.stateful = serving.modes.stateful?.get(operation);
    const located = new Set(operation.parameters.map((p) => p.in));
    this.validates = serving.validates && (located.size > 0 || operation.requestBody !== undefined);
    this.refusesBody = serving.validates && operation.requestBody === undefined;
    this.onlyOptionalQuery =
      operation.requestBody === undefined && operation.parameters.every((p) => p.in === 'query' && !p.required);
    this.credentials = serving.enforcesSecurity ? credentialsCheck(spec, operation, spec.warnings) : undefined;
    this.answersDirectly =
      operation.method === 'GET' &&
      this.credentials === undefined &&
      this.stateful === undefined &&
      withoutFaults(this.mock) &&
      !serving.modes.proxy;
    const decides = (this.validates && !this.onlyOptionalQuery) || this.table !== undefined;
    this.decisions = decides ? new DirectDecisions(operation, this.validates, this.table) : undefined;
  }

  /**
   * The answer handle() would send to a GET without body or Prefer, when it is prepared or can be made without
   * Fastify: the one handle() prepared for a plain request, else the one the control parameters and the table's rules
   * choose, after the checks handle() makes (an invalid request gets none: Fastify's path answers its error).
   */
  private readonly directAnswer = (request: DirectRequest): PreparedAnswer | undefined => {
    const decision = request.chosen || !this.decisions ? this.decide(request) : this.decisions.of(request, this.decide);
    return decision === 'plain' ? this.plainAnswers.get(request.accept) : (decision ?? undefined);
  };

  /** What answers `request`, after the checks handle() makes (an invalid request gets Fastify's path, its error). */
  private readonly decide = ({ accept, chosen, headers, params }: DirectRequest): DirectDecision => {
    // As handle() validates: the query left once the control parameters are taken out is empty, so only what it
    // must hold can be missing; path parameters and headers are checked as there.
    if (this.validates && !this.onlyOptionalQuery) {
      const request = { query: {}, headers, body: undefined };
      if (requestIssues(this.serving.validator(), this.operation, request, params).length > 0) return null;
    }
    if (chosen === undefined && this.plain) return 'plain';
    if (!this.table) return this.choiceAnswer(accept, chosen ?? {}, undefined, undefined) ?? null;
    const input = { query: {}, headers, params, body: undefined };
    const { preference, status, chosenBy } = tableChoice(this.table, input, chosen ?? {});
    return this.choiceAnswer(accept, preference, status, chosenBy) ?? null;
  };

  /**
   * The prepared answer to a choice (what the table chose, `chosenBy`, named in the {@link ruleHeader}), as
   * faultedAnswer() sends it without a fault: a static one whole and without ETag, a dynamic one with its body drawn
   * per request. Made on first use; none when the choice gets an error.
   */
  private choiceAnswer(
    accept: string | undefined,
    preference: Preference,
    status: number | undefined,
    chosenBy: string | undefined,
  ): PreparedAnswer | undefined {
    const { code, example, dynamic, seed } = preference;
    const key = `${chosenBy}|${code}|${example}|${dynamic}|${seed}|${status}|${accept}`;
    let answer = this.directAnswers.get(key);
    if (answer === undefined) {
      if (this.directAnswers.size >= maxPlainAnswers) return undefined;
      answer = null;
      try {
        answer = this.preparedChoice(accept, preference);
        const headers = chosenBy === undefined ? answer.headers : { ...answer.headers, [ruleHeader]: chosenBy };
        answer = { ...answer, headers, status: status ?? answer.status };
        // Fastify sends a 204 or 304 without body or length: left to it.
        if (answer.status === 204 || answer.status === 304) answer = null;
      } catch {
        // Not acceptable, not declared, or no example: left to Fastify's path, which answers the error.
      }
      this.directAnswers.set(key, answer);
    }
    return answer ?? undefined;
  }

  /** The answer to `preference` prepared: a dynamic one's body is drawn by its `draw`. Throws what answerFor() does. */
  private preparedChoice(accept: string | undefined, preference: Preference): PreparedAnswer {
    const choice = this.chosen(accept, preference);
    const { status, headers, media, mediaType } = choice;
    if (!this.drawsValue(choice, preference)) return prepared(this.answerFor(accept, preference), false);
    const draw = () => this.serialize(media!, mediaType!, this.generated(choice, preference.seed));
    return { mode: 'dynamic', status, headers, contentType: sentContentType(choice.contentType), draw };
  }

  /** The route's entry in the route table: the proxy's handler instead when the spec proxies. */
  entry(): RouteEntry {
    const { spec, modes } = this.serving;
    const operation = this.operation;
    return {
      method: operation.method,
      path: spec.mount === '' ? operation.path : `/${spec.mount}${operation.path === '/' ? '' : operation.path}`,
      source: 'spec' as const,
      file: spec.file,
      operation: documentedOperation(spec, operation),
      exposedHeaders: declaredResponseHeaders(spec.document, operation.pointer),
      handle: modes.proxy ? markedProxy(modes.proxy.handler(operation)) : this.handle,
      // The answers handle() prepared, once it has made one for an Accept header (an error it answers is never kept),
      // or the heads of dynamic ones.
      prepared: this.answersDirectly ? this.directAnswer : undefined,
      contract: this.serving.contract?.(operation),
    };
  }

  private checkBodyDepth(body: unknown): void {
    if (body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return;
    const { document } = this.serving.spec;
    this.bodyDepth ??= Math.max(
      ...Object.values(this.operation.requestBody?.content ?? {}).map((pointer) =>
        allowedBodyDepth(document, pointer ? { $ref: pointer } : {}),
      ),
      allowedBodyDepth(document, {}),
    );
    if (nestingDepth(body, this.bodyDepth) > this.bodyDepth) throw httpError('BODY_TOO_DEEP', [this.bodyDepth]);
  }

  /** The body text of a value: XML by the schema's `xml` hints for an XML media type, else {@link serialize}. */
  private serialize(media: MediaExample, mediaType: string, value: unknown): string {
    if (value !== null && typeof value === 'object' && isXmlMediaType(mediaType))
      return toXml(value, this.serving.spec.document, media.schemaPointer);
    return serialize(mediaType, value);
  }

  /** The response (by `Prefer: code=`), media type (by Accept) and named example an answer is made from. */
  private chosen(accept: string | undefined, preference: Preference): Choice {
    if (this.operation.responses.length === 0) throw httpError('MOCK_NO_RESPONSES', [this.label]);
    const { status, response } = selectResponse(this.operation, preference);
    const headers = response && Object.keys(response.headers).length > 0 ? response.headers : undefined;
    if (!response || response.mediaTypes.length === 0) return { status, headers };
    const offered = response.mediaTypes.map((m) => m.mediaType);
    const mediaType = negotiate(accept, offered);
    if (mediaType === undefined) throw httpError('NOT_ACCEPTABLE', [accept, offered.join(', ')]);
    const media = response.mediaTypes.find((m) => m.mediaType === mediaType)!;
    const exampleName = namedExample(media, preference, `${this.label} ${status} ${mediaType}`);
    return { status, headers, media, mediaType, contentType: concreteMediaType(mediaType), exampleName };
  }

  /** A value generated from the chosen media type's schema (repeatable with `seed`). */
  private generated({ status, media, mediaType }: Choice, seed: number | undefined): unknown {
    return this.serving.dynamicExamples().generate(media!.schemaPointer!, seed, `${this.label} ${status} ${mediaType}`);
  }

  /** Whether the answer to a choice is a value generated from its schema (a named example never is). */
  private drawsValue({ media, mediaType, exampleName }: Choice, preference: Preference): boolean {
    return (
      media !== undefined &&
      mediaType !== undefined &&
      exampleName === undefined &&
      media.schemaPointer !== undefined &&
      (preference.dynamic ?? (preference.seed !== undefined || this.mock.examples === 'dynamic'))
    );
  }

  /** The answer to an Accept header and preference; with `echo`, a POST's (PUT's, PATCH's) body merged over it. */
  private answerFor(accept: string | undefined, preference: Preference, echo?: { body: unknown }): Answer {
    const choice = this.chosen(accept, preference);
    const { status, headers, media, mediaType, contentType, exampleName } = choice;
    if (media === undefined || mediaType === undefined) return { mode: 'static', status, headers };
    if (this.drawsValue(choice, preference)) {
      const generated = this.generated(choice, preference.seed);
      return {
        mode: 'dynamic',
        status,
        headers,
        contentType,
        payload: this.serialize(media, mediaType, echo ? echoMerge(generated, echo.body) : generated),
      };
    }
    const example = exampleName !== undefined ? media.named[exampleName] : media.example;
    const mode = 'static';
    if (echo)
      return {
        mode,
        status,
        headers,
        contentType,
        payload: this.serialize(media, mediaType, echoMerge(example, echo.body)),
      };
    // Content is declared: an empty body would be unreadable to the client, so the answer that cannot be made
    // is an error saying why (the loader logged the same reason as a warning).
    if (example === undefined) {
      const reason = exampleName !== undefined ? 'the named example has no value' : media.missing;
      throw httpError('EXAMPLE_UNAVAILABLE', [`${this.label} ${status} ${mediaType}`, reason ?? 'none was made']);
    }
    const key = `${status}|${mediaType}|${exampleName ?? ''}`;
    let payload = this.payloads.get(key);
    if (payload === undefined) {
      payload = this.serialize(media, mediaType, example);
      this.payloads.set(key, payload);
    }
    return { mode, status, headers, contentType, payload };
  }

  /** Serves a request (a property, so the route table calls it without binding). */
  readonly handle = (
    request: FastifyRequest,
    reply: FastifyReply,
    params: Record<string, string>,
  ): void | Promise<void> => {
    const { errors } = this.serving;
    const missing = this.credentials?.(request, reply);
    if (missing) return errors.answer(this.operation, missing, request, reply);
    const hasBody = request.body !== undefined && request.body !== null;
    if (hasBody) {
      // A Content-Type with an empty body is no body (as in Prism).
      if (this.refusesBody && !isEmptyBody(request.body))
        return errors.answer(this.operation, httpError('BODY_NOT_ALLOWED', [this.label]), request, reply);
      this.checkBodyDepth(request.body);
    }
    // Taken out of the query before validation: the mock's own parameters are not the operation's.
    const chosen = takeQueryPreference(request);
    if (this.validates && !(this.onlyOptionalQuery && !request.url.includes('?'))) {
      let issues;
      try {
        issues = inSpan('request validation', () =>
          requestIssues(this.serving.validator(), this.operation, request, params),
        );
      } catch (error) {
        // An undeclared Content-Type (415) is answered with the operation's declared 415, as other refusals are.
        return errors.answer(this.operation, error, request, reply);
      }
      if (issues.length > 0) return errors.answer(this.operation, validationError(issues), request, reply);
    }
    // A request choosing its answer (Prefer, or the query's choices) gets the spec's examples, not the state.
    if (this.stateful !== undefined && chosen === undefined) {
      // Marked before the action sends: an answer it leaves to the examples is marked again by send().
      reply.header(modeHeader, 'stateful');
      try {
        if (this.stateful(request, reply, params)) return;
      } catch (error) {
        return errors.answer(this.operation, error, request, reply);
      }
    }
    const echo = hasBody && echoMethods.has(this.operation.method);
    if (!this.plain || request.headers.prefer !== undefined || chosen !== undefined)
      return this.mockedAnswer(request, reply, echo, params, chosen);
    const accept = request.headers.accept;
    if (echo) return send(reply, this.answerFor(accept, {}, request));
    let answer = this.plainAnswers.get(accept);
    if (!answer) {
      answer = prepared(this.answerFor(accept, {}), this.operation.method === 'GET');
      if (this.plainAnswers.size < maxPlainAnswers) this.plainAnswers.set(accept, answer);
    }
    sendPrepared(request, reply, answer);
  };

  /** Prefer (or its query parameters), dynamic examples or faults: the answer is made for this request, after any
   * delay (a promise only then: an answer without one is sent at once). */
  private mockedAnswer(
    request: FastifyRequest,
    reply: FastifyReply,
    echo: boolean,
    params: Record<string, string>,
    chosen: Preference | undefined,
  ): void | Promise<void> {
    const mock = this.mock;
    // The query's choices win over the header's, as in Prism: a link or a Swagger UI call names what it wants.
    let preference = chosen
      ? { ...parsePrefer(request.headers.prefer), ...chosen }
      : parsePrefer(request.headers.prefer);
    let status: number | undefined;
    if (this.table) {
      const input = { query: request.query, headers: request.headers, params, body: request.body };
      const choice = tableChoice(this.table, input, preference);
      ({ preference, status } = choice);
      reply.header(ruleHeader, choice.chosenBy);
    }
    const fault = planFault(mock, preference, this.serving.workspaceMock.maxDelayMs);
    const described = describeFault(fault);
    if (described) reply.header(faultHeader, described);
    if (fault.delayMs > 0)
      return delayFor(fault).then(() => this.faultedAnswer(request, reply, echo, preference, status, fault));
    this.faultedAnswer(request, reply, echo, preference, status, fault);
  }

  /** The answer after the delay: the chosen one (cached when static and chosen by the table alone), or the fault's. */
  private faultedAnswer(
    request: FastifyRequest,
    reply: FastifyReply,
    echo: boolean,
    preference: Preference,
    status: number | undefined,
    fault: PlannedFault,
  ): void {
    const mock = this.mock;
    if (fault.errorStatus === undefined) {
      // Dynamic answers and echoes differ per request; so does anything a Prefer header chose beyond the table.
      const cacheable = !echo && this.table !== undefined && request.headers.prefer === undefined;
      const key = cacheable
        ? `${preference.code}|${preference.example}|${preference.dynamic}|${status}|${request.headers.accept}`
        : undefined;
      const cached = key === undefined ? undefined : this.chosenAnswers.get(key);
      if (cached) return sendPrepared(request, reply, cached);
      const made = this.answerFor(request.headers.accept, preference, echo ? request : undefined);
      const answer = status === undefined ? made : { ...made, status };
      if (key === undefined || answer.mode !== 'static') return send(reply, answer);
      // Without an ETag, as every answer a table, Prefer or faults chose (docs/mocking.md).
      const ready = prepared(answer, false);
      if (this.chosenAnswers.size < maxPlainAnswers) this.chosenAnswers.set(key, ready);
      return sendPrepared(request, reply, ready);
    }
    const declared = this.operation.responses.some(
      (r) => r.key === String(fault.errorStatus) || r.key === `${String(fault.errorStatus)[0]}XX`,
    );
    if (!declared) throw injectedError(fault.errorStatus, `x-mock.errorRate ${mock.errorRate} of ${this.label}`);
    const faulted = { code: fault.errorStatus, dynamic: preference.dynamic, seed: preference.seed };
    send(reply, this.answerFor(request.headers.accept, faulted));
  }
}

/**
 * Turns a compiled spec into gateway routes that answer with the spec's examples: status and example
 * chosen by {@link selectResponse} and `Prefer`, media type by the Accept header, and for POST, PUT and
 * PATCH the request body merged over the example.
 */
export function specUnit(spec: CompiledSpec, options: SpecRouteOptions): WorkspaceUnit {
  let validator: RequestValidator | undefined;
  const requestValidator = () =>
    (validator ??= new RequestValidator(spec.openapi, validationDocument(spec.document), (message) =>
      options.log.warn({ spec: spec.file }, message),
    ));
  let responses: ResponseValidator | undefined;
  const responseValidator = () =>
    (responses ??= new ResponseValidator(spec.openapi, validationDocument(spec.document), (message) =>
      options.log.warn({ spec: spec.file }, message),
    ));
  const modes = mockModes(spec, options.modes, options.log, requestValidator, responseValidator);
  const validates = options.validateRequests || validator !== undefined;
  // Made on first use (registering the document walks all of it), but whether it can be made was
  // checked at load by the spec worker: a spec that cannot be validated still fails to load.
  if (validates && spec.validationProblem !== undefined) throw new LoadError(spec.file, spec.validationProblem);
  let dynamicExamples: DynamicExamples | undefined;
  const workspaceMock = options.mock ?? defaultWorkspaceMock;
  const enforce = options.contractEnforce ?? 'off';
  const serving: SpecServing = {
    spec,
    modes,
    workspaceMock,
    mockTable: options.mockTable,
    validates,
    validator: requestValidator,
    dynamicExamples: () => (dynamicExamples ??= new DynamicExamples(spec.document, spec.openapi)),
    errors: new DeclaredErrors(spec, options.log, responseValidator),
    enforcesSecurity: enforcesSecurity(spec, workspaceMock.security),
    contract:
      enforce === 'off' ? undefined : (operation) => responseContract(spec.file, operation, enforce, responseValidator),
  };
  const routes = spec.operations.map((operation) => new ExampleRoute(serving, operation).entry());
  for (const key of options.mockTable?.keys() ?? [])
    if (!spec.operations.some((o) => `${o.method} ${o.path}` === key))
      spec.warnings.push(`mock table: ${key} names no operation of the spec; its row is not used`);
  if (modes.proxy)
    routes.push(...modes.proxy.fallthroughRoutes().map((r) => ({ ...r, handle: markedProxy(r.handle) })));
  const dispose = modes.proxy && (() => modes.proxy!.close());
  return {
    kind: 'spec',
    file: spec.file,
    mount: spec.mount,
    routes,
    document: spec.document,
    warnings: spec.warnings,
    dispose,
  };
}

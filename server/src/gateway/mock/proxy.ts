import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { httpError, HttpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { rawBody } from '../raw-body.js';
import { requestIssues, type RequestValidator } from '../request-validator.js';
import { currentTraceparent, inSpan } from '../../observability/tracing.js';
import { httpMethods } from '../model/spec-types.js';
import { dropQueryControls, withoutControlParams } from './query-preference.js';
import type { CompiledSpec, OperationSpec } from '../model/spec-types.js';
import type { RouteEntry } from '../route-table.js';
import { reportViolations, requestViolations, type ContractViolation, type ResponseValidator } from './contract.js';
import {
  exchange,
  upstreamConnections,
  type ExchangeLimits,
  type Upstream,
  type UpstreamAnswer,
} from './upstream-exchange.js';

/** Where and how a spec's requests are forwarded. */
export interface ProxyTarget {
  /** The upstream's base URL (http or https); the request's path below the mount is appended to its path. */
  url: URL;
  /** Time the upstream has to send its whole answer (504 beyond). */
  timeoutMs: number;
  /** Largest answer relayed (502 beyond). */
  responseLimit: number;
  /** Forward requests of the mount that match no operation of the spec, without validation. */
  fallthrough: boolean;
  /** Answer an exchange with violations 502 `UPSTREAM_CONTRACT_VIOLATED` rather than relay it (Prism's `--errors`). */
  blocking: boolean;
}

/** Headers of one hop, not forwarded in either direction (RFC 9110 §7.6.1), and lengths undici and Fastify set. */
const hopHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
  // This gateway says which of its modes answered (an upstream that is a mock says its own).
  'x-adaptive-mode',
]);

/** The request's end-to-end headers, with the client's address added to `X-Forwarded-For`. */
function forwardedHeaders(headers: IncomingHttpHeaders, clientIp: string): Record<string, string | string[]> {
  const forwarded: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !hopHeaders.has(name)) forwarded[name] = value;
  }
  const forwardedFor = headers['x-forwarded-for'];
  forwarded['x-forwarded-for'] = forwardedFor ? `${[forwardedFor].flat().join(', ')}, ${clientIp}` : clientIp;
  return forwarded;
}

/** The request body to forward, as it came: the text of a parsed JSON body, else the bytes. */
function bodyToForward(request: FastifyRequest): string | Buffer | undefined {
  const body = request.body;
  if (body === undefined || body === null) return undefined;
  if (Buffer.isBuffer(body) || typeof body === 'string') return body;
  return rawBody(request) ?? JSON.stringify(body);
}

/**
 * Forwards a spec's requests to its upstream, checks requests and answers (body, status, required headers)
 * against the spec, and reports each violation (header, log) without changing the upstream's answer, unless the
 * spec blocks violations: then the answer is a 502 listing them. Upstream failures
 * are `{detail, code}` answers: 504 when it does not answer in time, 502 when it cannot be reached, sends
 * something that is not HTTP, or answers more than the limit.
 */
export class SpecProxy {
  /**
   * Connections to the upstream, kept alive between requests, made at the first (see {@link upstreamConnections});
   * closed when the spec's routes are replaced.
   */
  private upstream?: Promise<Upstream>;
  private readonly origin: string;
  /** The upstream URL's path, to which the request's path below the mount is appended: `/v1`, or `''`. */
  private readonly basePath: string;
  private readonly limits: ExchangeLimits;
  /** The spec's routes below the route table's prefix: `/petstore`, or `''` for a spec at the root. */
  private readonly mountPath: string;
  /** What precedes the path forwarded upstream in a request's URL: `/api/adaptive/petstore`. */
  private readonly urlPrefix: string;
  /** Called with each answer of a declared operation, before it is relayed (the workbench records them). */
  onExchange?: (operation: OperationSpec, request: FastifyRequest, answer: UpstreamAnswer, violations: number) => void;

  /** @param routePrefix where the gateway serves its route table (`/api/adaptive`, or `''` in mock mode) */
  constructor(
    private readonly spec: CompiledSpec,
    private readonly target: ProxyTarget,
    routePrefix: string,
    private readonly validator: RequestValidator,
    private readonly responses: ResponseValidator,
    private readonly log: Logger,
  ) {
    this.origin = target.url.origin;
    this.basePath = target.url.pathname.replace(/\/$/, '');
    this.limits = { origin: target.url.origin, timeoutMs: target.timeoutMs, responseLimit: target.responseLimit };
    this.mountPath = spec.mount === '' ? '' : `/${spec.mount}`;
    this.urlPrefix = routePrefix + this.mountPath;
  }

  /** The route handler of one operation: validate, forward, validate the answer, relay it. */
  handler(operation: OperationSpec): RouteEntry['handle'] {
    const checksRequest = operation.parameters.length > 0 || operation.requestBody !== undefined;
    return async (request, reply, params) => {
      const violations: ContractViolation[] = [];
      dropQueryControls(request);
      try {
        if (checksRequest)
          violations.push(
            ...checkedWithinStack('request', () =>
              inSpan('request validation', () =>
                requestViolations(requestIssues(this.validator, operation, request, params)),
              ),
            ),
          );
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        violations.push({ in: 'request', path: 'content-type', rule: error.detail });
      }
      const answer = await this.forward(request);
      const contentType = answer.headers['content-type'];
      violations.push(
        ...checkedWithinStack('response', () =>
          this.responses.validateBytes(
            operation,
            answer.status,
            typeof contentType === 'string' ? contentType : contentType?.[0],
            answer.body,
          ),
        ),
        ...this.responses.missingHeaders(operation, answer.status, answer.headers),
      );
      reportViolations(reply, this.log, { spec: this.spec.file, method: request.method, url: request.url }, violations);
      this.onExchange?.(operation, request, answer, violations.length);
      if (this.target.blocking && violations.length > 0)
        throw httpError('UPSTREAM_CONTRACT_VIOLATED', [`${request.method} ${request.url}`, violations.length], {
          violations,
        });
      this.relay(reply, answer);
    };
  }

  /** Routes that forward the mount's requests no operation matches (when the spec asks for fall-through). */
  fallthroughRoutes(): RouteEntry[] {
    if (!this.target.fallthrough) return [];
    return httpMethods.map((method) => ({
      method,
      path: `${this.mountPath}/*`,
      source: 'spec' as const,
      file: this.spec.file,
      operation: {},
      undocumented: true,
      handle: async (request: FastifyRequest, reply: FastifyReply) => this.relay(reply, await this.forward(request)),
    }));
  }

  /** Closes the connections to the upstream. */
  close(): void {
    void this.upstream?.then(({ agent }) => agent.close()).catch(() => undefined);
  }

  /** Sends the request upstream in a span of its own, whose trace context the upstream receives. */
  private forward(request: FastifyRequest): Promise<UpstreamAnswer> {
    const headers = forwardedHeaders(request.headers, request.ip);
    const path = this.basePath + withoutControlParams(request.url.slice(this.urlPrefix.length));
    return inSpan(
      'proxy upstream',
      async () => {
        const traceparent = currentTraceparent();
        if (traceparent !== undefined) headers.traceparent = traceparent;
        const options = { origin: this.origin, path, method: request.method as 'GET', headers };
        this.upstream ??= upstreamConnections(this.target.timeoutMs);
        return exchange(await this.upstream, { ...options, body: bodyToForward(request) }, this.limits);
      },
      { 'server.address': this.origin },
    );
  }

  private relay(reply: FastifyReply, answer: UpstreamAnswer): void {
    reply.code(answer.status);
    const headers = answer.headers;
    for (const name in headers) {
      if (!hopHeaders.has(name)) reply.header(name, headers[name]);
    }
    reply.send(answer.body);
  }
}

/**
 * Runs a contract check; a body nested so deep (against a recursive schema) that checking it overflows
 * the stack is reported as not checked rather than failing the request. Validators are pure, so
 * nothing is left half done.
 */
function checkedWithinStack(side: ContractViolation['in'], check: () => ContractViolation[]): ContractViolation[] {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return [{ in: side, path: 'body', rule: 'nests too deeply to be checked' }];
  }
}

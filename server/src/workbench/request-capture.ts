import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CapturedMessage, RequestOrigin, WorkbenchRequest } from '../contract/index.js';
import {
  faultHeader,
  gatewayPrefix,
  modeHeader,
  ruleHeader,
  violationsHeader,
  type Gateway,
} from '../gateway/index.js';
import { isInternalRequest } from '../core/internal-requests.js';
import { routeAreas } from '../core/routes.js';
import type { EventHub } from './event-hub.js';
import { sameToken, tokenHeader } from './token.js';

/** Bodies are cut at this many characters in the inspector. */
export const maxCapturedBodyChars = 64 * 1024;
/**
 * The mark of a try-out sent from the workbench page (the API docs' Swagger UI, a replay from the
 * requests panel): that page sends no `Referer` (its URL once held the token), so it says so itself.
 */
export const tryOutHeader = 'x-workbench-try-out';
const redactedHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', tokenHeader]);
const gatewayCatchAll = `${gatewayPrefix}/*`;
const swaggerUiPath = `${gatewayPrefix}/swagger-ui/`;

/**
 * Requests the inspector leaves out altogether: the workspace API (the workbench's plumbing: files,
 * event stream), the files of the Swagger UI page, and the server's calls of its own routes (the health
 * check's readiness probe, made for every `/api/health`, marked by `internalRequestHeaders`). Everything else
 * is captured.
 */
function isCaptured(request: FastifyRequest): boolean {
  const url = request.url;
  if (!url.startsWith('/api/') || url.startsWith(`${routeAreas.workbench.prefix}/`) || url.startsWith(swaggerUiPath))
    return false;
  return !isInternalRequest(request.headers);
}

/** The path of a `Referer` header, when it is a URL. */
function refererPath(referer: string | undefined): string | undefined {
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).pathname;
  } catch {
    return undefined;
  }
}

/**
 * Who sent a request: the workbench when it carries this launch's token (a wrong token does not hide a
 * request), a try-out when it says so ({@link tryOutHeader}) or comes from the gateway's Swagger UI
 * page, anyone else otherwise.
 */
export function requestOrigin(headers: IncomingHttpHeaders, token: string): RequestOrigin {
  const given = headers[tokenHeader];
  if (typeof given === 'string' && sameToken(given, token)) return 'workbench';
  if (headers[tryOutHeader] !== undefined) return 'try-out';
  return refererPath(headers.referer)?.startsWith(swaggerUiPath) ? 'try-out' : 'external';
}

function headersOf(raw: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name] = redactedHeaders.has(name.toLowerCase())
      ? '[redacted]'
      : Array.isArray(value)
        ? value.join(', ')
        : String(value);
  }
  return headers;
}

function isTextual(contentType: string | undefined): boolean {
  return (
    contentType === undefined || /^text\/|[/+](json|xml|yaml|x-www-form-urlencoded|javascript|csv)\b/i.test(contentType)
  );
}

/** A body as inspector text: strings and buffers (text media types) cut at the limit, JSON values serialised. */
function bodyOf(body: unknown, contentType: string | undefined): Pick<CapturedMessage, 'body' | 'size' | 'truncated'> {
  if (body === undefined || body === null) return {};
  let text: string;
  let size: number | undefined;
  if (typeof body === 'string') {
    text = body;
    size = Buffer.byteLength(body);
  } else if (Buffer.isBuffer(body)) {
    size = body.length;
    if (!isTextual(contentType)) return { body: `(${size} bytes of ${contentType})`, size };
    text = body.subarray(0, maxCapturedBodyChars * 4).toString('utf8');
  } else if (typeof (body as { pipe?: unknown }).pipe === 'function') {
    return { body: '(streamed body)' };
  } else {
    text = JSON.stringify(body, null, 2) ?? '';
  }
  if (size === 0) return {};
  const truncated = text.length > maxCapturedBodyChars;
  const captured: Pick<CapturedMessage, 'body' | 'size' | 'truncated'> = {
    body: truncated ? text.slice(0, maxCapturedBodyChars) : text,
  };
  if (size !== undefined) captured.size = size;
  if (truncated) captured.truncated = true;
  return captured;
}

/** Which route answered: a spec's or handler's route of the gateway, or a system route. */
function routeSource(gateway: Gateway, request: FastifyRequest): Pick<WorkbenchRequest, 'source' | 'file'> {
  if (request.routeOptions.url !== gatewayCatchAll) return { source: 'system' };
  const url = request.url;
  const query = url.indexOf('?');
  const match = gateway.table.match(request.method, url.slice(gatewayPrefix.length, query === -1 ? undefined : query));
  return match.kind === 'route' ? { source: match.entry.source, file: match.entry.file } : { source: 'system' };
}

/** What the gateway's headers say about an answer: the mode that made it, its contract violations, its fault. */
function mockMarks(reply: FastifyReply): Pick<WorkbenchRequest, 'mode' | 'violations' | 'fault' | 'mockRule'> {
  const marks: Pick<WorkbenchRequest, 'mode' | 'violations' | 'fault' | 'mockRule'> = {};
  const mode = reply.getHeader(modeHeader);
  if (typeof mode === 'string') marks.mode = mode as WorkbenchRequest['mode'];
  const fault = reply.getHeader(faultHeader);
  if (typeof fault === 'string') marks.fault = fault;
  const rule = reply.getHeader(ruleHeader);
  if (typeof rule === 'string') marks.mockRule = rule;
  const violations = reply.getHeader(violationsHeader);
  if (typeof violations === 'string') {
    try {
      marks.violations = JSON.parse(violations) as WorkbenchRequest['violations'];
    } catch {
      marks.violations = [{ in: 'response', path: violationsHeader, rule: violations }];
    }
  }
  return marks;
}

/** What request capture needs besides the server: the launch's token, and where a 5xx's error was logged. */
export interface CaptureOptions {
  /** The workbench token, whose calls are the workbench's own. */
  token: string;
  /** The id of the error line logged for a request (by Fastify's request id), if one was. */
  errorLineOf(requestId: string): number | undefined;
}

/**
 * Publishes every request the server answers (but the workspace API's) to the hub, with bodies for
 * the request inspector, who sent it, and for a 5xx the log line of its error. Registered only in
 * workbench mode, and with no event stream open the hooks return at once: the inspector shows
 * requests made while the workbench is open.
 */
export function captureRequests(app: FastifyInstance, gateway: Gateway, hub: EventHub, options: CaptureOptions): void {
  const responseBodies = new WeakMap<FastifyRequest, unknown>();
  let nextId = 1;

  app.addHook('onSend', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    if (hub.hasSubscribers && isCaptured(request)) responseBodies.set(request, payload);
    return payload;
  });

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!hub.hasSubscribers || !isCaptured(request)) return;
    const record: WorkbenchRequest = {
      id: nextId++,
      requestId: request.id,
      origin: requestOrigin(request.headers, options.token),
      time: Date.now(),
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      ...routeSource(gateway, request),
      ...mockMarks(reply),
      request: { headers: headersOf(request.headers), ...bodyOf(request.body, request.headers['content-type']) },
      response: {
        headers: headersOf(reply.getHeaders()),
        ...bodyOf(responseBodies.get(request), reply.getHeader('content-type')?.toString()),
      },
    };
    if (reply.statusCode >= 500) {
      const logId = options.errorLineOf(request.id);
      if (logId !== undefined) record.logId = logId;
    }
    hub.publish('request', () => record);
  });
}

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import FindMyWay from 'find-my-way';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpMethods, type HttpMethod } from './model/spec-types.js';
import type { LoadError } from './load-error.js';
import type { ResponseContract } from './mock/contract.js';
import type { Preference } from './mock/example-responder.js';
import type { PreparedAnswer } from './prepared-answer.js';

export type { HttpMethod };

/**
 * A GET without body, `Prefer` or `Origin` as the server reads it before Fastify (direct-answers.ts): its query string
 * holds the mock's control parameters alone, if anything.
 */
export interface DirectRequest {
  accept: string | undefined;
  /** The preferences of its control parameters (`?__dynamic=true`); `undefined` without a query string. */
  chosen: Preference | undefined;
  headers: IncomingHttpHeaders;
  /** The path parameters, as the route table matched them. */
  params: Record<string, string>;
}

/**
 * A handler route's call of a GET without body or query string, made before Fastify sees the request
 * (gateway/handlers/direct-handler-calls.ts); its answer is sent there when it is the route's plain answer, else
 * Fastify's path makes the answer from the call's outcome.
 */
export interface DirectCall {
  /** The status of the route's answers. */
  status: number;
  /**
   * Calls the route on the request's input, validated: resolves with the JSON text it answered (`undefined` for no
   * body) or rejects with the error to answer with; `undefined` when the input is not valid (Fastify's path then
   * answers the error).
   */
  call(request: IncomingMessage, params: Record<string, string>): Promise<string | undefined> | undefined;
  /** Whether an answer of `payload` keeps the route's contract (there is none unless {@link checkedBy} made one);
   * `headers` are those the answer has before the route's own. */
  keeps(payload: string | undefined, headers: () => Record<string, unknown>): boolean;
  /** The same call, its answers held against `contract`, the overridden spec route's. */
  checkedBy(contract: ResponseContract): DirectCall;
}

/** One route of the gateway: a spec operation or a handler route. */
export interface RouteEntry {
  method: HttpMethod;
  /** Path template under `/api/adaptive`, OpenAPI style: `/library-api/books/{bookId}`. */
  path: string;
  source: 'spec' | 'handler';
  /** The workspace file the route comes from. */
  file: string;
  /** The OpenAPI operation object that documents the route in the merged `openapi.json`. */
  operation: Record<string, unknown>;
  /** The response headers the operation declares (`declaredResponseHeaders`), exposed to cross-origin pages. */
  exposedHeaders?: string;
  /** Left out of the merged `openapi.json` (a proxy's fall-through route of a whole mount). */
  undocumented?: boolean;
  /**
   * Serves a matched request: sends the reply before returning, or by the time the returned promise
   * settles. `params` are the decoded path parameters. Returning nothing when the reply is sent spares
   * Fastify a promise per request.
   */
  handle(request: FastifyRequest, reply: FastifyReply, params: Record<string, string>): void | Promise<unknown>;
  /**
   * The answer the route has prepared for such a request, if it has one and would answer it so through Fastify too
   * (the request is valid, no fault is planned): the request is then answered with it before Fastify sees it
   * (direct-answers.ts). Unset on routes whose answers are made per request.
   */
  prepared?(request: DirectRequest): PreparedAnswer | undefined;
  /** A spec route's declared responses, held against a handler route that overrides it (unset: contracts off). */
  contract?: ResponseContract;
  /** A handler route's {@link handle} that checks its answers against `contract`, the overridden spec route's. */
  checkedBy?(contract: ResponseContract): RouteEntry['handle'];
  /** A handler route's call made before Fastify, when the route can be called so. */
  direct?: DirectCall;
}

/** What one workspace file contributes to the gateway. */
export interface WorkspaceUnit {
  kind: 'spec' | 'handler';
  file: string;
  mount: string;
  routes: RouteEntry[];
  /** For specs: the bundled document, whose `components` the merged `openapi.json` includes. */
  document?: Record<string, unknown>;
  /** For specs: {@link document} as JSON text when the load had it, kept for comparing versions off the thread. */
  documentJson?: string;
  /** Non-fatal findings (schema warnings, skipped operations). */
  warnings: string[];
  /** Absolute paths of the files read to build the unit (the file, the files a spec references, a handler's
   * helper modules): such files are never reported as not loaded. */
  inputs?: readonly string[];
  /** Load problems of files read beside the unit's own (a spec's mock table): reported as errors while the unit
   * serves without them. */
  companionProblems?: readonly LoadError[];
  /** Releases what the unit holds (a worker process) once it is replaced or removed. */
  dispose?: () => void;
}

export type RouteMatch =
  | { kind: 'route'; entry: RouteEntry; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'none' };

/** Router paths of the entries of earlier tables: an unchanged unit keeps its entries across reloads. */
const routerPaths = new WeakMap<RouteEntry, { path: string; names: string[] }>();

/** find-my-way's name of a route's `i`th parameter: made once, not per request (a new string is looked up slowly). */
const positionalNames: string[] = [];
const positionalName = (i: number): string => (positionalNames[i] ??= `p${i}`);

/** `{name}` -> find-my-way syntax. Names are replaced by positional ones: OpenAPI allows characters find-my-way does
 * not. */
function toRouterPath(template: string): { path: string; names: string[] } {
  const names: string[] = [];
  const escaped = template.replace(/:/g, '::');
  const path = escaped.replace(/\{([^}/]+)\}/g, (_, name: string) => {
    names.push(name);
    return `:${positionalName(names.length - 1)}`;
  });
  return { path, names };
}

/** A path the router matches only by itself: unreserved characters, no parameter, wildcard or escape. */
const literalPath = /^[\w\-.~/]*$/;

/** A key that is equal for two templates that match the same requests: `/a/{x}` and `/a/{y}`. */
export function routeKey(method: HttpMethod, template: string): string {
  return `${method} ${template.replace(/\{[^}/]+\}/g, '{}')}`;
}

/** The group of routes whose templates do not start with a literal segment (`/{tenant}/...`, `/*`). */
const templatedFirstSegment = '\0templated';

/** The literal first segment of a path template, or {@link templatedFirstSegment}. */
function firstSegmentOf(template: string): string {
  const end = template.indexOf('/', 1);
  const segment = template.slice(1, end === -1 ? undefined : end);
  return /[{*]/.test(segment) ? templatedFirstSegment : segment;
}

/** A unit's routes by first segment, in their order; computed once per routes array (units are replaced, not
 * changed, on reload). */
const routesBySegment = new WeakMap<readonly RouteEntry[], Map<string, RouteEntry[]>>();

function segmentsOf(unit: WorkspaceUnit): Map<string, RouteEntry[]> {
  let segments = routesBySegment.get(unit.routes);
  if (!segments) {
    segments = new Map();
    for (const entry of unit.routes) {
      const segment = firstSegmentOf(entry.path);
      let routes = segments.get(segment);
      if (!routes) segments.set(segment, (routes = []));
      routes.push(entry);
    }
    routesBySegment.set(unit.routes, segments);
  }
  return segments;
}

/** The entry serving a handler route that overrides a spec route: one whose answers are checked against the spec's
 * contract, made once per table segment (so once per reload of either), or the handler's entry as it is. */
function overriding(handler: RouteEntry, spec: RouteEntry): RouteEntry {
  if (!spec.contract || !handler.checkedBy) return handler;
  return { ...handler, handle: handler.checkedBy(spec.contract), direct: handler.direct?.checkedBy(spec.contract) };
}

/**
 * The routes of one first path segment and their router. Two templates of different literal first segments never
 * match one request nor clash, so each segment is decided on its own, and a segment whose units' routes are the
 * same as in the table before is reused as it is: a reload after one spec changed builds one router, not all.
 */
class SegmentRoutes {
  readonly entries: RouteEntry[] = [];
  readonly conflicts: Array<{ entry: RouteEntry; reason: string }> = [];
  readonly overridden = new Map<RouteEntry, RouteEntry>();
  readonly router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 2048 });
  readonly names = new Map<RouteEntry, string[]>();
  /**
   * The routes whose path has no parameter, by method and path: an exact request path is found with two map
   * lookups, where the router walks and sanitises it. Anything else (a trailing slash, an escape) goes to the router.
   */
  readonly literal = new Map<string, Map<string, RouteEntry>>();

  /** @param sources the routes of this segment, of each unit in order (specs first, then handlers) */
  constructor(readonly sources: ReadonlyArray<readonly RouteEntry[]>) {
    const chosen = new Map<string, RouteEntry>();
    for (const routes of sources) {
      for (const entry of routes) {
        const key = routeKey(entry.method, entry.path);
        const existing = chosen.get(key);
        if (existing && existing.source === entry.source) {
          this.conflicts.push({
            entry,
            reason: `${entry.method} ${entry.path} is already defined by ${existing.file}`,
          });
          continue;
        }
        if (existing && existing.source === 'spec') {
          const served = overriding(entry, existing);
          this.overridden.set(served, existing);
          chosen.set(key, served);
        } else chosen.set(key, entry);
      }
    }
    for (const entry of chosen.values()) {
      let converted = routerPaths.get(entry);
      if (!converted) {
        converted = toRouterPath(entry.path);
        routerPaths.set(entry, converted);
      }
      try {
        this.router.on(entry.method, converted.path, () => undefined, entry);
        this.names.set(entry, converted.names);
        this.entries.push(entry);
        if (literalPath.test(entry.path)) {
          let paths = this.literal.get(entry.method);
          if (!paths) this.literal.set(entry.method, (paths = new Map()));
          paths.set(entry.path, entry);
        }
      } catch (error) {
        this.conflicts.push({ entry, reason: `${entry.method} ${entry.path}: ${(error as Error).message}` });
      }
    }
  }

  /** Whether this group was built from exactly these routes (the same arrays, in the same order). */
  sameSources(sources: ReadonlyArray<readonly RouteEntry[]>): boolean {
    return sources.length === this.sources.length && sources.every((routes, i) => routes === this.sources[i]);
  }
}

/** The first segment of a request path (after the prefix, without the query string), decoded as the router
 * decodes it; undefined when it cannot be a literal segment. */
function requestSegment(path: string): string | undefined {
  const end = path.indexOf('/', 1);
  const segment = path.slice(1, end === -1 ? undefined : end);
  if (!segment.includes('%')) return segment;
  try {
    const decoded = decodeURIComponent(segment);
    return decoded.includes('/') ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/**
 * An immutable table of gateway routes. A reload builds a new table aside and swaps one reference,
 * so a request finishes on the table it started with. Handler routes override spec routes with the
 * same method and path; concrete segments beat templated ones (`/books/stats` before `/books/{id}`).
 * Routes are kept in one router per literal first segment (and one for templated first segments), which a later
 * table reuses for every segment whose routes did not change.
 */
export class RouteTable {
  /** The routes, by first segment (in order of first appearance), specs before handlers within each. */
  readonly entries: readonly RouteEntry[];
  /** Routes that could not be added, with the reason (for example an ambiguous template). */
  readonly conflicts: Array<{ entry: RouteEntry; reason: string }> = [];
  /** Handler routes that override a spec route, and that spec route (whose documentation they keep). */
  readonly overridden = new Map<RouteEntry, RouteEntry>();
  /** The first segments whose router this table built (the others it took from the table before). */
  readonly rebuiltSegments: string[] = [];
  private readonly segments = new Map<string, SegmentRoutes>();
  private readonly templated: SegmentRoutes | undefined;
  /** The one router when there is only one (one mount): requests go straight to it, as cheap as before. */
  private readonly sole: SegmentRoutes | undefined;

  /** @param previous a table whose unchanged segments are reused */
  constructor(units: readonly WorkspaceUnit[], previous?: RouteTable) {
    const sources = new Map<string, RouteEntry[][]>();
    const ordered = [...units.filter((u) => u.kind === 'spec'), ...units.filter((u) => u.kind === 'handler')];
    for (const unit of ordered) {
      for (const [segment, routes] of segmentsOf(unit)) {
        let list = sources.get(segment);
        if (!list) sources.set(segment, (list = []));
        list.push(routes);
      }
    }
    const entries: RouteEntry[] = [];
    for (const [segment, list] of sources) {
      const reusable = previous?.segmentRoutes(segment);
      const routes = reusable?.sameSources(list) ? reusable : new SegmentRoutes(list);
      if (routes !== reusable) this.rebuiltSegments.push(segment === templatedFirstSegment ? '{templated}' : segment);
      this.segments.set(segment, routes);
      for (const entry of routes.entries) entries.push(entry);
      this.conflicts.push(...routes.conflicts);
      for (const [entry, spec] of routes.overridden) this.overridden.set(entry, spec);
    }
    this.templated = this.segments.get(templatedFirstSegment);
    this.sole = this.segments.size === 1 ? [...this.segments.values()][0] : undefined;
    this.entries = entries;
  }

  private segmentRoutes(segment: string): SegmentRoutes | undefined {
    return this.segments.get(segment);
  }

  /** Finds the route for `method` and `path` (the part after `/api/adaptive`, without the query string). */
  match(method: string, path: string): RouteMatch {
    const literal = this.sole ?? this.literalRoutes(path);
    // HEAD is the spec's own head operation, else answered as GET (RFC 9110 §9.3.2).
    const found =
      this.lookup(literal, method, path) ?? (method === 'HEAD' ? this.lookup(literal, 'GET', path) : undefined);
    if (found) return found;
    const allowed = httpMethods.filter(
      (m) => m !== method && (literal?.router.find(m, path) || this.templated?.router.find(m, path)),
    );
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'none' };
  }

  /** The route of `method` for `path`: a literal first segment beats a templated one, as within one router. */
  private lookup(literal: SegmentRoutes | undefined, method: string, path: string): RouteMatch | undefined {
    return (
      this.find(literal, method, path) ??
      (literal === this.templated ? undefined : this.find(this.templated, method, path))
    );
  }

  private literalRoutes(path: string): SegmentRoutes | undefined {
    const segment = requestSegment(path);
    return segment === undefined ? undefined : this.segments.get(segment);
  }

  private find(routes: SegmentRoutes | undefined, method: string, path: string): RouteMatch | undefined {
    const exact = routes?.literal.get(method)?.get(path);
    if (exact) return { kind: 'route', entry: exact, params: {} };
    const found = routes?.router.find(method as HttpMethod, path);
    if (!found) return undefined;
    const entry = found.store as RouteEntry;
    const names = routes!.names.get(entry)!;
    const params: Record<string, string> = {};
    const values = found.params as Record<string, string>;
    for (let i = 0; i < names.length; i++) params[names[i]] = values[positionalName(i)] ?? '';
    return { kind: 'route', entry, params };
  }
}

import FindMyWay from 'find-my-way';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpMethods, type HttpMethod } from './spec/spec-types.js';

export type { HttpMethod };

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
  /** Left out of the merged `openapi.json` (a proxy's fall-through route of a whole mount). */
  undocumented?: boolean;
  /**
   * Serves a matched request: sends the reply before returning, or by the time the returned promise
   * settles. `params` are the decoded path parameters. Returning nothing when the reply is sent spares
   * Fastify a promise per request.
   */
  handle(request: FastifyRequest, reply: FastifyReply, params: Record<string, string>): void | Promise<unknown>;
}

/** What one workspace file contributes to the gateway. */
export interface WorkspaceUnit {
  kind: 'spec' | 'handler';
  file: string;
  mount: string;
  routes: RouteEntry[];
  /** For specs: the bundled document, whose `components` the merged `openapi.json` includes. */
  document?: Record<string, unknown>;
  /** Non-fatal findings (schema warnings, skipped operations). */
  warnings: string[];
  /** Absolute paths of the files read to build the unit (the file, the files a spec references, a handler's
   * helper modules): such files are never reported as not loaded. */
  inputs?: readonly string[];
  /** Releases what the unit holds (a worker process) once it is replaced or removed. */
  dispose?: () => void;
}

export type RouteMatch =
  | { kind: 'route'; entry: RouteEntry; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'none' };

/** Router paths of the entries of earlier tables: an unchanged unit keeps its entries across reloads. */
const routerPaths = new WeakMap<RouteEntry, { path: string; names: string[] }>();

/** `{name}` -> find-my-way syntax. Names are replaced by positional ones: OpenAPI allows characters find-my-way does
 * not. */
function toRouterPath(template: string): { path: string; names: string[] } {
  const names: string[] = [];
  const escaped = template.replace(/:/g, '::');
  const path = escaped.replace(/\{([^}/]+)\}/g, (_, name: string) => {
    names.push(name);
    return `:p${names.length - 1}`;
  });
  return { path, names };
}

/** A key that is equal for two templates that match the same requests: `/a/{x}` and `/a/{y}`. */
export function routeKey(method: HttpMethod, template: string): string {
  return `${method} ${template.replace(/\{[^}/]+\}/g, '{}')}`;
}

/**
 * An immutable table of gateway routes. A reload builds a new table aside and swaps one reference,
 * so a request finishes on the table it started with. Handler routes override spec routes with the
 * same method and path; concrete segments beat templated ones (`/books/stats` before `/books/{id}`).
 */
export class RouteTable {
  readonly entries: readonly RouteEntry[];
  /** Routes that could not be added, with the reason (for example an ambiguous template). */
  readonly conflicts: Array<{ entry: RouteEntry; reason: string }> = [];
  /** Handler routes that override a spec route, and that spec route (whose documentation they keep). */
  readonly overridden = new Map<RouteEntry, RouteEntry>();
  private readonly router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 2048 });
  private readonly names = new Map<RouteEntry, string[]>();

  constructor(units: readonly WorkspaceUnit[]) {
    const chosen = new Map<string, RouteEntry>();
    const ordered = [...units.filter((u) => u.kind === 'spec'), ...units.filter((u) => u.kind === 'handler')];
    for (const unit of ordered) {
      for (const entry of unit.routes) {
        const key = routeKey(entry.method, entry.path);
        const existing = chosen.get(key);
        if (existing && existing.source === entry.source) {
          this.conflicts.push({
            entry,
            reason: `${entry.method} ${entry.path} is already defined by ${existing.file}`,
          });
          continue;
        }
        if (existing && existing.source === 'spec') this.overridden.set(entry, existing);
        chosen.set(key, entry);
      }
    }
    const entries: RouteEntry[] = [];
    for (const entry of chosen.values()) {
      let converted = routerPaths.get(entry);
      if (!converted) {
        converted = toRouterPath(entry.path);
        routerPaths.set(entry, converted);
      }
      const { path, names } = converted;
      try {
        this.router.on(entry.method, path, () => undefined, entry);
        this.names.set(entry, names);
        entries.push(entry);
      } catch (error) {
        this.conflicts.push({ entry, reason: `${entry.method} ${entry.path}: ${(error as Error).message}` });
      }
    }
    this.entries = entries;
  }

  /** Finds the route for `method` and `path` (the part after `/api/adaptive`, without the query string). */
  match(method: string, path: string): RouteMatch {
    const lookup = method === 'HEAD' ? 'GET' : method;
    const found = this.router.find(lookup as HttpMethod, path);
    if (found) {
      const entry = found.store as RouteEntry;
      const names = this.names.get(entry)!;
      const params: Record<string, string> = {};
      names.forEach((name, i) => (params[name] = (found.params as Record<string, string>)[`p${i}`] ?? ''));
      return { kind: 'route', entry, params };
    }
    const allowed = httpMethods.filter((m) => m !== lookup && this.router.find(m, path));
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'none' };
  }
}

import type { FastifyInstance } from 'fastify';

/**
 * Who may call a route when authentication is on: `protected` needs credentials; `optional` checks them
 * when sent (health shows details only to callers who sent good ones); `public` never looks at them.
 */
export type RouteAccess = 'protected' | 'optional' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's access; a route that declares none is protected (see {@link declareAccess}). */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /**
     * The template of the route that served the request when the Fastify route is a catch-all: the gateway
     * sets its matched spec or handler route's, or {@link unknownRoute}. Metrics, traces and the access log
     * label requests by it, never by the raw path.
     */
    routeTemplate: string | null;
  }
}

/** The route label of a request no route matched: every unknown path is one value (bounded cardinality). */
export const unknownRoute = 'UNKNOWN';

/** A part of the server's URL space: where it is mounted and the access its routes have by default. */
export interface RouteArea {
  prefix: string;
  access: RouteAccess;
}

/**
 * The one map of the server's URL prefixes: the composition root mounts the plugins here, each plugin
 * declares its routes' access with {@link declareAccess}, and authentication falls back on it for a
 * request no route matched.
 */
export const routeAreas = {
  /** Specs, handlers and the gateway's own system routes. */
  gateway: { prefix: '/api/adaptive', access: 'protected' },
  /** The federated query service: SQL, SPARQL, natural language, async jobs. */
  query: { prefix: '/api/v1/query', access: 'protected' },
  /** The health tree: answered to everyone, with details for authenticated callers. */
  health: { prefix: '/api/health', access: 'optional' },
  /** The workbench's workspace API, which checks its own per-launch token. */
  workbench: { prefix: '/api/workbench', access: 'public' },
  /** The workbench UI's static files (the page asks for the token it was opened with). */
  workbenchUi: { prefix: '/workbench', access: 'public' },
} as const satisfies Record<string, RouteArea>;

/**
 * The orchestrator probes: public, at exactly these paths (GET and HEAD), while the rest of the
 * gateway is protected.
 */
export const probePaths = {
  liveness: `${routeAreas.gateway.prefix}/actuator/health/liveness`,
  readiness: `${routeAreas.gateway.prefix}/actuator/health/readiness`,
} as const;

/** True when `url` is the area's prefix or lies below it (`/api/healthy` is not under `/api/health`). */
export function isUnder(url: string, area: RouteArea): boolean {
  return url === area.prefix || url.startsWith(`${area.prefix}/`);
}

/**
 * Declares the access of `area` for the routes registered on `app` from now on whose URL lies under the
 * area's prefix and that declare no `config.access` of their own. Scoped by prefix, so a plugin that is
 * not encapsulated (the workbench) cannot lend its access to the routes other plugins register later.
 */
export function declareAccess(app: FastifyInstance, area: RouteArea): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined && isUnder(route.url, area))
      route.config = { ...route.config, access: area.access };
  });
}

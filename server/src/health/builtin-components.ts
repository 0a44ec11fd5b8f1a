import type { FastifyInstance } from 'fastify';
import { internalRequestHeaders } from '../core/internal-requests.js';
import { probePaths } from '../core/routes.js';
import type { SourceHealth } from '../query/source-health.js';
import type { Check, Contributor } from './health-types.js';

/** What the built-in `gateway` component needs from the rest of the server. */
export interface GatewayHealthSources {
  app: FastifyInstance;
  /** The auth check (IdP discovery and JWKS reachable); absent when authentication is off. */
  authCheck?: Check;
}

/**
 * The `gateway` component: `auth` (the identity provider is reachable, or disabled), `hello` (an
 * in-process request through the whole server succeeds) and `openapi` (the merged document builds).
 */
export function gatewayComponent({ app, authCheck }: GatewayHealthSources): Contributor {
  const disabled: Check = async () => ({ status: 'UP', details: { enabled: false } });
  return {
    components: {
      auth: { check: authCheck ?? disabled },
      hello: {
        check: async () => {
          const response = await app.inject({
            method: 'GET',
            url: probePaths.readiness,
            headers: internalRequestHeaders(),
          });
          if (response.statusCode !== 200)
            throw new Error(
              `the gateway answered ${response.statusCode}: ${response.json<{ detail?: string }>().detail ?? ''}`,
            );
          return { routes: app.gateway.table.entries.length };
        },
      },
      openapi: {
        check: async () => ({ paths: await app.gateway.openApiPathCount() }),
      },
    },
  };
}

const componentOfType = { relational: 'database', streaming: 'broker', 'object-storage': 'objectstore' } as const;

/**
 * The `database`, `broker` and `objectstore` components: one sub-component per relational, streaming
 * and object-storage query source, named after it, whose check connects to the source. A component
 * without sources is left out.
 */
export function sourceComponents(sources: readonly SourceHealth[]): Record<string, Contributor> {
  const components: Record<string, Contributor> = {};
  for (const source of sources) {
    const group = (components[componentOfType[source.type]] ??= { components: {} });
    group.components![source.name] = {
      check: async (signal) => ({ type: source.type, ...(await source.check(signal)) }),
    };
  }
  return components;
}

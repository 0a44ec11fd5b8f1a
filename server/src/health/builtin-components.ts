import type { FastifyInstance } from 'fastify';
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
          const response = await app.inject({ method: 'GET', url: '/api/adaptive/actuator/health/readiness' });
          if (response.statusCode !== 200) throw new Error(`the gateway answered ${response.statusCode}: ${response.json<{ detail?: string }>().detail ?? ''}`);
          return { routes: app.gateway.table.entries.length };
        },
      },
      openapi: {
        check: async () => {
          const document = JSON.parse(app.gateway.openApiJson()) as { paths: object };
          return { paths: Object.keys(document.paths).length };
        },
      },
    },
  };
}

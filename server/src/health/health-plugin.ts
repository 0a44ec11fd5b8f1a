import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpError } from '../core/errors.js';
import { declareAccess, routeAreas } from '../core/routes.js';
import { evaluate, httpStatusOf } from './aggregate.js';
import type { HealthNode } from '../contract/index.js';
import { healthGroups, type Contributor } from './health-types.js';

/** Options of the health routes. */
export interface HealthOptions {
  /** The top-level components, built on each call so newly loaded sources appear. */
  components: () => Record<string, Contributor>;
  /** True when the caller may see details; otherwise only the status is shown. */
  mayShowDetails: (request: FastifyRequest) => boolean;
}

function subtree(root: Record<string, Contributor>, names: string[]): Contributor {
  let node: Contributor = { components: root };
  for (const name of names) {
    const next = node.components && Object.hasOwn(node.components, name) ? node.components[name] : undefined;
    if (!next) throw httpError('HEALTH_COMPONENT_NOT_FOUND', [names.join('/')]);
    node = next;
  }
  return node;
}

/**
 * `/api/health`, `/api/health/{component}` and `/api/health/{component}/{sub}`: a fresh check on
 * every call, answered with Spring Boot Actuator semantics (503 when DOWN or OUT_OF_SERVICE).
 */
export async function healthPlugin(app: FastifyInstance, options: HealthOptions): Promise<void> {
  const { prefix } = routeAreas.health;
  declareAccess(app, routeAreas.health);
  const answer = async (request: FastifyRequest, names: string[]) => {
    const node: HealthNode = await evaluate(subtree(options.components(), names));
    const body: HealthNode = options.mayShowDetails(request) ? node : { status: node.status };
    if (names.length <= 1) body.groups = healthGroups;
    return { code: httpStatusOf(node.status), body };
  };
  app.get(prefix, async (request, reply) => {
    const { code, body } = await answer(request, []);
    return reply.code(code).send(body);
  });
  app.get<{ Params: { component: string } }>(`${prefix}/:component`, async (request, reply) => {
    const { code, body } = await answer(request, [request.params.component]);
    return reply.code(code).send(body);
  });
  app.get<{ Params: { component: string; sub: string } }>(`${prefix}/:component/:sub`, async (request, reply) => {
    const { code, body } = await answer(request, [request.params.component, request.params.sub]);
    return reply.code(code).send(body);
  });
}

/**
 * The handler SDK: what a handler module imports as `adaptive-workbench/handler`.
 *
 * ```ts
 * import { Router, HTTPException, t } from 'adaptive-workbench/handler';
 * export const router = new Router();
 * router.get('/hello/{name}', { params: t.Object({ name: t.String() }) }, ({ params }) => ({ hello: params.name }));
 * ```
 *
 * @module
 */
import { Type } from '@sinclair/typebox';

export { Router, type RouteDefinition } from './router.js';
export { HTTPException } from './http-exception.js';
export type {
  AuthClaims,
  HandlerContext,
  HandlerTrace,
  HandlerResult,
  HttpMethod,
  PathParams,
  RouteHandler,
  RouteSchema,
} from './types.js';
export type { Static, TSchema } from '@sinclair/typebox';

/**
 * The JSON Schema type builder (TypeBox), for route schemas: `t.Object`, `t.String`, `t.Integer`,
 * `t.Boolean`, `t.Array`, `t.Optional`, `t.Union`, `t.Literal`, ... Each schema both validates the request
 * and gives the route function its TypeScript types. `Static<typeof schema>` is the type a schema describes.
 */
export const t = Type;

import { STATUS_CODES } from 'node:http';
import type { RouteDefinition } from '../../handler-sdk/router.js';
import { openApiSchema } from './openapi-schema.js';

type Json = Record<string, unknown>;

const errorBody = {
  'application/json': { schema: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } } },
};

/** One OpenAPI parameter object per property of an object schema. */
function parametersOf(schema: object | undefined, location: 'path' | 'query' | 'header'): Json[] {
  if (!schema) return [];
  const converted = openApiSchema(schema);
  const properties = (converted.properties ?? {}) as Record<string, Json>;
  const required = new Set(Array.isArray(converted.required) ? (converted.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const parameter: Json = {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      schema: property,
    };
    if (typeof property.description === 'string') parameter.description = property.description;
    return parameter;
  });
}

/**
 * The OpenAPI operation object that documents a handler route in the merged `openapi.json`:
 * parameters and request body from the route's schemas, the success response with `schema.response`,
 * a 400 when input is validated, and the error statuses listed in `schema.errors`.
 */
export function handlerOperation(route: Pick<RouteDefinition, 'schema' | 'paramNames'>): Json {
  const { schema } = route;
  const operation: Json = {};
  if (schema.summary !== undefined) operation.summary = schema.summary;
  if (schema.description !== undefined) operation.description = schema.description;
  if (schema.tags !== undefined) operation.tags = [...schema.tags];

  const pathParameters = schema.params
    ? parametersOf(schema.params, 'path')
    : route.paramNames.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const parameters = [
    ...pathParameters,
    ...parametersOf(schema.query, 'query'),
    ...parametersOf(schema.headers, 'header'),
  ];
  if (parameters.length > 0) operation.parameters = parameters;
  if (schema.body)
    operation.requestBody = { required: true, content: { 'application/json': { schema: openApiSchema(schema.body) } } };

  const status = schema.status ?? 200;
  const success: Json = { description: STATUS_CODES[status] ?? `Status ${status}` };
  if (status !== 204)
    success.content = { 'application/json': schema.response ? { schema: openApiSchema(schema.response) } : {} };
  const responses: Json = { [String(status)]: success };
  if (schema.params || schema.query || schema.headers || schema.body)
    responses['400'] = { description: 'Invalid request', content: errorBody };
  for (const [code, description] of Object.entries(schema.errors ?? {}))
    responses[code] = { description, content: errorBody };
  operation.responses = responses;
  return operation;
}

import { isObject } from '../core/json.js';
type Json = Record<string, unknown>;

/** True when a response object documents a body schema in at least one media type. */
function hasSchema(response: unknown): boolean {
  return (
    isObject(response) &&
    isObject(response.content) &&
    Object.values(response.content).some((media) => isObject(media) && media.schema !== undefined)
  );
}

const parameterKey = (parameter: unknown) =>
  isObject(parameter) ? `${String(parameter.in)}:${String(parameter.name)}` : '';

/**
 * The documentation of a handler route that overrides a spec route: the handler's own documentation
 * wherever it declares some (summary, description, tags, request body, a response with a schema,
 * parameters), the spec operation's everywhere else. A handler registered without schemas thus
 * keeps the spec's parameters, request body and response schemas in `openapi.json`.
 */
export function overriddenOperation(specOperation: Json, handlerOperation: Json): Json {
  const merged: Json = { ...specOperation };
  for (const key of ['summary', 'description', 'tags', 'requestBody'] as const) {
    if (handlerOperation[key] !== undefined) merged[key] = handlerOperation[key];
  }
  const specParameters = Array.isArray(specOperation.parameters) ? specOperation.parameters : [];
  const known = new Set(specParameters.map(parameterKey));
  const added = (Array.isArray(handlerOperation.parameters) ? handlerOperation.parameters : []).filter(
    (p) => !known.has(parameterKey(p)),
  );
  if (specParameters.length + added.length > 0) merged.parameters = [...specParameters, ...added];
  const responses: Json = { ...(isObject(specOperation.responses) ? specOperation.responses : {}) };
  for (const [code, response] of Object.entries(
    isObject(handlerOperation.responses) ? handlerOperation.responses : {},
  )) {
    if (hasSchema(response) || !Object.hasOwn(responses, code)) responses[code] = response;
  }
  merged.responses = responses;
  return merged;
}

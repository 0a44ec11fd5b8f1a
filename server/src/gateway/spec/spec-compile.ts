import { LoadError, NotOpenApiError } from '../load-error.js';
import path from 'node:path';
import sampler from 'openapi-sampler';
import { dereference, escapeToken, pointerOf } from '../model/json-pointer.js';
import { bundleSpec } from './spec-bundle.js';
import { convertSwagger2 } from './swagger2.js';
import { mountFromServers, specBaseName } from '../model/mount.js';
import {
  httpMethods,
  type CompiledSpec,
  type MediaExample,
  type OperationSpec,
  type ParameterSpec,
  type RequestBodySpec,
  type ResponseSpec,
} from '../model/spec-types.js';
import { type SpecLimits } from '../../core/settings.js';
import { validateOpenApiStructure } from './structure.js';
import { positionedWarning } from './source-positions.js';
import { isObject } from '../../core/json.js';
import { registrationProblem } from '../request-validator.js';
import { containsIdentifier, validationDocument } from '../model/validation-document.js';

type Json = Record<string, unknown>;

/** Checks the `openapi` field: a 3.0.x or 3.1.x version string. */
function checkVersion(document: Json, file: string): string {
  const version = document.openapi;
  if (typeof version !== 'string') {
    throw new NotOpenApiError(
      file,
      `"openapi" must be a version string such as "3.0.3" (found ` +
        `${version === undefined ? 'nothing' : typeof version + ' ' + JSON.stringify(version)})`,
    );
  }
  if (!/^3\.[01]\.\d+(-.+)?$/.test(version)) {
    throw new NotOpenApiError(file, `OpenAPI ${version} is not supported; use 3.0.x or 3.1.x`);
  }
  return version;
}

/**
 * Compiles a spec file: bundles it, checks it, lists its operations and precomputes their example
 * responses. Runs in a worker thread (see spec-loader.ts), so its cost never blocks request serving.
 */
export async function compileSpec(file: string, specsDir: string, limits: SpecLimits): Promise<CompiledSpec> {
  const displayName = path.basename(file);
  const bundled = bundleSpec(file, specsDir, limits);
  const { files, locate } = bundled;
  // Swagger 2.0 is served as the OpenAPI 3.0 it converts to (positions of warnings stay those of the source).
  const conversion = 'swagger' in bundled.document ? await convertSwagger2(bundled.document, displayName) : undefined;
  const document = conversion?.document ?? bundled.document;
  const openapi = checkVersion(document, displayName);
  const warnings = await validateOpenApiStructure(document, locate, displayName);
  if (conversion) warnings.unshift(...conversion.warnings);
  const paths = document.paths ?? {};
  if (!isObject(paths)) throw new LoadError(displayName, '"paths" must be a mapping of path templates to path items');
  const pathCount = Object.keys(paths).length;
  if (pathCount > limits.maxPaths)
    throw new LoadError(displayName, `spec declares ${pathCount} paths, over the limit of ${limits.maxPaths}`);

  const info = isObject(document.info) ? document.info : {};
  const mount = mountFromServers(document.servers) ?? specBaseName(displayName);
  const operations: OperationSpec[] = [];
  for (const [template, rawItem] of Object.entries(paths)) {
    if (!template.startsWith('/')) {
      const place = locate(['paths', template]);
      warnings.push(positionedWarning(place, displayName, `path "${template}" does not start with "/"; skipped`));
      continue;
    }
    try {
      const item = dereference(document, rawItem, pointerOf(['paths', template]));
      if (!isObject(item.value)) continue;
      operations.push(...operationsOf(document, template, item.value, item.pointer, limits, warnings));
    } catch (error) {
      warnings.push(`path "${template}": ${(error as Error).message}`);
    }
  }
  const validationProblem = containsIdentifier(document)
    ? registrationProblem(openapi, validationDocument(document))
    : undefined;
  return {
    ...(validationProblem !== undefined && { validationProblem }),
    file: displayName,
    mount,
    openapi,
    title: typeof info.title === 'string' ? info.title : displayName,
    version: typeof info.version === 'string' ? info.version : '',
    document,
    operations,
    warnings,
    files,
  };
}

function operationsOf(
  document: Json,
  template: string,
  item: Json,
  itemPointer: string,
  limits: SpecLimits,
  warnings: string[],
): OperationSpec[] {
  const shared = parametersOf(document, item.parameters, `${itemPointer}/parameters`);
  const result: OperationSpec[] = [];
  for (const method of httpMethods) {
    const key = method.toLowerCase();
    const operation = item[key];
    if (!isObject(operation)) continue;
    const pointer = `${itemPointer}/${key}`;
    const own = parametersOf(document, operation.parameters, `${pointer}/parameters`);
    const byIdentity = new Map<string, ParameterSpec>();
    for (const parameter of [...shared, ...own]) byIdentity.set(`${parameter.in}:${parameter.name}`, parameter);
    result.push({
      method,
      path: template,
      pointer,
      operationId: typeof operation.operationId === 'string' ? operation.operationId : undefined,
      parameters: [...byIdentity.values()],
      requestBody: requestBodyOf(document, operation.requestBody, `${pointer}/requestBody`),
      responses: responsesOf(
        document,
        operation.responses,
        `${pointer}/responses`,
        limits,
        warnings,
        `${method} ${template}`,
      ),
    });
    if (result[result.length - 1].responses.length === 0)
      warnings.push(`${method} ${template}: declares no responses; the mock answers 501 MOCK_NO_RESPONSES`);
  }
  return result;
}

function parametersOf(document: Json, raw: unknown, pointer: string): ParameterSpec[] {
  if (!Array.isArray(raw)) return [];
  const result: ParameterSpec[] = [];
  raw.forEach((entry, index) => {
    const { value, pointer: at } = dereference(document, entry, `${pointer}/${index}`);
    if (!isObject(value) || typeof value.name !== 'string') return;
    const location = value.in;
    if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') return;
    let schemaPointer: string | undefined;
    if (isObject(value.schema)) schemaPointer = `${at}/schema`;
    else if (isObject(value.content)) {
      const first = Object.keys(value.content)[0];
      if (first !== undefined) schemaPointer = `${at}/content/${escapeToken(first)}/schema`;
    }
    const parameter: ParameterSpec = {
      name: value.name,
      in: location,
      required: location === 'path' || value.required === true,
      schemaPointer,
    };
    if (typeof value.style === 'string') parameter.style = value.style;
    if (typeof value.explode === 'boolean') parameter.explode = value.explode;
    if (isObject(value.schema)) Object.assign(parameter, containerOf(document, value.schema, `${at}/schema`));
    result.push(parameter);
  });
  return result;
}

/** Whether a parameter schema is an array or an object (and its property names), for reading styled values. */
function containerOf(document: Json, raw: Json, pointer: string): Pick<ParameterSpec, 'shape' | 'properties'> {
  let schema: unknown;
  try {
    schema = dereference(document, raw, pointer).value;
  } catch {
    return {};
  }
  if (!isObject(schema)) return {};
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array') || (schema.type === undefined && schema.items !== undefined)) return { shape: 'array' };
  if (types.includes('object') || (schema.type === undefined && isObject(schema.properties))) {
    return isObject(schema.properties)
      ? { shape: 'object', properties: Object.keys(schema.properties) }
      : { shape: 'object' };
  }
  return {};
}

function requestBodyOf(document: Json, raw: unknown, pointer: string): RequestBodySpec | undefined {
  if (raw === undefined) return undefined;
  const { value, pointer: at } = dereference(document, raw, pointer);
  if (!isObject(value) || !isObject(value.content)) return undefined;
  const content: Record<string, string | undefined> = {};
  for (const [mediaType, media] of Object.entries(value.content)) {
    const mediaPointer = `${at}/content/${escapeToken(mediaType)}`;
    content[mediaType] = isObject(media) && media.schema !== undefined ? `${mediaPointer}/schema` : undefined;
  }
  return { required: value.required === true, content };
}

function responsesOf(
  document: Json,
  raw: unknown,
  pointer: string,
  limits: SpecLimits,
  warnings: string[],
  label: string,
): ResponseSpec[] {
  if (!isObject(raw)) return [];
  const result: ResponseSpec[] = [];
  for (const [key, entry] of Object.entries(raw)) {
    if (!/^([1-5](\d\d|XX)|default)$/i.test(key)) continue;
    const { value, pointer: at } = dereference(document, entry, `${pointer}/${escapeToken(key)}`);
    if (!isObject(value)) continue;
    const mediaTypes: MediaExample[] = [];
    if (isObject(value.content)) {
      for (const [mediaType, media] of Object.entries(value.content)) {
        if (!isObject(media)) continue;
        const example = exampleOf(document, mediaType, media, limits, warnings, `${label} ${key} ${mediaType}`);
        if (media.schema !== undefined) example.schemaPointer = `${at}/content/${escapeToken(mediaType)}/schema`;
        mediaTypes.push(example);
      }
    }
    result.push({ key: key.toUpperCase(), mediaTypes, headers: headersOf(document, value.headers) });
  }
  return result;
}

/**
 * How deep sampled examples go. openapi-sampler's default (15) expands a schema graph that shares
 * subschemas (a DAG of $refs and allOf) into branching^15 nodes: a real spec (kin-openapi issue796,
 * 275 KB) then takes seconds per response and the whole spec hits the load time bound. Eight
 * levels keep such graphs to branching^8 and still give realistic mock bodies.
 */
const maxSampleDepth = 8;

function sample(document: Json, schema: unknown): unknown {
  return sampler.sample(
    schema as never,
    { skipReadOnly: false, skipWriteOnly: true, quiet: true, maxSampleDepth },
    document as never,
  );
}

function exampleOf(
  document: Json,
  mediaType: string,
  media: Json,
  limits: SpecLimits,
  warnings: string[],
  label: string,
): MediaExample {
  const named: Record<string, unknown> = {};
  if (isObject(media.examples)) {
    for (const [name, entry] of Object.entries(media.examples)) {
      try {
        const { value } = dereference(document, entry, '#');
        if (isObject(value) && 'value' in value) named[name] = value.value;
      } catch (error) {
        warnings.push(`${label}: example "${name}": ${(error as Error).message}`);
      }
    }
  }
  let example: unknown = media.example;
  let missing: string | undefined;
  if (example === undefined) example = Object.values(named)[0];
  if (example === undefined && media.schema !== undefined) {
    try {
      example = sample(document, media.schema);
    } catch (error) {
      missing = `its schema cannot be sampled: ${(error as Error).message}`;
    }
    if (example === undefined) missing ??= 'its schema yields no example value';
  }
  missing ??= example === undefined ? 'the spec gives neither an example nor a schema to make one from' : undefined;
  const size = example === undefined ? 0 : (JSON.stringify(example)?.length ?? 0);
  if (size > limits.maxExampleBytes) {
    missing = `its example is ${size} bytes, over the limit of ${limits.maxExampleBytes}`;
    example = undefined;
  }
  if (missing === undefined) return { mediaType, example, named };
  warnings.push(`${label}: no example body (${missing}); the route answers 500 EXAMPLE_UNAVAILABLE`);
  return { mediaType, example, named, missing };
}

function headersOf(document: Json, raw: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!isObject(raw)) return headers;
  for (const [name, entry] of Object.entries(raw)) {
    if (name.toLowerCase() === 'content-type' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) continue;
    try {
      const { value } = dereference(document, entry, '#');
      if (!isObject(value)) continue;
      const example = value.example ?? (value.schema !== undefined ? sample(document, value.schema) : undefined);
      if (example !== undefined && example !== null && typeof example !== 'object') headers[name] = String(example);
    } catch {
      // A header without a usable example is simply not sent.
    }
  }
  return headers;
}

import { isObject } from '../../core/json.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { concreteMediaType, isJsonMediaType, negotiate } from '../content-negotiation.js';
import { selectResponse } from './example-responder.js';
import { dereference, resolvePointer } from '../model/json-pointer.js';
import type { CompiledSpec, OperationSpec } from '../model/spec-types.js';
import { declaredResponse, reportViolations, responseSchemaPointer, type ResponseValidator } from './contract.js';
import { filledEnvelope, pagingPlan, requestedPage, setPageHeaders, type Page, type PagingPlan } from './paging.js';
import type { CollectionHandle, MockStateStore } from './state-store.js';

/**
 * Serves one request from the mock state, or returns false when the request is for the example
 * modes instead (it carries `Prefer`, or accepts no JSON).
 */
export type StatefulAction = (request: FastifyRequest, reply: FastifyReply, params: Record<string, string>) => boolean;

type Item = Record<string, unknown>;
type Kind = 'list' | 'create' | 'read' | 'replace' | 'merge' | 'remove';

const isItem = (value: unknown): value is Item =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

const parameterNames = (template: string) => [...template.matchAll(/\{([^}/]+)\}/g)].map((m) => m[1]);

/**
 * The JSON example the spec's author gave for an operation's success response, if any. Values the
 * sampler made up from the schema (`name: "string"`) are not data to seed a collection with.
 */
function successExample(document: Record<string, unknown>, operation: OperationSpec | undefined): unknown {
  if (!operation) return undefined;
  const { status, response } = selectResponse(operation, {});
  const media = response?.mediaTypes.find((m) => isJsonMediaType(m.mediaType));
  if (!media) return undefined;
  const declared = declaredResponse(document, operation, status)?.value.content;
  const object = isItem(declared) ? declared[media.mediaType] : undefined;
  return isItem(object) && (object.example !== undefined || object.examples !== undefined) ? media.example : undefined;
}

/** A list answer that wraps the items: `{data: [...], total: 2}`; `fields` are those of its example and schema. */
interface Envelope {
  value: Item;
  property: string;
  fields: ReadonlySet<string>;
}

/** The properties of the object schema at `pointer` (through `$ref`s), with the first array property. */
function schemaProperties(document: Record<string, unknown>, pointer: string | undefined) {
  if (pointer === undefined) return { names: [] };
  try {
    const schema = dereference(document, resolvePointer(document, pointer), pointer).value;
    const properties = isItem(schema) && isItem(schema.properties) ? schema.properties : {};
    const names = Object.keys(properties);
    const isArray = (name: string) => {
      const property = properties[name];
      return isItem(property) && (property.type === 'array' || property.items !== undefined);
    };
    return { names, array: names.find(isArray) };
  } catch {
    return { names: [] };
  }
}

/**
 * A list example's items (the array itself, or the first array property of an envelope), and the envelope
 * of the list's answers: the example's, else one the response schema describes (an object with an array
 * property).
 */
function listItems(
  example: unknown,
  schema: { names: string[]; array?: string },
): { items: Item[]; envelope?: Envelope } {
  const fields = (value: Item) => new Set([...Object.keys(value), ...schema.names]);
  if (Array.isArray(example)) return { items: example.filter(isItem) };
  if (isItem(example)) {
    const property = Object.keys(example).find((key) => Array.isArray(example[key]));
    if (property !== undefined)
      return {
        items: (example[property] as unknown[]).filter(isItem),
        envelope: { value: example, property, fields: fields(example) },
      };
  }
  if (schema.array === undefined) return { items: [] };
  return { items: [], envelope: { value: {}, property: schema.array, fields: fields({}) } };
}

/** One collection resource of a spec: `/pets` with its item path `/pets/{petId}`. */
interface Resource {
  collection: CollectionHandle;
  parentNames: string[];
  idParam: string;
  idField: string;
  /** The example item without its id: the fields a created or replaced item starts from. */
  template: Item;
  envelope?: Envelope;
  paging: PagingPlan;
}

/**
 * Finds the collections of a spec (a path `P` with operations and a path `P/{id}` with operations),
 * registers them with `store`, and returns the stateful action of each operation that reads or writes
 * one: GET and POST on `P`, GET, PUT, PATCH and DELETE on `P/{id}`. Other operations keep the example modes.
 */
export function statefulResources(
  spec: CompiledSpec,
  store: MockStateStore,
  responses: ResponseValidator,
  log: Logger,
): Map<OperationSpec, StatefulAction> {
  const byPath = new Map<string, Map<string, OperationSpec>>();
  for (const operation of spec.operations) {
    if (!byPath.has(operation.path)) byPath.set(operation.path, new Map());
    byPath.get(operation.path)!.set(operation.method, operation);
  }
  const actions = new Map<OperationSpec, StatefulAction>();
  for (const [itemPath, itemOperations] of byPath) {
    const last = /^(.*)\/\{([^}/]+)\}$/.exec(itemPath);
    const collectionOperations = last ? byPath.get(last[1] || '/') : undefined;
    if (!last || !collectionOperations) continue;
    const [, collectionPath, idParam] = last;
    const list = collectionOperations.get('GET');
    const listSchema = list
      ? responseSchemaPointer(spec.document, list, selectResponse(list, {}).status, 'application/json')
      : undefined;
    const listExample = listItems(successExample(spec.document, list), schemaProperties(spec.document, listSchema));
    const itemExample = successExample(spec.document, itemOperations.get('GET'));
    const seed = listExample.items.length > 0 ? listExample.items : isItem(itemExample) ? [itemExample] : [];
    const sample = isItem(itemExample) ? itemExample : seed[0];
    const idField = sample && Object.hasOwn(sample, idParam) ? idParam : 'id';
    const { [idField]: _id, ...template } = sample ?? {};
    const readItem = itemOperations.get('GET');
    const schemaPointer = readItem
      ? responseSchemaPointer(spec.document, readItem, selectResponse(readItem, {}).status, 'application/json')
      : undefined;
    const fingerprint = JSON.stringify([
      idField,
      seed,
      schemaPointer ? resolvePointer(spec.document, schemaPointer) : null,
    ]);
    const resource: Resource = {
      collection: store.define(spec.mount, { template: collectionPath || '/', idField, seed, fingerprint }),
      parentNames: parameterNames(collectionPath),
      idParam,
      idField,
      template,
      envelope: listExample.envelope,
      paging: pagingPlan(spec.document, list),
    };
    const kinds: Array<[OperationSpec | undefined, Kind]> = [
      [collectionOperations.get('GET'), 'list'],
      [collectionOperations.get('POST'), 'create'],
      [itemOperations.get('GET'), 'read'],
      [itemOperations.get('PUT'), 'replace'],
      [itemOperations.get('PATCH'), 'merge'],
      [itemOperations.get('DELETE'), 'remove'],
    ];
    for (const [operation, kind] of kinds) {
      if (operation) actions.set(operation, statefulAction(spec, operation, kind, resource, responses, log));
    }
  }
  return actions;
}

/** The body of a write as an item (the state holds JSON objects only). */
function bodyItem(request: FastifyRequest): Item {
  if (!isItem(request.body))
    throw httpError('BAD_REQUEST', ['A stateful resource stores JSON objects: send a JSON object body']);
  return request.body;
}

function statefulAction(
  spec: CompiledSpec,
  operation: OperationSpec,
  kind: Kind,
  resource: Resource,
  responses: ResponseValidator,
  log: Logger,
): StatefulAction {
  const { status, response } = selectResponse(operation, {});
  const offered = response?.mediaTypes.map((m) => m.mediaType) ?? [];
  const servesJson = offered.some(isJsonMediaType);
  return (request, reply, params) => {
    if (request.headers.prefer !== undefined) return false;
    const mediaType = servesJson ? negotiate(request.headers.accept, offered) : undefined;
    if (servesJson && (mediaType === undefined || !isJsonMediaType(mediaType))) return false;
    // Validation may have coerced the path values to their schema types in place.
    const collection = resource.collection(resource.parentNames.map((name) => String(params[name] ?? '')));
    const id = String(params[resource.idParam] ?? '');
    let value: unknown;
    let listed: { size: number; page: Page<unknown> } | undefined;
    if (kind === 'list') {
      const { size, start } = requestedPage(resource.paging, request.query as Record<string, unknown>);
      listed = { size, page: collection.page(size, start) };
      value = resource.envelope
        ? filledEnvelope(resource.envelope, resource.paging, size, listed.page)
        : listed.page.items;
    } else if (kind === 'create') value = collection.create({ ...resource.template, ...bodyItem(request) });
    else if (kind === 'read') value = collection.get(id);
    else if (kind === 'replace') value = collection.update(id, { ...resource.template, ...bodyItem(request) }, false);
    else if (kind === 'merge') value = collection.update(id, bodyItem(request), true);
    else value = collection.remove(id);
    reply.code(status);
    if (response && Object.keys(response.headers).length > 0) reply.headers(response.headers);
    // The created item's own URL, never the id of the spec's example Location.
    if (kind === 'create' && isObject(value))
      reply.header(
        'location',
        `${request.url.split('?')[0].replace(/\/$/, '')}/${encodeURIComponent(String(value[resource.idField]))}`,
      );
    if (listed) setPageHeaders(request, reply, resource.paging, listed.size, listed.page);
    // A response without content (204 of a delete) sends no body.
    const contentType = mediaType === undefined ? undefined : concreteMediaType(mediaType);
    const body = contentType === undefined ? undefined : value;
    reportViolations(
      reply,
      log,
      { spec: spec.file, method: request.method, url: request.url },
      responses.validate(operation, status, contentType, body, body !== undefined),
    );
    if (contentType !== undefined) reply.type(contentType);
    reply.send(body === undefined ? undefined : JSON.stringify(body));
    return true;
  };
}

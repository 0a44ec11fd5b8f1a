import { STATUS_CODES } from 'node:http';
import { isObject, wordTable } from '../../core/json.js';
import { dereference } from '../model/json-pointer.js';

/** What the mock knows about one of its own errors, to put into a body of the schema the spec declares. */
export interface ErrorFacts {
  status: number;
  /** The catalogue's code (`VALIDATION_FAILED`). */
  code: string;
  detail: string;
  /** The request's path, for an RFC 7807 `instance`. */
  path: string;
  /** Each fault of an invalid request. */
  errors?: ReadonlyArray<{ in: string; name: string; message: string }>;
}

type Schema = Record<string, unknown>;

/** What an error property holds, by its name: the words error schemas use (RFC 7807, Spring, Google, ...). */
type Slot = 'detail' | 'title' | 'code' | 'status' | 'errors' | 'instance';
const slots = wordTable<Slot>({
  detail: 'detail',
  message: 'detail',
  msg: 'detail',
  description: 'detail',
  errormessage: 'detail',
  errordescription: 'detail',
  reason: 'detail',
  title: 'title',
  error: 'title',
  summary: 'title',
  code: 'code',
  errorcode: 'code',
  status: 'status',
  statuscode: 'status',
  httpstatus: 'status',
  errors: 'errors',
  details: 'errors',
  violations: 'errors',
  issues: 'errors',
  invalidparams: 'errors',
  fielderrors: 'errors',
  validationerrors: 'errors',
  instance: 'instance',
  path: 'instance',
});

/** What a property of one fault of a request holds, by its name. */
type IssueSlot = 'where' | 'in' | 'message';
const issueSlots = wordTable<IssueSlot>({
  name: 'where',
  field: 'where',
  param: 'where',
  parameter: 'where',
  property: 'where',
  path: 'where',
  pointer: 'where',
  location: 'in',
  in: 'in',
  message: 'message',
  detail: 'message',
  description: 'message',
  reason: 'message',
  msg: 'message',
});

/** Nested error objects filled (`{error: {code, message}}`); deeper ones keep the example's values. */
const maxDepth = 3;

const wordOf = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

/** The schema `value` is or refers to; `undefined` when it is not a schema or does not resolve. */
function resolved(document: Schema, value: unknown): Schema | undefined {
  try {
    const found = dereference(document, value, '').value;
    return isObject(found) ? found : undefined;
  } catch {
    return undefined;
  }
}

/** The types a schema names (`type` as a word or a list); empty when it names none. */
function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

/** The object properties a schema declares, its `allOf` parts' included. */
function propertiesOf(document: Schema, schema: Schema, depth = 0): Record<string, unknown> {
  const own = isObject(schema.properties) ? schema.properties : {};
  if (!Array.isArray(schema.allOf) || depth > maxDepth) return own;
  const parts = schema.allOf.map((part) => resolved(document, part)).filter((part) => part !== undefined);
  return Object.assign({}, ...parts.map((part) => propertiesOf(document, part, depth + 1)), own) as Schema;
}

/** Whether a schema of these types can hold a value of JSON type `type` (an untyped schema holds anything). */
function holds(types: readonly string[], type: 'string' | 'integer' | 'array' | 'object'): boolean {
  if (types.length === 0) return true;
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** One fault of a request in the shape of `item` (a string, or an object with name, in and message fields). */
function issueValue(document: Schema, item: Schema | undefined, issue: NonNullable<ErrorFacts['errors']>[number]) {
  const where = issue.name ? `${issue.in}.${issue.name}` : issue.in;
  const types = item ? typesOf(item) : [];
  if (!item || (types.includes('string') && !types.includes('object'))) return `${where} ${issue.message}`;
  const values: Record<IssueSlot, string> = { where, in: issue.in, message: issue.message };
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(propertiesOf(document, item))) {
    const slot = issueSlots[wordOf(name)];
    const schema = resolved(document, raw);
    if (slot !== undefined && schema && holds(typesOf(schema), 'string')) out[name] = values[slot];
  }
  return out;
}

/** The value of one property of an error object, from `facts` by the property's name and type. */
function propertyValue(document: Schema, name: string, raw: unknown, facts: ErrorFacts, depth: number): unknown {
  const schema = resolved(document, raw);
  const slot = slots[wordOf(name)];
  if (!schema || slot === undefined) return undefined;
  const types = typesOf(schema);
  const asString = holds(types, 'string') && !types.includes('object');
  switch (slot) {
    case 'detail':
      return asString ? facts.detail : undefined;
    case 'instance':
      return asString ? facts.path : undefined;
    case 'title':
      if (asString) return STATUS_CODES[facts.status] ?? facts.code;
      // `{error: {code, message}}`: the error's fields one level down.
      return types.includes('object') ? errorValue(document, schema, facts, depth + 1) : undefined;
    case 'code':
    case 'status':
      if (types.includes('integer') || types.includes('number')) return facts.status;
      if (!asString) return undefined;
      return slot === 'code' ? facts.code : String(facts.status);
    case 'errors': {
      if (!facts.errors || !holds(types, 'array') || types.includes('object')) return undefined;
      const item = resolved(document, schema.items);
      return facts.errors.map((issue) => issueValue(document, item, issue));
    }
  }
}

/**
 * A value of `schema` made of the error's own facts: each property of an object schema whose name and type say
 * what it holds (`detail`/`message`, `title`, `code`, `status`, `errors`, `instance`, and an `error` object
 * holding them). `undefined` when the schema has room for none (a bare string says nothing of what it holds:
 * the response's example speaks for it).
 */
export function errorValue(document: Schema, schema: unknown, facts: ErrorFacts, depth = 0): unknown {
  const found = resolved(document, schema);
  if (!found || depth > maxDepth) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(propertiesOf(document, found))) {
    const value = propertyValue(document, name, raw, facts, depth);
    if (value !== undefined) out[name] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The JSON type of a value, as a schema names it. */
function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * A schema of the shape of an example object (its properties and their JSON types), for a response that gives an
 * example and no schema: `{detail: "invalid"}` then has room for the detail. `undefined` for any other example.
 */
export function exampleShape(example: unknown): Schema | undefined {
  if (!isObject(example)) return undefined;
  const properties = Object.entries(example).map(([name, value]) => [
    name,
    exampleShape(value) ?? { type: jsonType(value) },
  ]);
  return { type: 'object', properties: Object.fromEntries(properties) as Schema };
}

/** `fill` over `base`: objects merged key by key (the fill's values win), anything else replaced. */
function overlay(base: unknown, fill: unknown): unknown {
  if (!isObject(base) || !isObject(fill)) return fill;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(fill)) out[key] = overlay(base[key], value);
  return out;
}

/**
 * The body of an error answer: the error's facts (`fill`, from {@link errorValue}) over the response's example
 * (`base`: the author's, else one sampled from the schema), checked by `violations`. When the whole fill breaks
 * the schema (an enum, a pattern, a `const` the facts do not meet), its properties are put in one at a time and
 * each is kept only if it does not add violations; the violations left are returned with the body.
 */
export function fittedErrorBody<V>(
  base: unknown,
  fill: unknown,
  violations: (body: unknown) => V[],
): { body: unknown; violations: V[] } {
  const whole = fill === undefined ? base : overlay(base, fill);
  const found = violations(whole);
  if (found.length === 0 || !isObject(fill)) return { body: whole, violations: found };
  let body: unknown = isObject(base) ? base : {};
  let left = violations(body);
  for (const [key, value] of Object.entries(fill)) {
    const trial = overlay(body, { [key]: value });
    const trialViolations = violations(trial);
    if (trialViolations.length <= left.length) [body, left] = [trial, trialViolations];
  }
  return left.length < found.length ? { body, violations: left } : { body: whole, violations: found };
}

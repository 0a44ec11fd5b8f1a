import type { OperationSpec, ResponseSpec } from './spec/spec-types.js';

/** The client's `Prefer` header choices: `code=404`, `example=<name>`. */
export interface Preference {
  code?: number;
  example?: string;
}

/** Parses `Prefer: code=404, example=missing` (commas or semicolons between preferences). */
export function parsePrefer(header: string | string[] | undefined): Preference {
  const preference: Preference = {};
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return preference;
  for (const token of text.split(/[,;]/)) {
    const [key, ...rest] = token.trim().split('=');
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
    if (key.trim().toLowerCase() === 'code' && /^[1-5]\d\d$/.test(value)) preference.code = Number(value);
    if (key.trim().toLowerCase() === 'example' && value) preference.example = value;
  }
  return preference;
}

/** The response to serve and its HTTP status. */
export interface SelectedResponse {
  status: number;
  response?: ResponseSpec;
}

function responseFor(operation: OperationSpec, code: number): ResponseSpec | undefined {
  const exact = operation.responses.find((r) => r.key === String(code));
  return exact ?? operation.responses.find((r) => r.key === `${String(code)[0]}XX`) ?? operation.responses.find((r) => r.key === 'DEFAULT');
}

/**
 * Chooses the response: the one `Prefer: code=` names when the spec declares it (exactly, by class
 * such as `4XX`, or through `default`); else the lowest declared 2xx, then `2XX`, then `default` as 200,
 * then the lowest declared code of any class.
 */
export function selectResponse(operation: OperationSpec, preference: Preference): SelectedResponse {
  if (preference.code !== undefined) {
    const preferred = responseFor(operation, preference.code);
    if (preferred) return { status: preference.code, response: preferred };
  }
  const explicit = operation.responses.filter((r) => /^\d{3}$/.test(r.key)).sort((a, b) => Number(a.key) - Number(b.key));
  const success = explicit.find((r) => r.key.startsWith('2'));
  if (success) return { status: Number(success.key), response: success };
  const anySuccess = operation.responses.find((r) => r.key === '2XX') ?? operation.responses.find((r) => r.key === 'DEFAULT');
  if (anySuccess) return { status: 200, response: anySuccess };
  if (explicit[0]) return { status: Number(explicit[0].key), response: explicit[0] };
  const byClass = operation.responses[0];
  return byClass ? { status: Number(byClass.key[0]) * 100, response: byClass } : { status: 200 };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

/**
 * The body of a generated POST, PUT or PATCH: the request body merged over the example object
 * (request fields win). A non-object example or request is not merged: the request body is echoed
 * when the example is empty, else the example is served.
 */
export function echoMerge(example: unknown, requestBody: unknown): unknown {
  if (isPlainObject(example) && isPlainObject(requestBody)) return { ...example, ...requestBody };
  if (example === undefined && requestBody !== undefined && !Buffer.isBuffer(requestBody)) return requestBody;
  return example;
}

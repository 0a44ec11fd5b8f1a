import { httpError } from '../../core/errors.js';
import type { MediaExample, OperationSpec, ResponseSpec } from '../model/spec-types.js';

/**
 * The client's `Prefer` header choices: `code=404`, `example=<name>`, `dynamic=true`, `seed=42`,
 * `delay=250` (milliseconds).
 */
export interface Preference {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: number;
  delay?: number;
}

/**
 * What each known preference accepts; a value outside it is a 400 naming the preference. The mock's
 * `?__code=`-style query parameters read their values with the same readers.
 */
export const preferenceReaders: Record<
  string,
  { accepts: string; read: (value: string) => Partial<Preference> | undefined }
> = {
  code: {
    accepts: 'a status code from 100 to 599',
    read: (v) => (/^[1-5]\d\d$/.test(v) ? { code: Number(v) } : undefined),
  },
  example: { accepts: 'an example name', read: (v) => (v ? { example: v } : undefined) },
  dynamic: {
    accepts: 'true or false',
    read: (v) => (v === 'true' || v === 'false' ? { dynamic: v === 'true' } : undefined),
  },
  seed: {
    accepts: 'an integer from 0 to 4294967295',
    read: (v) => (/^\d{1,10}$/.test(v) && Number(v) <= 0xffffffff ? { seed: Number(v) } : undefined),
  },
  delay: {
    accepts: 'a delay in milliseconds (an integer)',
    read: (v) => (/^\d{1,9}$/.test(v) ? { delay: Number(v) } : undefined),
  },
};

/**
 * Parses `Prefer: code=404, example=missing` (commas or semicolons between preferences). Unknown
 * preferences are ignored (RFC 7240 §2); a known one with a value it does not accept throws a 400
 * `PREFER_INVALID` rather than being silently dropped.
 */
export function parsePrefer(header: string | string[] | undefined): Preference {
  const preference: Preference = {};
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return preference;
  for (const token of text.split(/[,;]/)) {
    const [rawKey, ...rest] = token.trim().split('=');
    const key = rawKey.trim().toLowerCase();
    if (!Object.hasOwn(preferenceReaders, key)) continue;
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    const reader = preferenceReaders[key];
    const read = reader.read(value);
    if (!read) throw httpError('PREFER_INVALID', [key, value, reader.accepts]);
    Object.assign(preference, read);
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
  return (
    exact ??
    operation.responses.find((r) => r.key === `${String(code)[0]}XX`) ??
    operation.responses.find((r) => r.key === 'DEFAULT')
  );
}

/**
 * Chooses the response: the one `Prefer: code=` names (exactly, by class such as `4XX`, or through
 * `default`; a 404 `PREFER_NOT_DECLARED` when the spec declares none of these); else the lowest declared 2xx, then
 * `2XX`, then `default` as 200,
 * then the lowest declared code of any class.
 */
export function selectResponse(operation: OperationSpec, preference: Preference): SelectedResponse {
  if (preference.code !== undefined) {
    const preferred = responseFor(operation, preference.code);
    if (preferred) return { status: preference.code, response: preferred };
    // As Prism does: an undeclared code is the client's mistake, not a reason to answer 200.
    const declared = operation.responses.map((r) => r.key.toLowerCase()).join(', ') || 'none';
    throw httpError('PREFER_NOT_DECLARED', [
      `Prefer: code=${preference.code} names a response ${operation.method} ${operation.path} does not declare ` +
        `(declared: ${declared})`,
    ]);
  }
  const explicit = operation.responses
    .filter((r) => /^\d{3}$/.test(r.key))
    .sort((a, b) => Number(a.key) - Number(b.key));
  const success = explicit.find((r) => r.key.startsWith('2'));
  if (success) return { status: Number(success.key), response: success };
  const anySuccess =
    operation.responses.find((r) => r.key === '2XX') ?? operation.responses.find((r) => r.key === 'DEFAULT');
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

/**
 * The example `Prefer: example=<name>` names, or `undefined` without one; a 404 `PREFER_NOT_DECLARED`
 * listing the names when the media type has no example of that name (as Prism answers).
 */
export function namedExample(media: MediaExample, preference: Preference, label: string): string | undefined {
  if (preference.example === undefined) return undefined;
  if (Object.hasOwn(media.named, preference.example)) return preference.example;
  const names = Object.keys(media.named);
  throw httpError('PREFER_NOT_DECLARED', [
    `Prefer: example=${preference.example} names no example of ${label} (examples: ` +
      `${names.length > 0 ? names.join(', ') : 'none'})`,
  ]);
}

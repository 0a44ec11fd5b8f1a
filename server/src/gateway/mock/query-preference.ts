import type { FastifyRequest } from 'fastify';
import { httpError } from '../../core/errors.js';
import { preferenceReaders, type Preference } from './example-responder.js';

/**
 * The query parameters a browser uses to choose the mock's answer where it cannot send `Prefer` (a page's
 * `fetch`, Swagger UI's Try it out), as Prism reads them: `?__code=404`, `?__example=missing`,
 * `?__dynamic=true`, `?__seed=42`. Each stands for the preference of the same name without the prefix.
 */
const controlNames: ReadonlyMap<string, string> = new Map(
  ['code', 'example', 'dynamic', 'seed'].map((key) => [`__${key}`, key]),
);

/** True when the URL's query string may hold a control parameter (a cheap test before any parsing). */
function mayHoldControl(url: string): boolean {
  const query = url.indexOf('?');
  return query !== -1 && url.includes('__', query);
}

/**
 * The preferences the request's control parameters give, or `undefined` without any. They are taken out of
 * `request.query`, so request validation and the stateful mock's filters never see them. A value the
 * preference does not accept, or a parameter given more than once, is a 400 `MOCK_QUERY_INVALID`.
 */
export function takeQueryPreference(request: FastifyRequest): Preference | undefined {
  if (!mayHoldControl(request.url)) return undefined;
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return undefined;
  let preference: Preference | undefined;
  for (const [name, key] of controlNames) {
    if (!Object.hasOwn(query, name)) continue;
    const value = query[name];
    delete query[name];
    const reader = preferenceReaders[key];
    if (typeof value !== 'string')
      throw httpError('MOCK_QUERY_INVALID', [name, String(value), `${reader.accepts}, given once`]);
    const read = reader.read(value);
    if (!read) throw httpError('MOCK_QUERY_INVALID', [name, value, reader.accepts]);
    preference = { ...preference, ...read };
  }
  return preference;
}

/**
 * The preferences of a query string (the text after `?`) that holds control parameters alone, each once, with values
 * the preferences accept: what {@link takeQueryPreference} reads from it. `undefined` for any other query string (an
 * operation's own parameter, a repeated or refused one, an escape, which only the server's query parser decodes):
 * such a request goes the server's way, which answers the refusals.
 */
export function controlPreference(query: string): Preference | undefined {
  if (query === '' || query.includes('%') || query.includes('+')) return undefined;
  const preference: Preference = {};
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const key = equals === -1 ? undefined : controlNames.get(pair.slice(0, equals));
    // Each reader gives the preference of its own key: one already there was given twice.
    if (key === undefined || Object.hasOwn(preference, key)) return undefined;
    const read = preferenceReaders[key].read(pair.slice(equals + 1));
    if (!read) return undefined;
    Object.assign(preference, read);
  }
  return preference;
}

/** Takes the control parameters out of `request.query` unread: a proxied request's choices are the upstream's. */
export function dropQueryControls(request: FastifyRequest): void {
  if (!mayHoldControl(request.url)) return;
  const query = request.query as Record<string, unknown> | undefined;
  for (const name of controlNames.keys()) if (query && Object.hasOwn(query, name)) delete query[name];
}

/** `url` without its control parameters: what a proxy forwards upstream. Other parameters keep their bytes. */
export function withoutControlParams(url: string): string {
  if (!mayHoldControl(url)) return url;
  const query = url.indexOf('?');
  const kept = url
    .slice(query + 1)
    .split('&')
    .filter((pair) => !controlNames.has(decodedName(pair)));
  return kept.length === 0 ? url.slice(0, query) : `${url.slice(0, query)}?${kept.join('&')}`;
}

function decodedName(pair: string): string {
  const name = pair.split('=', 1)[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

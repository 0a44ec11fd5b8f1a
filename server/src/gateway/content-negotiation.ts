/** Accept-header negotiation and body serialisation by media type. */

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().split(';');
    const [type, subtype] = range.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key?.trim().toLowerCase() === 'q') q = Number(value);
    }
    if (Number.isFinite(q) && q > 0) ranges.push({ type, subtype, q });
  }
  const specificity = (r: MediaRange) => (r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2);
  return ranges.sort((a, b) => b.q - a.q || specificity(b) - specificity(a));
}

const baseType = (mediaType: string) => mediaType.split(';')[0].trim().toLowerCase();

function matches(range: MediaRange, offered: string): boolean {
  const [type, subtype] = baseType(offered).split('/');
  if (type === '*' || range.type === '*') return true;
  if (range.type !== type) return false;
  return range.subtype === '*' || subtype === '*' || range.subtype === subtype;
}

/** True for JSON media types: `application/json`, `application/problem+json`, `*\/*` and the like. */
export function isJsonMediaType(mediaType: string): boolean {
  const base = baseType(mediaType);
  return base === '*/*' || base === 'application/*' || /^application\/([\w.-]+\+)?json$/.test(base);
}

/**
 * Picks the offered media type that best fits `accept`. With no Accept header, or one that takes
 * anything, JSON is preferred. Returns `undefined` when nothing offered is acceptable (406).
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): string | undefined {
  if (offered.length === 0) return undefined;
  const preferred = offered.find(isJsonMediaType) ?? offered[0];
  if (!accept || accept.trim() === '') return preferred;
  for (const range of parseAccept(accept)) {
    if (range.type === '*' && range.subtype === '*') return preferred;
    const hit = offered.find((o) => matches(range, o));
    if (hit) return hit;
  }
  return undefined;
}

/** True when the request's Content-Type is one of the declared media types (wildcards allowed). */
export function findDeclaredMediaType(contentType: string, declared: readonly string[]): string | undefined {
  const [type, subtype] = baseType(contentType).split('/');
  return declared.find((d) => matches({ type: type ?? '', subtype: subtype ?? '', q: 1 }, d));
}

/** The Content-Type to send for a declared media type: wildcards become concrete types. */
export function concreteMediaType(mediaType: string): string {
  const base = baseType(mediaType);
  if (base === '*/*' || base === 'application/*') return 'application/json';
  if (base === 'text/*') return 'text/plain';
  return mediaType;
}

/** Serialises an example for a media type: JSON for JSON types and structured values, text otherwise. */
export function serialize(mediaType: string, value: unknown): string {
  if (!isJsonMediaType(mediaType) && typeof value === 'string') return value;
  if (!isJsonMediaType(mediaType) && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  return JSON.stringify(value) ?? '';
}

import { probePaths, routeAreas, type RouteAccess } from '../core/routes.js';

/**
 * The path rule: which requests need credentials by their path alone. It is the second line of defence:
 * the authentication hook applies it to a request no route matched (a route declares its own access,
 * see core/routes.ts), so that a 404 tells an unauthenticated caller no more than the route would. The
 * decision is taken on every way the router or an upstream could read the path (raw, percent-decoded,
 * slashes collapsed, dot segments resolved, lower case), and a request is protected when ANY reading
 * falls under a protected area: `//api/adaptive`, `%2e%2e`, encoded slashes or upper case never turn a
 * protected request into an open one.
 */

const areas = Object.values(routeAreas);
const protectedPrefixes = areas.filter((area) => area.access === 'protected').map((area) => area.prefix);
const optionalPrefixes = areas.filter((area) => area.access === 'optional').map((area) => area.prefix);

/**
 * The orchestrator probes stay open, but only when the path is exactly theirs: an exemption never
 * depends on normalisation, so no encoded variant of another path can borrow it.
 */
const openProbePaths = new Set(Object.values(probePaths).flatMap((probe) => [probe, `${probe}/`]));

/** A path with nothing to normalise: no escapes, no dot segments, no doubled or back slashes. */
const plainPath = /^(?:\/[A-Za-z0-9_~!$&'()*+,=:@-]+(?:\.[A-Za-z0-9_~!$&'()*+,=:@-]+)*)*\/?$/;

function decodeBytes(path: string): string {
  return path.replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The path as a lenient server would see it: escapes decoded (up to three rounds, for double encoding),
 * backslashes as slashes, empty and `.` segments dropped, `..` resolved, matrix parameters (`;x`) cut,
 * lower case.
 */
export function normalisePath(path: string): string {
  let decoded = path;
  for (let round = 0; round < 3; round++) {
    const next = decodeBytes(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  const segments: string[] = [];
  for (const raw of decoded.replace(/\\/g, '/').toLowerCase().split('/')) {
    const segment = raw.split(';')[0].trim();
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** Every reading of the request target's path that some component could act on; null when unreadable. */
function pathReadings(url: string): string[] | null {
  let target = url;
  if (!target.startsWith('/')) {
    // Absolute form (`GET http://host/api/... HTTP/1.1`).
    try {
      target = new URL(target).pathname;
    } catch {
      return null;
    }
  }
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  if (plainPath.test(path)) return [path.toLowerCase()];
  const readings = [path.toLowerCase(), normalisePath(path)];
  const fragment = path.indexOf('#');
  if (fragment !== -1) readings.push(normalisePath(path.slice(0, fragment)));
  return readings;
}

/**
 * Classifies a request for the authentication hook. CORS preflights (`OPTIONS` with
 * `Access-Control-Request-Method`) carry no credentials by design and are public; a request target that
 * cannot be read as a path is protected.
 */
export function classifyRequest(method: string, url: string, isPreflight: boolean): RouteAccess {
  const query = url.indexOf('?');
  const rawPath = query === -1 ? url : url.slice(0, query);
  if ((method === 'GET' || method === 'HEAD') && openProbePaths.has(rawPath)) return 'public';
  const readings = pathReadings(url);
  if (readings === null || readings.some((path) => protectedPrefixes.some((prefix) => path.startsWith(prefix)))) {
    return isPreflight && method === 'OPTIONS' ? 'public' : 'protected';
  }
  if (readings.some((path) => optionalPrefixes.some((prefix) => path.startsWith(prefix)))) return 'optional';
  return 'public';
}

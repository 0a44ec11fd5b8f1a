import { describe, expect, it } from 'vitest';
import { RouteTable, type HttpMethod, type RouteEntry, type WorkspaceUnit } from './route-table.js';

const route = (file: string, source: RouteEntry['source'], method: HttpMethod, path: string): RouteEntry => ({
  method,
  path,
  source,
  file,
  operation: {},
  handle: () => undefined,
});

/** A unit of `kind` from `file` with routes given as `METHOD /path`. */
function unit(kind: WorkspaceUnit['kind'], file: string, ...routes: string[]): WorkspaceUnit {
  return {
    kind,
    file,
    mount: file.replace(/\..*$/, ''),
    warnings: [],
    routes: routes.map((r) => {
      const [method, path] = r.split(' ');
      return route(file, kind, method as HttpMethod, path);
    }),
  };
}

/** Where `table` sends `method path`: the matched route as `file METHOD /template {params}`, or the kind of miss. */
function where(table: RouteTable, method: string, path: string): string {
  const match = table.match(method, path);
  if (match.kind === 'route')
    return `${match.entry.file} ${match.entry.method} ${match.entry.path} ${JSON.stringify(match.params)}`;
  return match.kind === 'method-not-allowed' ? `405 ${match.allowed.join(',')}` : 'none';
}

const books = unit('spec', 'books.yaml', 'GET /books/{bookId}', 'GET /books/stats', 'POST /books');
const tenants = unit('spec', 'tenants.yaml', 'GET /{tenant}/books/{id}', 'DELETE /{tenant}/items');
const shops = unit('spec', 'shops.yaml', 'GET /shops', 'PUT /shops/{shopId}');

describe('RouteTable', () => {
  it('matches by first segment: a literal first segment beats a templated one, which still serves the rest', () => {
    const table = new RouteTable([books, tenants, shops]);
    expect(where(table, 'GET', '/books/stats')).toBe('books.yaml GET /books/stats {}');
    expect(where(table, 'GET', '/books/7')).toBe('books.yaml GET /books/{bookId} {"bookId":"7"}');
    expect(where(table, 'HEAD', '/books/7/')).toBe('books.yaml GET /books/{bookId} {"bookId":"7"}');
    // `/books/...` has no literal route of three segments: the templated first segment serves it.
    expect(where(table, 'GET', '/books/books/3')).toBe(
      'tenants.yaml GET /{tenant}/books/{id} {"tenant":"books","id":"3"}',
    );
    expect(where(table, 'GET', '/acme/books/3')).toBe(
      'tenants.yaml GET /{tenant}/books/{id} {"tenant":"acme","id":"3"}',
    );
    expect(where(table, 'GET', '/shops')).toBe('shops.yaml GET /shops {}');
  });

  it('a table of one segment serves it alone, literal or templated', () => {
    const literal = new RouteTable([books]);
    expect(where(literal, 'GET', '/books/7')).toBe('books.yaml GET /books/{bookId} {"bookId":"7"}');
    expect(where(literal, 'GET', '/shops/books/7')).toBe('none');
    expect(where(literal, 'PUT', '/books')).toBe('405 POST');
    const templated = new RouteTable([tenants]);
    expect(where(templated, 'GET', '/books/books/7')).toBe(
      'tenants.yaml GET /{tenant}/books/{id} {"tenant":"books","id":"7"}',
    );
    expect(where(templated, 'GET', '/acme/items')).toBe('405 DELETE');
  });

  it('answers 405 with the methods of both the literal and the templated first segment, else none', () => {
    const table = new RouteTable([books, tenants, shops]);
    expect(where(table, 'DELETE', '/books')).toBe('405 POST');
    expect(where(table, 'GET', '/shops/items')).toBe('405 PUT,DELETE');
    expect(where(table, 'GET', '/nowhere/at/all')).toBe('none');
    expect(where(table, 'GET', '/')).toBe('none');
    expect(where(table, 'GET', '')).toBe('none');
  });

  it('decodes an encoded first segment as the router does; a malformed or slashed one matches no literal', () => {
    const table = new RouteTable([books, shops]);
    expect(where(table, 'GET', '/b%6Foks/stats')).toBe('books.yaml GET /books/stats {}');
    expect(where(table, 'GET', '/sh%E0%A4%A/x')).toBe('none');
    expect(where(table, 'GET', '/books%2Fstats')).toBe('none');
  });

  it('rebuilds only the segments whose units changed, and matches as a table built from scratch', () => {
    const first = new RouteTable([books, tenants, shops]);
    expect(first.rebuiltSegments).toEqual(['books', '{templated}', 'shops']);
    const changedShops = unit('spec', 'shops.yaml', 'GET /shops', 'PATCH /shops/{shopId}');
    const second = new RouteTable([books, tenants, changedShops], first);
    expect(second.rebuiltSegments).toEqual(['shops']);
    const fresh = new RouteTable([books, tenants, changedShops]);
    for (const [method, path] of [
      ['PATCH', '/shops/1'],
      ['PUT', '/shops/1'],
      ['GET', '/books/stats'],
      ['GET', '/x/books/1'],
    ])
      expect(where(second, method, path)).toBe(where(fresh, method, path));
    expect(where(second, 'PUT', '/shops/1')).toBe('405 PATCH');
    expect(second.entries).toEqual(fresh.entries);
    // A unit gone: its segment is gone, the others are kept.
    const third = new RouteTable([books, changedShops], second);
    expect(third.rebuiltSegments).toEqual([]);
    expect(where(third, 'GET', '/x/books/1')).toBe('none');
  });

  it('a handler route overrides the spec route of its segment, which alone is rebuilt', () => {
    const first = new RouteTable([books, shops]);
    const handler = unit('handler', 'books_handler.py', 'GET /books/stats', 'GET /books/new');
    const second = new RouteTable([books, shops, handler], first);
    expect(second.rebuiltSegments).toEqual(['books']);
    expect(where(second, 'GET', '/books/stats')).toBe('books_handler.py GET /books/stats {}');
    const [override] = [...second.overridden];
    expect(override[0].file).toBe('books_handler.py');
    expect(override[1].file).toBe('books.yaml');
    expect(second.entries.map((e) => `${e.file} ${e.path}`)).toContain('books_handler.py /books/new');
  });

  it('finds a parameterless path as the router does, by its exact form or any other the router accepts', () => {
    const files = unit('spec', 'files.yaml', 'GET /files:batch', 'GET /files/{id}', 'GET /files/~me');
    const table = new RouteTable([books, tenants, shops, files]);
    expect(where(table, 'GET', '/books/stats')).toBe('books.yaml GET /books/stats {}');
    expect(where(table, 'GET', '/books/stats/')).toBe('books.yaml GET /books/stats {}');
    expect(where(table, 'GET', '/books/st%61ts')).toBe('books.yaml GET /books/stats {}');
    expect(where(table, 'HEAD', '/books/stats')).toBe('books.yaml GET /books/stats {}');
    expect(where(table, 'GET', '/Books/stats')).toBe('none');
    expect(where(table, 'POST', '/books/stats')).toBe('405 GET');
    expect(where(table, 'GET', '/files:batch')).toBe('files.yaml GET /files:batch {}');
    expect(where(table, 'GET', '/files/~me')).toBe('files.yaml GET /files/~me {}');
    expect(where(table, 'GET', '/files/~you')).toBe('files.yaml GET /files/{id} {"id":"~you"}');
  });

  it('reports a clash within a segment on every table, also one that reuses the segment', () => {
    const clash = unit('spec', 'more-books.yaml', 'GET /books/{id}');
    const first = new RouteTable([books, clash, shops]);
    const reasons = first.conflicts.map((c) => `${c.entry.file}: ${c.reason}`);
    expect(reasons).toEqual(['more-books.yaml: GET /books/{id} is already defined by books.yaml']);
    const second = new RouteTable([books, clash, unit('spec', 'shops.yaml', 'GET /shops')], first);
    expect(second.rebuiltSegments).toEqual(['shops']);
    expect(second.conflicts.map((c) => `${c.entry.file}: ${c.reason}`)).toEqual(reasons);
    expect(where(second, 'GET', '/books/1')).toBe('books.yaml GET /books/{bookId} {"bookId":"1"}');
  });
});

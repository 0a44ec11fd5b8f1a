import { Writable } from 'node:stream';

/** A spec with a path parameter, served at `/api/adaptive/shop`: what the observability tests call. */
export const shopSpec = `openapi: 3.0.3
info: { title: shop, version: '1' }
servers: [{ url: /api/adaptive/shop }]
paths:
  /items/{itemId}:
    get:
      parameters: [{ name: itemId, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: one item
          content: { application/json: { example: { id: x } } }
`;

/** The template the route label of {@link shopSpec}'s route must carry. */
export const shopItemRoute = '/api/adaptive/shop/items/{itemId}';

/** A logger destination that parses every JSON line it is sent into `lines`. */
export function lineSink(lines: Record<string, unknown>[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
}

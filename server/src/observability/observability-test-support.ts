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

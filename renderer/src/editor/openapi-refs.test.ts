import { describe, expect, it } from 'vitest';
import { brokenLocalRefs } from './openapi-refs.js';

const spec = (ref: string) => `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /orders:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: '${ref}'
components:
  schemas:
    Order: {type: object, example: {$ref: '#/only/data'}}
x-notes: {$ref: '#/not/checked'}
`;

describe('brokenLocalRefs', () => {
  it('flags a local $ref that points at nothing, at its $ref entry', () => {
    expect(brokenLocalRefs(spec('#/components/schemas/Ordr'))).toEqual([
      {
        message: '$ref "#/components/schemas/Ordr" does not resolve: there is no "Ordr" in #/components/schemas',
        line: 12,
        column: 17,
        endLine: 12,
        endColumn: 50,
      },
    ]);
  });

  it('accepts resolving refs, refs in examples and extensions, other files and anchors', () => {
    expect(brokenLocalRefs(spec('#/components/schemas/Order'))).toEqual([]);
    expect(brokenLocalRefs(spec('common.yaml#/Nowhere'))).toEqual([]);
    expect(brokenLocalRefs(spec('#anchor'))).toEqual([]);
  });

  it('reads JSON, and gives nothing for a text that does not parse', () => {
    const json = JSON.stringify({
      openapi: '3.1.0',
      components: { schemas: { A: { $ref: '#/components/schemas/B' } } },
    });
    expect(brokenLocalRefs(json)).toMatchObject([{ line: 1, message: expect.stringContaining('no "B"') }]);
    expect(brokenLocalRefs('paths: [oops\n  bad: :')).toEqual([]);
  });
});

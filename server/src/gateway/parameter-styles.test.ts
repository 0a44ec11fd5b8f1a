import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';
import { shapeQuery, shapeSimple } from './parameter-styles.js';
import type { ParameterSpec } from './model/spec-types.js';

const query = (name: string, extra: Partial<ParameterSpec> = {}): ParameterSpec => ({
  name,
  in: 'query',
  required: true,
  ...extra,
});

describe('shapeQuery', () => {
  it('assembles an exploded form object from its property keys', () => {
    const pagination = query('pagination', { shape: 'object', properties: ['offset', 'limit'] });
    expect(shapeQuery([pagination, query('q')], { offset: '1', limit: '2', q: 'x', other: 'y' })).toEqual({
      offset: '1',
      limit: '2',
      q: 'x',
      other: 'y',
      pagination: { offset: '1', limit: '2' },
    });
  });
  it('a free-form exploded object takes the keys no other parameter declares', () => {
    expect(shapeQuery([query('filter', { shape: 'object' }), query('q')], { q: 'x', a: '1' }).filter).toEqual({
      a: '1',
    });
  });
  it('leaves an exploded object absent when none of its keys is sent (required still fails)', () => {
    expect(
      shapeQuery([query('pagination', { shape: 'object', properties: ['offset'] })], { x: '1' }),
    ).not.toHaveProperty('pagination');
  });
  it('reads non-exploded form objects and arrays, and delimited arrays', () => {
    const parameters = [
      query('pagination', { shape: 'object', explode: false }),
      query('ids', { shape: 'array', explode: false }),
      query('words', { shape: 'array', style: 'spaceDelimited', explode: false }),
      query('pipes', { shape: 'array', style: 'pipeDelimited', explode: false }),
    ];
    expect(
      shapeQuery(parameters, { pagination: 'offset,0,limit,123', ids: '1,2', words: 'a b', pipes: 'x|y' }),
    ).toEqual({
      pagination: { offset: '0', limit: '123' },
      ids: ['1', '2'],
      words: ['a', 'b'],
      pipes: ['x', 'y'],
    });
  });
  it('keeps an odd-length object list as sent, for the validator to reject', () => {
    expect(shapeQuery([query('p', { shape: 'object', explode: false })], { p: 'a,1,b' }).p).toBe('a,1,b');
  });
  it('assembles deepObject parameters', () => {
    expect(
      shapeQuery([query('filter', { shape: 'object', style: 'deepObject' })], {
        'filter[color]': 'red',
        'filter[size]': 'L',
        q: '1',
      }).filter,
    ).toEqual({ color: 'red', size: 'L' });
  });
  it('leaves exploded arrays (repeated keys) and scalars alone', () => {
    expect(shapeQuery([query('ids', { shape: 'array' }), query('n')], { ids: ['1', '2'], n: '5' })).toEqual({
      ids: ['1', '2'],
      n: '5',
    });
  });
  it('a __proto__ key stays a plain key', () => {
    const shaped = shapeQuery(
      [query('filter', { shape: 'object' })],
      JSON.parse('{"__proto__": "x", "a": "1"}') as Record<string, unknown>,
    );
    expect(Object.keys(shaped.filter as object)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });
});

describe('shapeSimple', () => {
  it('splits simple-style path and header arrays and objects', () => {
    const ids: ParameterSpec = { name: 'ids', in: 'path', required: true, shape: 'array' };
    const header: ParameterSpec = { name: 'X-Point', in: 'header', required: true, shape: 'object', explode: true };
    expect(shapeSimple([ids], 'path', { ids: '1,2,3' })).toEqual({ ids: ['1', '2', '3'] });
    expect(shapeSimple([header], 'header', { 'x-point': 'x=1,y=2', other: 'v' })).toEqual({
      'x-point': { x: '1', y: '2' },
      other: 'v',
    });
  });
  it('returns the values unchanged when no parameter is a container', () => {
    const values = { id: '1' };
    expect(shapeSimple([{ name: 'id', in: 'path', required: true }], 'path', values)).toBe(values);
  });
});

const spec =
  `openapi: 3.0.3
info: {title: styles, version: '1'}
servers: [{url: /api/adaptive/styles}]
paths:
  /recipes:
    get:
      parameters:
        - name: pagination
          in: query
          required: true
          schema: {$ref: '#/components/schemas/Page'}
      responses: {'200': {description: ok}}
  /compact:
    get:
      parameters:
        - {name: pagination, in: query, required: true, style: form, explode: false, schema: {$ref: ` +
  `'#/components/schemas/Page'}}
        - {name: ids, in: query, explode: false, schema: {type: array, items: {type: integer}}}
        - {name: X-Tags, in: header, schema: {type: array, items: {type: string, enum: [a, b]}}}
      responses: {'200': {description: ok}}
  /deep:
    get:
      parameters:
        - {name: filter, in: query, style: deepObject, required: true, schema: {type: object, properties: ` +
  `{size: {type: integer}}}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Page:
      type: object
      properties: {offset: {type: integer}, limit: {type: integer, maximum: 100}}
`;

describe('styled parameters through the gateway', () => {
  let workspace: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    workspace = makeWorkspace({ 'specs/styles.openapi.yaml': spec });
    app = await startServer(workspace);
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `/api/adaptive/styles${url}`, headers });

  it('accepts an exploded form object spread over the query and still validates its properties', async () => {
    expect((await get('/recipes?offset=1&limit=20')).statusCode).toBe(200);
    const tooMany = await get('/recipes?offset=1&limit=500');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors[0]).toMatchObject({ in: 'query', name: 'pagination' });
    expect((await get('/recipes')).statusCode).toBe(400);
  });
  it('accepts non-exploded objects and arrays and simple-style header arrays', async () => {
    expect((await get('/compact?pagination=offset,0,limit,5&ids=1,2,3', { 'x-tags': 'a,b' })).statusCode).toBe(200);
    expect((await get('/compact?pagination=offset,0,limit,5&ids=1,x')).statusCode).toBe(400);
    expect((await get('/compact?pagination=offset,0,limit,5', { 'x-tags': 'a,c' })).statusCode).toBe(400);
  });
  it('accepts deepObject parameters', async () => {
    expect((await get('/deep?filter[size]=3')).statusCode).toBe(200);
    expect((await get('/deep?filter[size]=big')).statusCode).toBe(400);
  });
});

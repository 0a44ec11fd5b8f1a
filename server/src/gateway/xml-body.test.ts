import type { FastifyInstance } from 'fastify';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';
import { isXmlMediaType, toXml } from './xml-body.js';

const pet = {
  type: 'object',
  required: ['id', 'name', 'tags'],
  xml: { name: 'pet', namespace: 'urn:pets', prefix: 'p' },
  properties: {
    id: { type: 'integer', minimum: 1, xml: { attribute: true } },
    name: { type: 'string', xml: { name: 'petName' } },
    tags: { type: 'array', xml: { wrapped: true, name: 'tagList' }, items: { type: 'string', xml: { name: 'tag' } } },
    photos: { type: 'array', items: { type: 'string', xml: { name: 'photo' } } },
  },
};
const example = { id: 7, name: 'Rex & co', tags: ['good', 'dog'], photos: ['a.png', 'b.png'] };
const spec = {
  openapi: '3.0.3',
  info: { title: 'pets', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'one',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Pet' }, example },
              'application/xml': { schema: { $ref: '#/components/schemas/Pet' }, example },
              'text/plain': { example: 'plain' },
            },
          },
        },
      },
    },
    '/plain': {
      get: {
        responses: {
          '200': {
            description: 'no hints',
            content: { 'application/vnd.thing+xml': { example: { id: 1, name: 'x' } } },
          },
        },
      },
    },
  },
  components: { schemas: { Pet: pet } },
};

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

let app: FastifyInstance;
let workspace: string;
let base: string;
beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/pets.json': JSON.stringify(spec) });
  app = await startServer(workspace);
  base = (await app.listen({ host: '127.0.0.1', port: 0 })) + '/api/adaptive/pets';
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

const xmlOf = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(base + path, { headers: { accept: 'application/xml', ...headers } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/xml/);
  return parser.parse(await response.text()) as Record<string, Record<string, unknown>>;
};

describe('XML answers follow the schema xml hints', () => {
  it('writes the example with name, attribute, wrapped and unwrapped arrays, namespace and prefix', async () => {
    const parsed = await xmlOf('/pets/7');
    expect(parsed['p:pet']).toEqual({
      '@xmlns:p': 'urn:pets',
      '@id': '7',
      petName: 'Rex & co',
      tagList: { tag: ['good', 'dog'] },
      photo: ['a.png', 'b.png'],
    });
  });

  it('writes generated values the same way, and they keep the schema', async () => {
    for (let i = 0; i < 5; i++) {
      const parsed = (await xmlOf('/pets/7', { prefer: 'dynamic=true' }))['p:pet'];
      expect(Number(parsed['@id'])).toBeGreaterThanOrEqual(1);
      expect(typeof parsed.petName).toBe('string');
      expect(Object.keys(parsed)).not.toContain('tags');
    }
  });

  it('still answers JSON and text for their media types, and names an unhinted root xml', async () => {
    expect(await (await fetch(`${base}/pets/7`)).json()).toEqual(example);
    expect(await (await fetch(`${base}/pets/7`, { headers: { accept: 'text/plain' } })).text()).toBe('plain');
    const plain = await fetch(`${base}/plain`, { headers: { accept: 'application/vnd.thing+xml' } });
    expect(parser.parse(await plain.text())).toEqual({ xml: { id: '1', name: 'x' } });
  });
});

describe('toXml', () => {
  it('escapes text, stops following a recursive $ref, and writes arrays at the root as items', () => {
    const document = {
      components: {
        schemas: { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } },
      },
    };
    let deep: Record<string, unknown> = { text: '<a>' };
    for (let i = 0; i < 40; i++) deep = { child: deep };
    const text = toXml(deep, document, '#/components/schemas/Node');
    expect(text).toContain('<text>&lt;a&gt;</text>');
    for (let i = 0; i < 60; i++) deep = { child: deep };
    expect(() => toXml(deep, document, '#/components/schemas/Node')).toThrow(/nested deeper than 48 levels/);
    expect(toXml([1, 2], {}, undefined)).toBe('<xml><item>1</item><item>2</item></xml>');
  });

  it('knows XML media types', () => {
    for (const type of ['application/xml', 'text/xml; charset=utf-8', 'application/atom+xml'])
      expect(isXmlMediaType(type)).toBe(true);
    for (const type of ['application/json', 'text/plain', 'application/xmlish'])
      expect(isXmlMediaType(type)).toBe(false);
  });
});

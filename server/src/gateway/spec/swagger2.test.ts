import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeWorkspace, serverForTests } from '../../test-support/workspace.js';

/** A Swagger 2.0 petstore: a body parameter, a response with a schema and an example, a $ref to definitions. */
const petstore = `swagger: "2.0"
info: {title: Petstore, version: "1.0.0"}
basePath: /v1
produces: [application/json]
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: limit, in: query, type: integer, maximum: 100}
      responses:
        "200":
          description: the pets
          schema: {type: array, items: {$ref: "#/definitions/Pet"}}
          examples:
            application/json: [{id: 1, name: Rex, tag: dog}]
    post:
      operationId: createPet
      consumes: [application/json]
      parameters:
        - {name: pet, in: body, required: true, schema: {$ref: "#/definitions/Pet"}}
      responses:
        "201": {description: created, schema: {$ref: "#/definitions/Pet"}}
  /pets/{petId}:
    get:
      parameters:
        - {name: petId, in: path, required: true, type: integer}
      responses:
        "200": {description: one pet, schema: {$ref: "#/definitions/Pet"}}
definitions:
  Pet:
    type: object
    required: [id, name]
    properties:
      id: {type: integer}
      name: {type: string}
      tag: {type: string}
`;

describe('a Swagger 2.0 document', () => {
  const server = serverForTests(() => makeWorkspace({ 'specs/petstore.yaml': petstore }));
  const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ url, headers });

  it('is converted and served: its example, dynamic data from its schemas, and request validation', async () => {
    const list = await get('/api/adaptive/petstore/pets');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([{ id: 1, name: 'Rex', tag: 'dog' }]);
    const one = await get('/api/adaptive/petstore/pets/7', { prefer: 'dynamic=true' });
    expect(one.statusCode).toBe(200);
    const pet = new Ajv().compile(parse(petstore).definitions.Pet);
    expect(pet(one.json()), JSON.stringify(pet.errors)).toBe(true);
    expect((await get('/api/adaptive/petstore/pets?limit=1000')).statusCode).toBe(400);
    const created = await server.app.inject({ method: 'POST', url: '/api/adaptive/petstore/pets', payload: {} });
    expect(created.statusCode).toBe(400);
  });

  it('appears in the merged OpenAPI document the docs show', async () => {
    const document = (await get('/api/adaptive/openapi.json')).json();
    expect(document.paths['/petstore/pets'].get.responses['200'].content['application/json'].schema).toBeDefined();
    expect(document.paths['/petstore/pets'].post.requestBody).toBeDefined();
  });
});

import fs from 'node:fs';
import path from 'node:path';

/**
 * Deterministic OpenAPI specs for large-workspace tests and the benchmark: each spec has `paths` path
 * templates (half collections with GET and POST, half items with GET, PUT and DELETE), path and query
 * parameters, request bodies, and `$ref`s to ten component schemas that refer to each other.
 * `revision` changes every spec's text and its examples' `name` (`Example r1`) without changing its routes.
 */
export function generatedSpec(index: number, paths: number, revision = 0): string {
  const name = specName(index);
  const lines = [
    'openapi: 3.0.3',
    'info:',
    `  title: Generated service ${index}`,
    `  version: 1.0.${revision}`,
    `  description: Revision ${revision} of a generated service with ${paths} paths.`,
    'paths:',
  ];
  for (let p = 0; p < paths; p++) {
    const schema = `Resource${p % 10}`;
    const collection = `/${name}-res${Math.floor(p / 2)}`;
    if (p % 2 === 0) lines.push(...collectionPath(collection, schema));
    else lines.push(...itemPath(`${collection}/{id}`, schema));
  }
  lines.push('components:', '  parameters:', ...limitParameter(), '  schemas:');
  for (let s = 0; s < 10; s++) lines.push(...resourceSchema(s, revision));
  return lines.join('\n') + '\n';
}

/** The file name of generated spec `index`: `svc-007.yaml`. */
export const specName = (index: number) => `svc-${String(index).padStart(3, '0')}`;

function requestBody(ref: string): string[] {
  return [
    '      requestBody:',
    '        required: true',
    `        content: { application/json: { schema: { $ref: '${ref}' } } }`,
  ];
}

function collectionPath(template: string, schema: string): string[] {
  const ref = `#/components/schemas/${schema}`;
  return [
    `  ${template}:`,
    '    get:',
    `      operationId: list${template.replace(/\W/g, '_')}`,
    '      parameters:',
    "        - $ref: '#/components/parameters/Limit'",
    '        - name: cursor',
    '          in: query',
    '          schema: { type: string, maxLength: 64 }',
    '      responses:',
    "        '200':",
    '          description: A page of resources',
    `          content: { application/json: { schema: { type: array, items: { $ref: '${ref}' } } } }`,
    '    post:',
    `      operationId: create${template.replace(/\W/g, '_')}`,
    ...requestBody(ref),
    '      responses:',
    "        '201':",
    '          description: Created',
    `          content: { application/json: { schema: { $ref: '${ref}' } } }`,
    "        '400': { description: Invalid }",
  ];
}

function itemPath(template: string, schema: string): string[] {
  const ref = `#/components/schemas/${schema}`;
  const one = `          content: { application/json: { schema: { $ref: '${ref}' } } }`;
  return [
    `  ${template}:`,
    '    parameters:',
    '      - name: id',
    '        in: path',
    '        required: true',
    '        schema: { type: integer, minimum: 1 }',
    '    get:',
    '      responses:',
    "        '200':",
    '          description: One resource',
    one,
    "        '404': { description: Not found }",
    '    put:',
    ...requestBody(ref),
    '      responses:',
    "        '200':",
    '          description: Replaced',
    one,
    '    delete:',
    '      parameters:',
    '        - name: X-Request-Id',
    '          in: header',
    '          schema: { type: string, format: uuid }',
    '      responses:',
    "        '204': { description: Deleted }",
  ];
}

function limitParameter(): string[] {
  return [
    '    Limit:',
    '      name: limit',
    '      in: query',
    '      schema: { type: integer, minimum: 1, maximum: 100, default: 20 }',
  ];
}

function resourceSchema(s: number, revision: number): string[] {
  return [
    `    Resource${s}:`,
    '      type: object',
    '      required: [name, kind]',
    '      properties:',
    '        id: { type: integer, format: int64, readOnly: true, example: 42 }',
    `        name: { type: string, minLength: 1, maxLength: 80, example: Example r${revision} }`,
    '        kind: { type: string, enum: [alpha, beta, gamma] }',
    '        tags: { type: array, items: { type: string }, maxItems: 10 }',
    '        createdAt: { type: string, format: date-time }',
    `        related: { $ref: '#/components/schemas/Resource${(s + 1) % 10}Summary' }`,
    `    Resource${s}Summary:`,
    '      type: object',
    '      properties:',
    '        id: { type: integer }',
    '        label: { type: string }',
  ];
}

/** Writes `specs` generated specs of `paths` paths each into `dir`; returns their file paths. */
export function writeGeneratedSpecs(dir: string, specs: number, paths: number, revision = 0): string[] {
  fs.mkdirSync(dir, { recursive: true });
  return Array.from({ length: specs }, (_, index) => {
    const file = path.join(dir, `${specName(index)}.yaml`);
    fs.writeFileSync(file, generatedSpec(index, paths, revision));
    return file;
  });
}

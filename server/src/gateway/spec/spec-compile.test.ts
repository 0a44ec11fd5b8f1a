import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec } from './spec-loader.js';

const specsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sample-depth-'));
afterAll(() => fs.rmSync(specsDir, { recursive: true, force: true }));

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

describe('sampled examples of a schema graph that shares subschemas', () => {
  it('load with a bounded depth instead of expanding every path (4 branches on 14 levels)', async () => {
    const schemas: Record<string, object> = {};
    for (let i = 0; i < 14; i++) {
      const next = { $ref: `#/components/schemas/S${i + 1}` };
      schemas[`S${i}`] = {
        type: 'object',
        properties: { a: next, b: next, c: { allOf: [next] }, d: { allOf: [next] } },
      };
    }
    schemas.S14 = { type: 'string' };
    const file = path.join(specsDir, 'dag.openapi.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'dag', version: '1' },
        paths: {
          '/x': {
            get: {
              responses: {
                '200': {
                  description: 'ok',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } },
                },
              },
            },
          },
        },
        components: { schemas },
      }),
    );
    const spec = await loadSpec(file, specsDir);
    const example = spec.operations[0].responses[0].mediaTypes[0].example;
    expect(example).toMatchObject({ a: { a: {} } });
    expect(depthOf(example)).toBeLessThanOrEqual(9);
  });
});

describe('warnings of a spec', () => {
  it('say where: a path without "/" at its line and column, a body that cannot be made by its route', async () => {
    const file = path.join(specsDir, 'warned.openapi.yaml');
    fs.writeFileSync(
      file,
      `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  orders:
    get: {responses: {'200': {description: ok}}}
  /blob:
    get:
      responses: {'200': {description: ok, content: {application/json: {}}}}
`,
    );
    const { warnings } = await loadSpec(file, specsDir);
    expect(warnings).toContain('warned.openapi.yaml:4:3: path "orders" does not start with "/"; skipped');
    expect(warnings).toContain(
      'GET /blob 200 application/json: no example body (the spec gives neither an example nor a schema to make one ' +
        'from); the route answers 500 EXAMPLE_UNAVAILABLE',
    );
  });
});

describe('the registration check of request validation, at load', () => {
  const spec = (schemas: object) => ({
    openapi: '3.0.3',
    info: { title: 'ids', version: '1' },
    paths: {},
    components: { schemas },
  });

  it('still reports two schemas with one $id (the spec then fails to load, as before)', async () => {
    const file = path.join(specsDir, 'ids.openapi.json');
    fs.writeFileSync(file, JSON.stringify(spec({ A: { $id: 'urn:same' }, B: { $id: 'urn:same' } })));
    expect((await loadSpec(file, specsDir)).validationProblem).toMatch(/resolves to more than one schema/);
  });

  it('finds nothing to report in a spec without identifiers, whose check is skipped', async () => {
    const file = path.join(specsDir, 'no-ids.openapi.json');
    fs.writeFileSync(file, JSON.stringify(spec({ A: { type: 'string' }, B: { type: 'string' } })));
    expect((await loadSpec(file, specsDir)).validationProblem).toBeUndefined();
  });
});

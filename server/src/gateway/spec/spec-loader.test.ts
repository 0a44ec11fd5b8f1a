import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LoadError } from '../load-error.js';
import { loadSpec } from './spec-loader.js';
import { defaultSpecLimits } from '../../core/settings.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-specs-'));
const specsDir = path.join(root, 'specs');
fs.mkdirSync(specsDir);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function write(name: string, content: string | object): string {
  const file = path.join(specsDir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const info = { title: 't', version: '1' };
const getWithSchema = (schema: object) => ({
  get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } },
});

async function rejection(file: string, limits = defaultSpecLimits): Promise<LoadError> {
  const error = await loadSpec(file, specsDir, limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LoadError);
  return error as LoadError;
}

describe('loadSpec: valid documents', () => {
  it('lists operations with merged parameters, and mounts at servers[0].url', async () => {
    const file = write(
      'things.openapi.yaml',
      `openapi: 3.0.3
info: {title: Things, version: 2.1.0}
servers: [{url: /api/adaptive/things-api}]
paths:
  /things/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      parameters: [{name: verbose, in: query, schema: {type: boolean}}]
      responses: {'200': {description: ok, content: {application/json: {example: {id: 1}}}}}
    delete:
      responses: {'204': {description: gone}}
`,
    );
    const spec = await loadSpec(file, specsDir);
    expect(spec).toMatchObject({ mount: 'things-api', title: 'Things', version: '2.1.0', openapi: '3.0.3' });
    expect(spec.operations.map((o) => `${o.method} ${o.path}`)).toEqual(['GET /things/{id}', 'DELETE /things/{id}']);
    expect(spec.operations[0].parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      'path:id:true',
      'query:verbose:false',
    ]);
    expect(spec.operations[0].responses[0].mediaTypes[0].example).toEqual({ id: 1 });
  });

  it('mounts at the file name when servers does not name a gateway mount, or names a system route', async () => {
    const plain = write('plain.openapi.json', {
      openapi: '3.1.0',
      info,
      servers: [{ url: 'https://api.example.com/v1' }],
      paths: {},
    });
    const reserved = write('sys.openapi.json', {
      openapi: '3.0.0',
      info,
      servers: [{ url: '/api/adaptive/actuator' }],
      paths: {},
    });
    expect((await loadSpec(plain, specsDir)).mount).toBe('plain');
    expect((await loadSpec(reserved, specsDir)).mount).toBe('sys');
  });

  it('bundles $refs to other files inside the specs directory', async () => {
    write(
      'shared/models.yaml',
      'Pet:\n  type: object\n  properties:\n    name: {type: string, example: Rex}\n    friend: {$ref: "#/Pet"}\n',
    );
    const file = write('pets.openapi.yaml', {
      openapi: '3.0.3',
      info,
      paths: { '/pet': getWithSchema({ $ref: 'shared/models.yaml#/Pet' }) },
    });
    const spec = await loadSpec(file, specsDir);
    expect(spec.operations[0].responses[0].mediaTypes[0].example).toMatchObject({ name: 'Rex' });
    expect(JSON.stringify(spec.document)).toContain('"$ref":"#/x-bundled/shared~1models.yaml/Pet"');
  });

  it('decodes UTF-8 with a BOM and UTF-16 with a BOM', async () => {
    const text = JSON.stringify({ openapi: '3.0.3', info, paths: {} });
    const bom = path.join(specsDir, 'bom.openapi.json');
    fs.writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    const utf16 = path.join(specsDir, 'utf16.openapi.json');
    fs.writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect((await loadSpec(bom, specsDir)).openapi).toBe('3.0.3');
    expect((await loadSpec(utf16, specsDir)).openapi).toBe('3.0.3');
  });

  it('reports schema violations as warnings and still loads', async () => {
    const file = write('loose.openapi.json', { openapi: '3.0.3', info: { title: 'no version' }, paths: {} });
    const spec = await loadSpec(file, specsDir);
    expect(spec.warnings.join('\n')).toMatch(/version/);
  });
});

describe('loadSpec: hostile documents are rejected or loaded within a bound', () => {
  it('reference bomb: 2^30 leaves when expanded loads with a bounded sample', async () => {
    const schemas: Record<string, object> = {};
    for (let i = 0; i < 30; i++)
      schemas[`S${i}`] = {
        type: 'object',
        properties: { a: { $ref: `#/components/schemas/S${i + 1}` }, b: { $ref: `#/components/schemas/S${i + 1}` } },
      };
    schemas.S30 = { type: 'string' };
    const file = write('bomb.openapi.json', {
      openapi: '3.0.3',
      info,
      paths: { '/x': getWithSchema({ $ref: '#/components/schemas/S0' }) },
      components: { schemas },
    });
    const spec = await loadSpec(file, specsDir);
    expect(JSON.stringify(spec.operations[0].responses[0].mediaTypes[0].example).length).toBeLessThan(
      defaultSpecLimits.maxExampleBytes,
    );
  });

  it('reference cycles: a self-referencing schema loads with a finite example', async () => {
    const file = write(
      'cycle.openapi.yaml',
      `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /node: {get: {responses: {'200': {description: ok, content: {application/json: {schema: {$ref: ` +
        `'#/components/schemas/Node'}}}}}}}
components:
  schemas:
    Node: {type: object, properties: {child: {$ref: '#/components/schemas/Node'}, both: {allOf: [{$ref: ` +
        `'#/components/schemas/Node'}]}}}
`,
    );
    const spec = await loadSpec(file, specsDir);
    expect(spec.operations).toHaveLength(1);
  });

  it('a $ref chain that loops back on itself is reported, not followed forever', async () => {
    const file = write(
      'loop.openapi.yaml',
      `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a: {$ref: '#/paths/~1b'}
  /b: {$ref: '#/paths/~1a'}
`,
    );
    const spec = await loadSpec(file, specsDir);
    expect(spec.operations).toHaveLength(0);
    expect(spec.warnings.join('\n')).toMatch(/longer than \d+ hops/);
  });

  it(
    'external file refs outside the specs directory are refused: relative, absolute and through a ' + 'symlink',
    async () => {
      fs.writeFileSync(path.join(root, 'secret.yaml'), 'Secret: {type: string, example: leaked}');
      fs.symlinkSync(path.join(root, 'secret.yaml'), path.join(specsDir, 'link.yaml'));
      for (const ref of [
        '../secret.yaml#/Secret',
        `${path.join(root, 'secret.yaml')}#/Secret`,
        'link.yaml#/Secret',
        'file:///etc/passwd',
      ]) {
        const file = write('escape.openapi.json', {
          openapi: '3.0.3',
          info,
          paths: { '/x': getWithSchema({ $ref: ref }) },
        });
        const error = await rejection(file);
        expect(error.message).toMatch(/outside the specs directory|not a relative file reference/);
        expect(error.message).not.toContain('leaked');
      }
    },
  );

  it('network refs are refused without any connection being made', async () => {
    let connections = 0;
    const server = http.createServer((_req, res) => res.end('{}'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      for (const ref of [`http://127.0.0.1:${port}/schema.json`, `//127.0.0.1:${port}/schema.json`]) {
        const file = write('ssrf.openapi.json', {
          openapi: '3.0.3',
          info,
          paths: { '/x': getWithSchema({ $ref: ref }) },
        });
        expect((await rejection(file)).message).toMatch(/not a relative file reference/);
      }
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('YAML alias amplification ("billion laughs") is rejected', async () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const file = write(
      'laughs.openapi.yaml',
      `openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n${lines.join('\n')}\n`,
    );
    expect((await rejection(file)).message).toMatch(/alias/i);
  });

  it('a file over the size bound is rejected before parsing', async () => {
    const file = write(
      'big.openapi.yaml',
      `openapi: 3.0.3\ninfo: {title: t, version: '1', description: '${'x'.repeat(5000)}'}\npaths: {}\n`,
    );
    expect((await rejection(file, { ...defaultSpecLimits, maxFileBytes: 1000 })).message).toMatch(
      /over the limit of 1000/,
    );
  });

  it('50,000 levels of nesting are rejected', async () => {
    const file = write(
      'deep.openapi.json',
      `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x":${'['.repeat(50000)}${']'.repeat(50000)}}`,
    );
    expect((await rejection(file)).message).toMatch(/nested/);
  });

  it('20,000 paths load; beyond the path bound they are rejected', async () => {
    const paths: Record<string, object> = {};
    for (let i = 0; i < 20000; i++) paths[`/p${i}`] = { get: { responses: { '200': { description: 'ok' } } } };
    const file = write('many.openapi.json', { openapi: '3.0.3', info, paths });
    expect((await loadSpec(file, specsDir)).operations).toHaveLength(20000);
    expect((await rejection(file, { ...defaultSpecLimits, maxPaths: 1000 })).message).toMatch(/20000 paths/);
  });

  it('work beyond the time bound is cut off, and the next spec loads in a new worker', async () => {
    const paths: Record<string, object> = {};
    for (let i = 0; i < 20000; i++) paths[`/p${i}`] = { get: { responses: { '200': { description: 'ok' } } } };
    const slow = write('slow.openapi.json', { openapi: '3.0.3', info, paths });
    const limits = { ...defaultSpecLimits, timeoutMs: 20 };
    expect((await rejection(slow, limits)).message).toMatch(/longer than 20 ms/);
    const quick = write('quick.openapi.json', { openapi: '3.0.3', info, paths: {} });
    expect((await loadSpec(quick, specsDir, { ...limits, timeoutMs: 10_000 })).file).toBe('quick.openapi.json');
  });

  it.each([
    ['array.openapi.json', '[1, 2]', /not an object/],
    ['scalar.openapi.yaml', 'just a string', /not an object/],
    ['empty.openapi.yaml', '', /not an object/],
    ['swagger.openapi.json', '{"swagger": "1.2", "info": {}, "paths": {}}', /Swagger 1.2 is not supported/],
    ['number.openapi.yaml', 'openapi: 3.0\ninfo: {title: t, version: "1"}\npaths: {}', /must be a version string/],
    ['future.openapi.yaml', 'openapi: 4.0.0\ninfo: {title: t, version: "1"}\npaths: {}', /4.0.0 is not supported/],
    ['tags.openapi.yaml', 'openapi: 3.0.3\ninfo: !!js/function "function(){}"\npaths: {}', /Unresolved tag/],
  ])('non-OpenAPI document %s is rejected', async (name, content, message) => {
    expect((await rejection(write(name, content))).message).toMatch(message);
  });

  it('invalid UTF-8 is rejected', async () => {
    const file = path.join(specsDir, 'bad-utf8.openapi.yaml');
    fs.writeFileSync(file, Buffer.from([0x6f, 0x70, 0x65, 0x6e, 0xc3, 0x28, 0x0a]));
    expect((await rejection(file)).message).toMatch(/not valid UTF-8/);
  });

  it('syntax errors and duplicate keys carry the line and column', async () => {
    const duplicate = await rejection(
      write('dup.openapi.yaml', 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\npaths: {}\n'),
    );
    expect(duplicate).toMatchObject({ line: 4 });
    const broken = await rejection(write('broken.openapi.yaml', 'openapi: 3.0.3\ninfo:\n  title: [unclosed\n'));
    expect(broken.line).toBeGreaterThanOrEqual(3);
    const json = await rejection(write('broken.openapi.json', '{\n  "openapi": "3.0.3",\n  "info": {"title" "t"}\n}'));
    expect(json).toMatchObject({ line: 3 });
  });

  it('__proto__ keys do not pollute prototypes', async () => {
    const file = write(
      'proto.openapi.json',
      '{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},' +
        '"__proto__":{"polluted":true},"x":{"constructor":{"prototype":{"polluted":true}}}}',
    );
    await loadSpec(file, specsDir);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

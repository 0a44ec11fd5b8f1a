import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LoadError } from '../load-error.js';
import { bundleSpec } from './spec-bundle.js';
import { defaultSpecLimits } from '../../core/settings.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ref-check-')));
const specsDir = path.join(root, 'specs');
fs.mkdirSync(specsDir);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(specsDir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

function bundleError(file: string): LoadError {
  let caught: unknown;
  try {
    bundleSpec(file, specsDir, defaultSpecLimits);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(LoadError);
  return caught as LoadError;
}

const orders = (schemaRef: string) => `openapi: 3.0.3
info: {title: Orders, version: '1'}
paths:
  /orders/{orderId}:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: '${schemaRef}'
components:
  schemas:
    Order: {type: object}
`;

describe('every $ref of the description resolves at load', () => {
  it('a broken local $ref is an error at the line and column of its $ref, with a readable place', () => {
    const error = bundleError(write('orders.openapi.yaml', orders('#/components/schemas/Ordr')));
    expect(error.file).toBe('orders.openapi.yaml');
    expect({ line: error.line, column: error.column }).toEqual({ line: 12, column: 17 });
    expect(error.message).toBe(
      'GET /orders/{orderId} responses.200.content.application/json.schema: $ref "#/components/schemas/Ordr" ' +
        'does not resolve: there is no "Ordr" in #/components/schemas',
    );
  });

  it('finds the position in JSON text too, and lists further broken $refs with their lines', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { A: { $ref: '#/components/schemas/Nope' }, B: { $ref: '#/nothing' } } },
    };
    const error = bundleError(write('pretty.openapi.json', JSON.stringify(document, null, 2)));
    expect({ line: error.line, column: error.column }).toEqual({ line: 11, column: 9 });
    expect(error.message).toMatch(/^components\.schemas\.A: \$ref "#\/components\/schemas\/Nope" does not resolve/);
    expect(error.message).toContain('1 more broken $ref: "#/nothing" at pretty.openapi.json:14');
  });

  it('a $ref into another file that lacks the fragment names that file and position in the message', () => {
    write('shared/common.yaml', 'schemas:\n  Money: {type: number}\n  Price:\n    $ref: "#/schemas/Mony"\n');
    const error = bundleError(write('shop.openapi.yaml', orders('shared/common.yaml#/schemas/Price')));
    expect(error.file).toBe('shop.openapi.yaml');
    expect(error.line).toBeUndefined();
    expect(error.message).toBe(
      'schemas.Price: $ref "#/schemas/Mony" does not resolve (shared/common.yaml:4:5): there is no "Mony" in #/schemas',
    );
  });

  it('a $ref to a missing file carries the position of the $ref', () => {
    const error = bundleError(write('missing.openapi.yaml', orders('./nowhere.yaml#/Order')));
    expect(error.message).toMatch(/\$ref "\.\/nowhere\.yaml": file not found$/);
    expect({ line: error.line, column: error.column }).toEqual({ line: 12, column: 17 });
  });

  it('leaves $refs in examples and extensions, and plain-name anchors, alone', () => {
    const file = write(
      'data.openapi.yaml',
      `openapi: 3.1.0
info: {title: t, version: '1'}
x-notes: {$ref: '#/not/a/reference'}
paths: {}
components:
  schemas:
    Node: {$anchor: node, type: object, properties: {next: {$ref: '#node'}}}
    Doc: {type: object, example: {$ref: '#/only/data'}, properties: {example: {$ref: '#/components/schemas/Node'}}}
`,
    );
    expect(() => bundleSpec(file, specsDir, defaultSpecLimits)).not.toThrow();
  });

  it('a $ref in a parameter, a request body and a path item are checked alike', () => {
    for (const [where, fragment] of [
      ['parameters: [{$ref: "#/components/parameters/Id"}]', 'parameters'],
      ['requestBody: {$ref: "#/components/requestBodies/New"}', 'requestBodies'],
    ]) {
      const text =
        `openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      ${where}\n` +
        `      responses: {'204': {description: ok}}\n`;
      const error = bundleError(write('ops.openapi.yaml', text));
      expect(error.line).toBe(6);
      expect(error.message).toContain(`there is no "components" in #/`);
      expect(error.message).toMatch(
        new RegExp(`^POST /a ${fragment === 'parameters' ? 'parameters.0' : 'requestBody'}`),
      );
    }
    const item = bundleError(
      write(
        'item.openapi.yaml',
        `openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a: {$ref: '#/x-paths/a'}\n`,
      ),
    );
    expect({ line: item.line, column: item.column }).toEqual({ line: 4, column: 8 });
    expect(item.message).toMatch(/^path \/a: \$ref "#\/x-paths\/a" does not resolve/);
  });
});

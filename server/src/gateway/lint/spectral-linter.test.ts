import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRulesetFile } from './ruleset-file.js';
import { loadRuleset, SpectralLinter } from './spectral-linter.js';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-'));
const specs = path.join(workspace, 'specs');
fs.mkdirSync(specs);
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

const contradictingExample = `openapi: 3.0.3
info:
  title: Pets
  version: '1'
paths:
  /pet_items/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: integer}
              example: {id: two}
`;

async function lintWith(rulesetFile: string | undefined, name: string, text: string) {
  const linter = new SpectralLinter(await loadRuleset(rulesetFile), specs);
  const file = path.join(specs, name);
  fs.writeFileSync(file, text);
  return linter.lint(file, text);
}

describe('SpectralLinter with spectral:oas', () => {
  it('reports an example that contradicts its schema at its line, and the style rules', async () => {
    const findings = await lintWith(undefined, 'pets.yaml', contradictingExample);
    const example = findings.find((f) => f.rule === 'oas3-valid-media-example');
    expect(example).toMatchObject({ severity: 'error', line: 19, message: expect.stringContaining('integer') });
    const rules = findings.map((f) => f.rule);
    // Operation, info and server style families of spectral:oas.
    for (const rule of ['operation-operationId', 'operation-tags', 'operation-description', 'info-contact'])
      expect(rules).toContain(rule);
    expect(rules).toContain('oas3-api-servers');
  });

  it('reports errors of the OpenAPI schema', async () => {
    const findings = await lintWith(undefined, 'bad.yaml', 'openapi: 3.0.3\ninfo: {title: t}\npaths: {}\n');
    expect(findings).toContainEqual(expect.objectContaining({ rule: 'oas3-schema', severity: 'error', line: 2 }));
  });

  it('never reads a referenced file outside its root', async () => {
    const outside = path.join(workspace, 'outside.yaml');
    fs.writeFileSync(
      outside,
      'Thing: {type: object, properties: {id: {type: integer}}, example: {id: secret-value}}\n',
    );
    const text = contradictingExample.replace(
      'example: {id: two}',
      "example: {id: 2}\n        '201':\n          description: created\n" +
        "          content: {application/json: {schema: {$ref: '../outside.yaml#/Thing'}}}",
    );
    const findings = await lintWith(undefined, 'refs.yaml', text);
    expect(findings.map((f) => f.message).join('\n')).not.toContain('secret-value');
    expect(findings.every((f) => !f.file.startsWith(outside))).toBe(true);
    expect(findings).toContainEqual(expect.objectContaining({ message: expect.stringContaining('outside') }));
  });
});

describe("a workspace's .spectral.yaml", () => {
  it('extends spectral:oas, adds a custom rule, changes a severity and overrides per file', async () => {
    fs.writeFileSync(
      path.join(workspace, '.spectral.yaml'),
      `extends: [[spectral:oas, recommended]]
rules:
  paths-kebab-case:
    description: Paths are kebab-case.
    message: '{{property}} is not kebab-case'
    severity: error
    given: $.paths.*~
    then:
      function: pattern
      functionOptions: {match: '^(/([a-z0-9-]+|\\{[a-zA-Z]+\\}))+$'}
  info-contact: off
  operation-tags: error
overrides:
  - files: ['specs/legacy.yaml']
    rules:
      paths-kebab-case: off
`,
    );
    const rulesetFile = await findRulesetFile(workspace);
    expect(rulesetFile).toBe(path.join(workspace, '.spectral.yaml'));
    const findings = await lintWith(rulesetFile, 'pets.yaml', contradictingExample);
    expect(findings).toContainEqual(expect.objectContaining({ rule: 'paths-kebab-case', severity: 'error', line: 6 }));
    expect(findings).toContainEqual(expect.objectContaining({ rule: 'operation-tags', severity: 'error' }));
    expect(findings.map((f) => f.rule)).not.toContain('info-contact');
    const legacy = await lintWith(rulesetFile, 'legacy.yaml', contradictingExample);
    expect(legacy.map((f) => f.rule)).not.toContain('paths-kebab-case');
    expect(legacy.map((f) => f.rule)).toContain('oas3-valid-media-example');
  });
});

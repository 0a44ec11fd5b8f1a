import pino from 'pino';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Gateway } from '../gateway.js';
import { specFilesLoader } from '../spec/spec-loader-unit.js';
import { makeWorkspace, removeWorkspace, writeFile } from '../../test-support/workspace.js';
import { SpecLint, type SpecLintResult } from './spec-lint.js';

const spec = (example: string) => `openapi: 3.0.3
info: {title: Pets, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {id: {type: integer}}}
              example: ${example}
`;

describe('SpecLint', () => {
  const workspace = makeWorkspace();
  afterAll(() => removeWorkspace(workspace));

  it(
    'lints after the load, never blocks serving, and lints again only the spec that changed',
    { timeout: 120_000 },
    async () => {
      writeFile(workspace, 'specs/pets.yaml', spec('{id: two}'));
      writeFile(workspace, 'specs/other.yaml', spec('{id: 2}').replace('/pets', '/others'));
      const log = pino({ level: 'silent' });
      const specsDir = path.join(workspace, 'specs');
      const gateway = new Gateway([specFilesLoader(specsDir, log, { validateRequests: false })], log);
      const lint = new SpecLint(gateway, workspace, specsDir, log);
      const linted: SpecLintResult[] = [];
      lint.subscribe((result) => linted.push(result));
      try {
        const result = await gateway.reload();
        // Ready and serving the spec with an invalid example: lint has not run yet, and does not decide.
        expect(result.specs).toEqual(['other.yaml', 'pets.yaml']);
        expect(gateway.ready).toBe(true);
        await lint.settled();
        const pets = lint.findings.find((r) => r.file === 'pets.yaml')!;
        expect(pets.findings).toContainEqual(
          expect.objectContaining({ rule: 'oas3-valid-media-example', severity: 'error', line: 12 }),
        );
        expect(linted.map((r) => r.file).sort()).toEqual(['other.yaml', 'pets.yaml']);

        writeFile(workspace, 'specs/pets.yaml', spec('{id: 3}'));
        await gateway.reload();
        await lint.settled();
        expect(linted.map((r) => r.file)).toHaveLength(3);
        expect(linted[2]!.file).toBe('pets.yaml');
        expect(linted[2]!.findings.map((f) => f.rule)).not.toContain('oas3-valid-media-example');
      } finally {
        lint.close();
        await gateway.close();
      }
    },
  );
});

import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { defaultSpecLimits } from '../../core/settings.js';
import { generatedSpec } from '../../test-support/generated-specs.js';
import { parseSpecText } from './spec-source.js';
import { referencesSurelyResolve } from './structure-refs.js';
import { validateDocument } from './structure.js';

const validator = new Validator({ allErrors: true });
const base = { openapi: '3.0.3', info: { title: 't', version: '1' } };
const withSchemas = (schemas: object, extra: object = {}) => ({
  ...base,
  paths: {},
  components: { schemas },
  ...extra,
});

/** The validator's own answer (with its reference check) and ours, for the same document. */
async function bothAnswers(document: Record<string, unknown>) {
  return { ours: await validateDocument(validator, document), theirs: await validator.validate(document) };
}

/** An answer, or the kind of error it threw (a document nested too deep overflows the validator's stack). */
const settled = (answer: Promise<unknown>) => answer.catch((error: Error) => ({ threw: error.constructor.name }));

describe('referencesSurelyResolve', () => {
  it('is sure of local references that resolve, and the validation answers as the validator does', async () => {
    const document = withSchemas({
      A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } },
      B: {},
    });
    expect(referencesSurelyResolve(document)).toBe(true);
    const { ours, theirs } = await bothAnswers(document);
    expect(ours).toEqual(theirs);
    expect(ours.valid).toBe(true);
  });

  it.each([
    ['a reference that does not resolve', withSchemas({ A: { $ref: '#/components/schemas/Missing' } })],
    ['a reference to another file', withSchemas({ A: { $ref: 'other.yaml#/B' } })],
    ['a percent-encoded reference', withSchemas({ 'A B': {}, C: { $ref: '#/components/schemas/A%20B' } })],
    ['an anchor reference', withSchemas({ A: { $anchor: 'a' }, C: { $ref: '#a' } })],
    ['an $id', withSchemas({ A: { $id: 'urn:a' } })],
    [
      'a reference through another reference',
      withSchemas({ A: { $ref: '#/components/schemas/B' }, B: {}, C: { $ref: '#/components/schemas/A/x' } }),
    ],
    [
      'a reference inside a reference holder',
      withSchemas({ A: { $ref: '#/components/schemas/B', d: { $ref: '#/info' } }, B: {} }),
    ],
    ['a property named $ref', withSchemas({ A: { properties: { $ref: { type: 'string' } } } })],
    ['a reference at the top', { ...withSchemas({}), $ref: '#/info' }],
  ])('leaves %s to the validator, whose answer is kept', async (_, document) => {
    expect(referencesSurelyResolve(document as Record<string, unknown>)).toBeUndefined();
    const { ours, theirs } = await bothAnswers(document as Record<string, unknown>);
    expect(ours).toEqual(theirs);
  });

  it('reports schema errors exactly as the validator does when it is sure of the references', async () => {
    const document = { ...withSchemas({ A: { type: 'object' } }), paths: { '/x': { get: { responses: 'no' } } } };
    expect(referencesSurelyResolve(document)).toBe(true);
    const { ours, theirs } = await bothAnswers(document);
    expect(ours.valid).toBe(false);
    expect(ours).toEqual(theirs);
  });

  it('is sure of the generated large-workspace specs', () => {
    const document = parseSpecText(generatedSpec(3, 20), 'g.yaml', defaultSpecLimits) as Record<string, unknown>;
    expect(referencesSurelyResolve(document)).toBe(true);
  });
});

const corpus = '/work/shared/conformance/openapi-corpus';

describe('validateDocument over the conformance corpus', () => {
  it.skipIf(!fs.existsSync(corpus))(
    'answers as the validator does for every OpenAPI 3 document',
    { timeout: 300_000 },
    async () => {
      const files = fs
        .readdirSync(corpus, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && /\.(ya?ml|json)$/i.test(e.name))
        .map((e) => path.join(e.parentPath, e.name))
        .filter((file) => fs.statSync(file).size <= 256 * 1024);
      let sure = 0;
      let compared = 0;
      for (const file of files) {
        let document: unknown;
        try {
          document = parseSpecText(fs.readFileSync(file, 'utf8'), file, defaultSpecLimits);
        } catch {
          continue;
        }
        const openapi = (document as { openapi?: unknown } | null)?.openapi;
        if (typeof openapi !== 'string' || !/^3\.[01]\.\d+/.test(openapi)) continue;
        compared++;
        if (referencesSurelyResolve(document as Record<string, unknown>)) sure++;
        const ours = await settled(validateDocument(validator, document as Record<string, unknown>));
        expect(ours, file).toEqual(await settled(validator.validate(document as Record<string, unknown>)));
      }
      expect(compared).toBeGreaterThan(50);
      expect(sure).toBeGreaterThan(compared / 4);
    },
  );
});

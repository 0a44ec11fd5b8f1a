import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../request-validator.js';
import { validationDocument } from '../model/validation-document.js';
import { isObject } from '../../core/json.js';
import { boundedDocument } from './dynamic-example.js';
import { compileGenerator } from './compiled-generator.js';
import { expandedSchema } from './schema-expansion.js';
import { seededRandom } from './value-generators.js';

/**
 * Property test over the OpenAPI corpus's example specs (OAI and ReadMe feature coverage): every response schema,
 * compiled, gives values Ajv accepts. A sub-schema handed to the fallback marks its value as not the compiled
 * generator's and is counted, not judged; a schema Ajv itself cannot compile is skipped and counted, and so is a value
 * of a `oneOf` no value satisfies ({@link matchesSeveralBranches}).
 */
const corpus = '/work/shared/conformance/openapi-corpus/examples';
const fallbackMark = Symbol('fallback');

function specFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return specFiles(full);
    return /\.(ya?ml|json)$/.test(entry.name) ? [full] : [];
  });
}

function responsePointers(document: Record<string, unknown>): string[] {
  const pointers: string[] = [];
  const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  for (const [route, item] of Object.entries(isObject(document.paths) ? document.paths : {}))
    for (const [method, operation] of Object.entries(isObject(item) ? item : {})) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      for (const [status, response] of Object.entries(operation.responses))
        for (const [media, content] of Object.entries(
          isObject(response) && isObject(response.content) ? response.content : {},
        ))
          if (isObject(content) && content.schema !== undefined)
            pointers.push(
              ['#/paths', route, method, 'responses', status, 'content', media, 'schema']
                .map((p, i) => (i ? escape(p) : p))
                .join('/'),
            );
    }
  return pointers;
}

const hasMark = (value: unknown): boolean =>
  value === fallbackMark ||
  (Array.isArray(value) ? value.some(hasMark) : isObject(value) && Object.values(value).some(hasMark));

/**
 * A `oneOf` whose value matched several branches: in the corpus only where the branches cannot be told apart (two
 * `$ref`s to one schema, errors that differ only in a `default`), which no value satisfies.
 */
const matchesSeveralBranches = (error: { keyword: string; params: Record<string, unknown> }) =>
  error.keyword === 'oneOf' && Array.isArray(error.params.passingSchemas);

describe.skipIf(!fs.existsSync(corpus))('compiled generator over the OpenAPI corpus examples', () => {
  it('gives only values Ajv accepts for every response schema', { timeout: 180_000 }, () => {
    const tally = { schemas: 0, values: 0, valid: 0, fallback: 0, ajvCannot: 0, notExpanded: 0, oneOfOverlap: 0 };
    const failures: string[] = [];
    for (const file of specFiles(corpus)) {
      let document: unknown;
      try {
        document = parse(fs.readFileSync(file, 'utf8'));
      } catch {
        continue;
      }
      if (!isObject(document) || typeof document.openapi !== 'string') continue;
      const ajv = createAjv(document.openapi, false);
      try {
        ajv.addSchema(validationDocument(document) as object, 'urn:adaptive:corpus');
      } catch {
        tally.ajvCannot++;
        continue;
      }
      const bounded = boundedDocument(document);
      for (const pointer of responsePointers(document)) {
        tally.schemas++;
        let validate;
        try {
          validate = ajv.compile({ $ref: 'urn:adaptive:corpus' + pointer });
        } catch {
          tally.ajvCannot++;
          continue;
        }
        const schema = expandedSchema(bounded, pointer);
        if (schema === undefined) {
          tally.notExpanded++;
          continue;
        }
        const generate = compileGenerator(schema, {
          fallback: () => () => fallbackMark,
          check: (branch) => {
            try {
              return ajv.compile(branch as object) as (value: unknown) => boolean;
            } catch {
              return undefined;
            }
          },
          plausible: () => undefined,
        });
        for (let seed = 1; seed <= 10; seed++) {
          const value = generate(seededRandom(seed));
          tally.values++;
          if (hasMark(value)) tally.fallback++;
          else if (validate(value)) tally.valid++;
          else if (validate.errors?.every(matchesSeveralBranches)) tally.oneOfOverlap++;
          else
            failures.push(`${path.relative(corpus, file)} ${pointer} seed ${seed}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
    console.log('corpus tally', tally);
    expect([...new Set(failures.map((f) => f.replace(/ seed \d+/, '')))]).toEqual([]);
    expect(tally.schemas).toBeGreaterThan(100);
    // Almost every value comes from the compiled tree, not the fallback.
    expect(tally.valid).toBeGreaterThan(tally.values * 0.9);
  });
});

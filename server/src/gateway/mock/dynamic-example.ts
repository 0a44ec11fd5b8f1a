import { faker } from '@faker-js/faker/locale/en';
import { generateSync, type JsonSchema } from 'json-schema-faker';
import type { ValidateFunction } from 'ajv';
import { httpError } from '../../core/errors.js';
import { copyJson } from '../json-copy.js';
import { createAjv } from '../request-validator.js';
import { resolvePointer } from '../model/json-pointer.js';
import { validationDocument } from '../model/validation-document.js';
import { isObject } from '../../core/json.js';
import { expandedSchema } from './schema-expansion.js';
import { compileGenerator, type Generate } from './compiled-generator.js';
import { generatorIsSound } from './generator-soundness.js';
import { integerIn, pick, seededRandom, type Random } from './value-generators.js';

/**
 * Bounds of one generated value. json-schema-faker honours `minItems` and `minLength` whatever their
 * size (a `minLength: 1e8` string takes a minute, a `pattern: a{1e8}` eight), so a schema asking for
 * more than these is refused before generation; `maxItems` and `maxLength` are capped.
 */
export const generationBounds = {
  maxItems: 20,
  maxLength: 256,
  maxQuantifier: 1024,
  refDepth: 3,
  maxDepth: 24,
  attempts: 3,
};

/** faker's Latin words, read once: a sentence made of them here costs a third of `faker.lorem.sentence()`. */
const loremWords: readonly string[] = faker.definitions.lorem.word;

/** A sentence of `min` to `max` of {@link loremWords}, as `faker.lorem.sentence` makes, drawn with `random`. */
function loremSentence(random: Random, min: number, max: number): string {
  const count = integerIn(random, min, max);
  let text = pick(random, loremWords);
  for (let i = 1; i < count; i++) text += ` ${pick(random, loremWords)}`;
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/**
 * Property names (lower case, without `_` and `-`) and the call that gives a plausible value: faker's, or a lorem
 * sentence drawn with the generator's own `random` (so a seed repeats it).
 */
const plausibleByName: Record<string, (random: Random) => string> = {
  email: () => faker.internet.email(),
  name: () => faker.person.fullName(),
  fullname: () => faker.person.fullName(),
  firstname: () => faker.person.firstName(),
  lastname: () => faker.person.lastName(),
  username: () => faker.internet.username(),
  phone: () => faker.phone.number(),
  phonenumber: () => faker.phone.number(),
  address: () => faker.location.streetAddress(),
  street: () => faker.location.street(),
  streetaddress: () => faker.location.streetAddress(),
  city: () => faker.location.city(),
  country: () => faker.location.country(),
  zip: () => faker.location.zipCode(),
  zipcode: () => faker.location.zipCode(),
  postalcode: () => faker.location.zipCode(),
  company: () => faker.company.name(),
  url: () => faker.internet.url(),
  website: () => faker.internet.url(),
  title: (random) => loremSentence(random, 2, 5),
  description: (random) => loremSentence(random, 3, 10),
};

/** The key of {@link plausibleByName} a property name would have. */
const plausibleKey = (name: string): string => name.replace(/[_-]/g, '').toLowerCase();
/** Whether a string property of that name gets a plausible value when its schema leaves it free. */
const isPlausible = (name: string): boolean => Object.hasOwn(plausibleByName, plausibleKey(name));

/** Why a schema cannot be generated within {@link generationBounds}, or `undefined`. Follows `$ref`s once each. */
export function boundsProblem(document: unknown, pointer: string): string | undefined {
  const seen = new Set<unknown>();
  const stack: unknown[] = [resolvePointer(document, pointer)];
  const { maxItems, maxLength, maxQuantifier } = generationBounds;
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (isObject(node)) {
      if (typeof node.minItems === 'number' && node.minItems > maxItems)
        return `minItems ${node.minItems} is over the generator's bound of ${maxItems}`;
      if (typeof node.minLength === 'number' && node.minLength > maxLength)
        return `minLength ${node.minLength} is over the generator's bound of ${maxLength}`;
      if (typeof node.minProperties === 'number' && node.minProperties > maxItems)
        return `minProperties ${node.minProperties} is over the generator's bound of ${maxItems}`;
      if (typeof node.pattern === 'string') {
        const counts = [...node.pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].map((m) => Number(m[1]));
        if (counts.some((n) => n > maxQuantifier))
          return `pattern ${JSON.stringify(node.pattern)} repeats more than the generator's bound of ${maxQuantifier}`;
      }
      if (typeof node.$ref === 'string') stack.push(resolvePointer(document, node.$ref));
    }
    for (const [key, child] of Object.entries(node))
      if (key !== 'example' && key !== 'examples' && key !== 'default') stack.push(child);
  }
  return undefined;
}

/**
 * A copy of `document` whose `maxLength`, `maxItems` and `maxProperties` are capped at the bounds:
 * json-schema-faker's own caps apply after it built the value (a `maxLength: 1e8` string takes
 * seconds before it is cut).
 */
export function boundedDocument(document: Record<string, unknown>): Record<string, unknown> {
  const caps: Record<string, number> = {
    maxLength: generationBounds.maxLength,
    maxItems: generationBounds.maxItems,
    maxProperties: generationBounds.maxItems,
  };
  return copyJson(document, (key, value) =>
    typeof value === 'number' && Object.hasOwn(caps, key) ? { value: Math.min(value, caps[key]) } : undefined,
  ) as Record<string, unknown>;
}

/** json-schema-faker's draws are repeatable through faker's seed: so are the plausible values it asks for. */
const fakerRandom: Random = () => faker.number.float();

/** A plausible faker value for a string property named like an e-mail, a name or an address, when the schema leaves it
 * free. */
function plausible(value: unknown, schema: JsonSchema, path: string): unknown {
  if (typeof value !== 'string' || !isObject(schema)) return value;
  if (
    schema.format !== undefined ||
    schema.pattern !== undefined ||
    schema.enum !== undefined ||
    schema.const !== undefined
  )
    return value;
  const name = path
    .slice(path.lastIndexOf('/') + 1)
    .replace(/[_-]/g, '')
    .toLowerCase();
  const make = Object.hasOwn(plausibleByName, name) ? plausibleByName[name] : undefined;
  if (!make) return value;
  const candidate = make(fakerRandom);
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return candidate.length >= min && candidate.length <= max ? candidate : value;
}

const documentId = 'urn:adaptive:dynamic';

/**
 * Values generated from one spec's response schemas (json-schema-faker with @faker-js/faker): they
 * follow the schema's types, formats, enums, patterns, bounds, `required`, `oneOf` and `allOf`, and
 * string properties named like e-mails, names or addresses get plausible values. The same seed gives
 * the same value. Every value is checked against its schema before it is served: a schema nothing
 * can satisfy (`minLength` over `maxLength`, a pattern that cannot match) is a 500
 * `DYNAMIC_EXAMPLE_FAILED` naming the rule, never an answer that breaks the contract.
 */
export class DynamicExamples {
  private readonly ajv;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly problems = new Map<string, string | undefined>();
  private readonly expanded = new Map<string, JsonSchema | undefined>();
  private readonly compiled = new Map<string, Generate | undefined>();
  // Whether the compiled generator of a pointer is proven to make only valid values (generator-soundness.ts).
  private readonly sound = new Map<string, boolean>();
  private readonly bounded: Record<string, unknown>;
  private readonly refResolver = (ref: string) => resolvePointer(this.bounded, ref) as JsonSchema;

  constructor(
    private readonly document: Record<string, unknown>,
    openapi: string,
  ) {
    this.bounded = boundedDocument(document);
    this.ajv = createAjv(openapi, false);
    this.ajv.addSchema(validationDocument(document), documentId);
  }

  /**
   * A value for the schema at `pointer`: with `seed`, always the same value for that seed; without, a newly
   * generated one on every call. `label` names the response in errors.
   */
  generate(pointer: string, seed: number | undefined, label: string): unknown {
    return this.fresh(pointer, seed, label);
  }

  /**
   * The schema at `pointer` as one tree ({@link expandedSchema}: recursion cut at a bounded depth, any chain of
   * distinct schemas whole); else the `$ref` itself, which json-schema-faker then follows with its own bound.
   */
  private schemaFor(pointer: string): { schema: JsonSchema; refDepthMax?: number } {
    if (!this.expanded.has(pointer)) this.expanded.set(pointer, expandedSchema(this.bounded, pointer) as JsonSchema);
    const schema = this.expanded.get(pointer);
    return schema === undefined ? { schema: { $ref: pointer }, refDepthMax: generationBounds.refDepth } : { schema };
  }

  /** json-schema-faker's options for one value drawn with `seed`. */
  private fakerOptions(seed: number, refDepthMax?: number) {
    return {
      seed,
      refResolver: this.refResolver,
      extensions: { faker },
      propAliases: { 'x-faker': 'faker' },
      maxItems: generationBounds.maxItems,
      maxLength: generationBounds.maxLength,
      maxDefaultItems: 3,
      refDepthMax,
      maxDepth: generationBounds.maxDepth,
      outputTransform: plausible,
    };
  }

  /**
   * The generator compiled once from the expanded schema at `pointer` ({@link compileGenerator}); sub-schemas it
   * does not cover are drawn by json-schema-faker. `undefined` when the schema cannot be expanded.
   */
  private compiledFor(pointer: string): Generate | undefined {
    if (!this.compiled.has(pointer)) {
      const { schema, refDepthMax } = this.schemaFor(pointer);
      const generate =
        refDepthMax === undefined
          ? compileGenerator(schema, {
              fallback: (sub) => (random) =>
                generateSync(sub as JsonSchema, this.fakerOptions(Math.floor(random() * 0x100000000))),
              check: (branch) => {
                try {
                  return this.ajv.compile(branch as object) as (value: unknown) => boolean;
                } catch {
                  return undefined;
                }
              },
              plausible: (name) => (isPlausible(name) ? plausibleByName[plausibleKey(name)] : undefined),
            })
          : undefined;
      this.compiled.set(pointer, generate);
    }
    return this.compiled.get(pointer);
  }

  /**
   * A newly generated value that matches the schema: drawn by the compiled generator, and by json-schema-faker
   * over the whole schema when the compiled one's attempts all fail validation. The compiled generator's value is
   * not checked where it is proven valid for the schema's keywords ({@link generatorIsSound}): Ajv's check was about
   * a third of a dynamic answer's cost. `seed` also seeds faker (30 µs, so only when asked for).
   */
  private fresh(pointer: string, seed: number | undefined, label: string): unknown {
    if (!this.problems.has(pointer)) this.problems.set(pointer, boundsProblem(this.document, pointer));
    const problem = this.problems.get(pointer);
    if (problem !== undefined) throw httpError('DYNAMIC_EXAMPLE_FAILED', [label, problem]);
    const validate = this.validator(pointer);
    const first = seed ?? Math.floor(Math.random() * 0x100000000);
    const compiled = this.compiledFor(pointer);
    const { schema, refDepthMax } = this.schemaFor(pointer);
    const drawers: ((attemptSeed: number) => unknown)[] = [
      (attemptSeed) => generateSync(schema, this.fakerOptions(attemptSeed, refDepthMax)),
    ];
    const drawCompiled = compiled && ((attemptSeed: number) => compiled(seededRandom(attemptSeed)));
    if (drawCompiled) drawers.unshift(drawCompiled);
    const trusted = drawCompiled !== undefined && this.isSound(pointer);
    let reason = '';
    for (const draw of drawers)
      for (let attempt = 0; attempt < generationBounds.attempts; attempt++) {
        const attemptSeed = (first + attempt) >>> 0;
        if (seed !== undefined) faker.seed(attemptSeed);
        let value: unknown;
        try {
          value = draw(attemptSeed);
        } catch (error) {
          reason = (error as Error).message;
          continue;
        }
        if ((trusted && draw === drawCompiled) || validate(value)) return value;
        const broken = validate.errors?.[0];
        reason = broken
          ? `the generated value breaks "${broken.keyword}" at ${broken.instancePath || '/'} ` +
            `(${broken.message ?? 'invalid'}); the schema may be impossible to satisfy`
          : 'the generated value does not match the schema';
      }
    throw httpError('DYNAMIC_EXAMPLE_FAILED', [label, reason]);
  }

  /** Whether the compiled generator of `pointer` is proven sound; decided once per pointer. */
  private isSound(pointer: string): boolean {
    let sound = this.sound.get(pointer);
    if (sound === undefined) {
      sound = generatorIsSound(this.document, pointer, isPlausible);
      this.sound.set(pointer, sound);
    }
    return sound;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      try {
        validate = this.ajv.compile({ $ref: documentId + pointer });
      } catch {
        // A schema Ajv cannot compile is not checked here either; request validation reports it.
        validate = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;
      }
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}

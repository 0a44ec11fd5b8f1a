import { Validator } from '@seriousme/openapi-schema-validator';
import { referencesSurelyResolve } from './structure-refs.js';
import { positionedWarning, readableLocation, unescapePointerToken, type SourcePlace } from './source-positions.js';

/** Findings listed one by one; a document breaking more rules gets a count of the rest. */
const maxReported = 100;

interface SchemaError {
  instancePath?: string;
  keyword?: string;
  params?: { missingProperty?: string };
  message?: string;
}

/**
 * The errors worth reading: with every error collected, a value that fits neither a Reference Object nor the
 * object it should be also gets "must have required property '$ref'" and "must match exactly one schema in
 * oneOf"; those go when the same place, or a place inside it, has a more specific error.
 */
function specificErrors(errors: readonly SchemaError[]): SchemaError[] {
  const isAlternativeNoise = (error: SchemaError) =>
    error.keyword === 'oneOf' ||
    error.keyword === 'anyOf' ||
    (error.keyword === 'required' && error.params?.missingProperty === '$ref');
  const specificAt = errors.filter((e) => !isAlternativeNoise(e)).map((e) => e.instancePath ?? '');
  // A specific error at the place or inside it (`type` of a schema) explains the noise about the place.
  const explained = (at: string) => specificAt.some((place) => place === at || place.startsWith(`${at}/`));
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.instancePath ?? ''}\n${error.message ?? ''}`;
    if (seen.has(key) || (isAlternativeNoise(error) && explained(error.instancePath ?? ''))) return false;
    seen.add(key);
    return true;
  });
}

/** `file:line:column: schema: GET /orders: must ...`, or with the place in the text when it is in another file. */
function describe(error: SchemaError, locate: (tokens: readonly string[]) => SourcePlace, rootName: string): string {
  const pointer = error.instancePath ?? '';
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointerToken);
  const place = locate(tokens);
  const where = readableLocation(place.file === rootName ? tokens : tokens.slice(2));
  return positionedWarning(place, rootName, `schema: ${where}: ${error.message ?? 'is invalid'}`);
}

/**
 * One validator per thread: it compiles the OpenAPI meta-schema once per version and keeps it, which
 * the spec worker's later documents reuse (compiling it was a large part of a spec's load cost).
 */
let shared: Validator | undefined;

/** The validator's compiled meta-schema of one OpenAPI version (`3.0`, `3.1`), compiled on first use. */
type SchemaCheck = ((document: unknown) => boolean) & { errors?: SchemaError[] | null };

/** OpenAPI versions with a meta-schema of their own (Swagger 2.0 documents are converted to 3.0 first). */
export type OpenApiVersion = '3.0' | '3.1';

/** The validator's compiled meta-schema of `version`, compiled on first use. */
const metaSchemaCheck = (validator: Validator, version: OpenApiVersion) =>
  (validator as unknown as { getAjvValidator(version: string): SchemaCheck }).getAjvValidator(version);

/** The validator of this thread. */
const sharedValidator = () => (shared ??= new Validator({ allErrors: true }));

/** Compiles the meta-schema of `version` ahead of the first document of it (a prestarted spec worker's idle time). */
export function compileMetaSchema(version: OpenApiVersion): void {
  metaSchemaCheck(sharedValidator(), version);
}

/**
 * What `validator.validate(document)` answers, for an OpenAPI 3.0/3.1 document (the loader checked the version):
 * the meta-schema check, then its reference check, which is skipped when {@link referencesSurelyResolve} shows that
 * it passes.
 */
export async function validateDocument(
  validator: Validator,
  document: Record<string, unknown>,
): ReturnType<Validator['validate']> {
  if (referencesSurelyResolve(document) !== true) return validator.validate(document);
  const check = metaSchemaCheck(validator, String(document.openapi).startsWith('3.0') ? '3.0' : '3.1');
  if (check(document)) return { valid: true };
  return { valid: false, ...(check.errors && { errors: check.errors }) } as Awaited<ReturnType<Validator['validate']>>;
}

/**
 * Validates a document against the official OpenAPI 3.0 / 3.1 JSON Schema. Findings are returned as
 * warnings, not failures: many published specs break a rule or two and still describe a usable API. Each
 * names its place readably (`GET /orders/{orderId}`) and starts with `file:line:column:` when it lies in the
 * spec's own file, as `locate` finds it.
 */
export async function validateOpenApiStructure(
  document: Record<string, unknown>,
  locate: (tokens: readonly string[]) => SourcePlace,
  rootName: string,
): Promise<string[]> {
  const result = await validateDocument(sharedValidator(), document);
  if (result.valid) return [];
  const errors = specificErrors(Array.isArray(result.errors) ? result.errors : [{ message: String(result.errors) }]);
  const warnings = errors.slice(0, maxReported).map((error) => describe(error, locate, rootName));
  if (errors.length > maxReported) warnings.push(`schema: ${errors.length - maxReported} more findings`);
  return warnings;
}

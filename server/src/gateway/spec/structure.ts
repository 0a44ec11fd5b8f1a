import { Validator } from '@seriousme/openapi-schema-validator';

const maxReported = 20;

/**
 * One validator per thread: it compiles the OpenAPI meta-schema once per version and keeps it, which
 * the spec worker's later documents reuse (compiling it was a large part of a spec's load cost).
 */
let shared: Validator | undefined;

/**
 * Validates a document against the official OpenAPI 3.0 / 3.1 JSON Schema. Findings are returned as
 * warnings, not failures: many published specs break a rule or two and still describe a usable API.
 */
export async function validateOpenApiStructure(document: Record<string, unknown>): Promise<string[]> {
  const validator = (shared ??= new Validator());
  const result = await validator.validate(document);
  if (result.valid) return [];
  const errors = Array.isArray(result.errors) ? result.errors : [{ message: String(result.errors) }];
  const warnings = errors
    .slice(0, maxReported)
    .map(
      (error: { instancePath?: string; message?: string }) =>
        `schema: ${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
    );
  if (errors.length > maxReported) warnings.push(`schema: ${errors.length - maxReported} more findings`);
  return warnings;
}

import type swagger2openapi from 'swagger2openapi';
import { isObject } from '../../core/json.js';
import { LoadError, NotOpenApiError } from '../load-error.js';

type Json = Record<string, unknown>;
type Swagger2Document = Parameters<typeof swagger2openapi.convertObj>[0];

/** Where the converter leaves a warning in the document (taken out again by {@link takeWarnings}). */
const warningProperty = 'x-adaptive-conversion-warning';

/** Takes the converter's warnings out of `value`, each with the JSON path of the object it was left on. */
function takeWarnings(value: unknown, at: string, found: string[]): void {
  if (Array.isArray(value)) return value.forEach((item, i) => takeWarnings(item, `${at}/${i}`, found));
  if (!isObject(value)) return;
  if (typeof value[warningProperty] === 'string') {
    found.push(`${at || '/'}: ${value[warningProperty]}`);
    delete value[warningProperty];
  }
  for (const [key, item] of Object.entries(value)) takeWarnings(item, `${at}/${key}`, found);
}

/** Refuses every fetch: a bundled document has no external references left, and conversion never goes online. */
const noFetch = (): Promise<Response> => Promise.reject(new Error('references are not fetched during conversion'));

/**
 * A Swagger 2.0 document (already bundled: its references are inside it) converted to OpenAPI 3.0 by
 * swagger2openapi, with what the converter warned about or patched as load warnings. Nothing is resolved or
 * fetched. Throws {@link NotOpenApiError} for another Swagger version and {@link LoadError} when conversion fails.
 */
export async function convertSwagger2(document: Json, file: string): Promise<{ document: Json; warnings: string[] }> {
  if (document.swagger !== '2.0')
    throw new NotOpenApiError(
      file,
      `Swagger ${String(document.swagger)} is not supported; use Swagger 2.0 or OpenAPI 3.x`,
    );
  let converted: Json;
  let patches: number;
  try {
    // Imported at the first Swagger 2.0 document: OpenAPI 3 workspaces never load the converter.
    const { default: converter } = await import('swagger2openapi');
    const result = await converter.convertObj(document as unknown as Swagger2Document, {
      patch: true,
      warnOnly: true,
      warnProperty: warningProperty,
      resolve: false,
      resolveInternal: false,
      fetch: noFetch,
    });
    converted = result.openapi as unknown as Json;
    patches = result.patches ?? 0;
  } catch (error) {
    throw new LoadError(file, `Swagger 2.0 conversion failed: ${(error as Error).message}`);
  }
  const warnings: string[] = [];
  takeWarnings(converted, '', warnings);
  const shown = warnings.map((warning) => `Swagger 2.0 conversion: ${warning}`);
  if (patches > 0) shown.push(`Swagger 2.0 conversion: ${patches} errors of the document were patched`);
  return { document: converted, warnings: shown };
}

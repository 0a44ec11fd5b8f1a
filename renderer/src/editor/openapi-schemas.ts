import openApi30 from '@seriousme/openapi-schema-validator/schemas/v3.0/schema.json';
import openApi31 from '@seriousme/openapi-schema-validator/schemas/v3.1/schema.json';

/** The OpenAPI JSON Schemas, from the package the server validates with (bundled, never fetched). */
export const openApiSchemas = {
  '3.0': { uri: openApi30.id, schema: openApi30 as Record<string, unknown> },
  '3.1': { uri: openApi31.$id, schema: openApi31 as Record<string, unknown> },
} as const;

export type OpenApiVersion = keyof typeof openApiSchemas;

/** The OpenAPI version a document declares (`openapi: 3.1.0` -> `3.1`); 3.0 when it says nothing usable. */
export function openApiVersionOf(text: string): OpenApiVersion {
  const match = /^\s*["']?openapi["']?\s*:\s*["']?3\.(\d+)/m.exec(text);
  return match && Number(match[1]) >= 1 ? '3.1' : '3.0';
}

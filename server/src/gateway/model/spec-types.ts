/** Shapes shared by the spec loader (worker thread) and the gateway (main thread). */

/** The methods a spec's operations may use (`trace` is not served). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
/** Every {@link HttpMethod}: a spec's own `head` and `options` operations are routes too (HEAD falls back to GET). */
export const httpMethods: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

/** A precomputed response body for one media type. */
export interface MediaExample {
  mediaType: string;
  /** The default example (explicit or sampled); `undefined` when none could be made. */
  example: unknown;
  /** Named examples of `examples`, for `Prefer: example=<name>`. */
  named: Record<string, unknown>;
  /** JSON pointer of the media type's schema in the bundled document, for dynamic examples. */
  schemaPointer?: string;
  /** Why there is no default example (`example` undefined): the route answers a 500 saying so, never an empty 200. */
  missing?: string;
}

export interface ResponseSpec {
  /** The declared key: `200`, `2XX` or `default`. */
  key: string;
  mediaTypes: MediaExample[];
  headers: Record<string, string>;
}

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** JSON pointer of the parameter's schema in the bundled document, when it has one. */
  schemaPointer?: string;
  /** The declared `style` and `explode` (absent: the OpenAPI defaults for the location). */
  style?: string;
  explode?: boolean;
  /** Set when the schema is an array or an object: the style then says how to read it from the request. */
  shape?: 'array' | 'object';
  /** Property names of an object schema: the query keys an exploded form object is made of. */
  properties?: string[];
}

export interface RequestBodySpec {
  required: boolean;
  /** Media type -> JSON pointer of its schema (absent when the media type has no schema). */
  content: Record<string, string | undefined>;
}

/** One operation of a spec, with everything the responder and validator need. */
export interface OperationSpec {
  method: HttpMethod;
  /** The spec's path template, e.g. `/books/{bookId}`. */
  path: string;
  /** JSON pointer of the operation object in the bundled document. */
  pointer: string;
  operationId?: string;
  parameters: ParameterSpec[];
  requestBody?: RequestBodySpec;
  responses: ResponseSpec[];
}

/** A spec loaded and compiled: the result of the worker. */
export interface CompiledSpec {
  file: string;
  mount: string;
  openapi: string;
  title: string;
  version: string;
  /** The spec with external `$ref`s bundled under `x-bundled`; every `$ref` is internal. */
  document: Record<string, unknown>;
  /** {@link document} as the JSON text the load worker posted it in (absent when it is not JSON-safe). */
  documentJson?: string;
  operations: OperationSpec[];
  warnings: string[];
  /** Every file read to build the spec (the spec and the files its `$ref`s reach). */
  files: string[];
  /** Why the document cannot be registered for request validation (found at load), if it cannot. */
  validationProblem?: string;
}

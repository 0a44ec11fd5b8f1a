/** A workspace file (spec or handler) that cannot be loaded, with the position of the fault when known. */
export class LoadError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'LoadError';
  }
}

/** A document that is not an OpenAPI 3.0/3.1 document (no `openapi` field, Swagger 2.0, another version). */
export class NotOpenApiError extends LoadError {
  override readonly name = 'NotOpenApiError';
}

/**
 * A file in a loader's folder that is not one of its kind (a YAML file that is not an OpenAPI 3.x
 * document, such as a file other specs reference): listed as skipped with the reason, never an error.
 */
export class SkippedFileError extends Error {
  override readonly name = 'SkippedFileError';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file} is skipped: ${reason}`);
  }
}

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

/** Whether a spec's warning is a finding of the OpenAPI schema check (`[file:line:column: ]schema: ...`). */
export function isSchemaFinding(warning: string): boolean {
  return /^(?:[^:\n]*:\d+:\d+: )?schema: /.test(warning);
}

/** A saved spec refused for breaking the OpenAPI schema where its loaded version did not. */
export class SchemaRegressionError extends LoadError {
  override readonly name = 'SchemaRegressionError';
  constructor(file: string, findings: number) {
    super(
      file,
      `${findings} OpenAPI schema error${findings === 1 ? '' : 's'} (listed one by one in the workbench's problems)`,
    );
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

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

import { queryErrors } from '../query-errors.js';
import type { HttpError } from '../../core/errors.js';

/** A 400 naming a SPARQL feature this translator does not support: never a wrong answer instead. */
export const unsupported = (feature: string): HttpError =>
  queryErrors.badQuery(`SPARQL feature not supported: ${feature}`);

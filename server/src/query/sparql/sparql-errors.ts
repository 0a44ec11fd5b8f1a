import { httpError, type HttpError } from '../../core/errors.js';

/** A 400 naming a SPARQL feature this translator does not support: never a wrong answer instead. */
export const unsupported = (feature: string): HttpError => httpError('SPARQL_UNSUPPORTED', [feature]);

/** The body of every error answer. */

/** Every error body. */
export interface ErrorBody {
  detail: string;
  errors?: Array<{ in: string; name: string; message: string }>;
}

/**
 * One catalogue of the errors the server answers with. Every error body is `{detail}` (plus optional
 * structured fields such as `errors`); a stack trace never leaves the process.
 */

export const errorCatalogue = {
  NOT_FOUND: { status: 404, message: 'No route for %s %s' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method %s is not allowed on %s' },
  NOT_ACCEPTABLE: { status: 406, message: 'None of the media types in Accept (%s) is offered; available: %s' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type %s is not accepted; expected one of: %s' },
  BAD_REQUEST: { status: 400, message: '%s' },
  VALIDATION_FAILED: { status: 400, message: 'Request validation failed: %s' },
  BODY_TOO_LARGE: { status: 413, message: 'Request body is larger than the limit of %s bytes' },
  REQUEST_TIMEOUT: { status: 408, message: 'Request took longer than %s ms' },
  HANDLER_TIMEOUT: { status: 504, message: 'Handler did not answer within %s ms' },
  HANDLER_RESPONSE_TOO_LARGE: {
    status: 500,
    message: 'The handler answered %s bytes, more than HANDLER_RESPONSE_LIMIT (%s bytes)',
  },
  HANDLER_RESTARTING: { status: 503, message: 'The handler %s is restarting (%s); try again shortly' },
  HANDLER_UNAVAILABLE: { status: 502, message: 'The handler %s did not answer (%s)' },
  NOT_READY: { status: 503, message: 'The gateway has not finished loading the workspace' },
  SHUTTING_DOWN: { status: 503, message: 'The server is shutting down; send the request again' },
  INTERNAL: { status: 500, message: 'Internal error' },
  AUTH_REQUIRED: { status: 401, message: 'Authentication is required: send Basic credentials or a Bearer token' },
  AUTH_MALFORMED: { status: 401, message: 'Malformed Authorization header: %s' },
  AUTH_BAD_CREDENTIALS: { status: 401, message: 'Invalid username or password' },
  AUTH_INVALID_TOKEN: { status: 401, message: 'Invalid bearer token: %s' },
  AUTH_FORBIDDEN: { status: 403, message: '%s' },
  AUTH_AMBIGUOUS: { status: 400, message: 'A request may carry only one Authorization header' },
  IDP_BAD_GATEWAY: { status: 502, message: 'The identity provider could not be used: %s' },
  IDP_TIMEOUT: { status: 504, message: 'The identity provider did not answer within %s ms' },
  MALFORMED_REQUEST: { status: 400, message: 'Malformed HTTP request: %s' },
  BAD_URL: { status: 400, message: 'The request path is not a valid URL: %s' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request headers are larger than the limit of %s bytes' },
  BODY_TOO_DEEP: { status: 400, message: 'Request body is nested deeper than %s levels' },
  RESULT_TOO_LARGE: {
    status: 413,
    message: 'One row of the result is larger than the result limit of %s bytes (limits.max_result_bytes)',
  },
  LOGIN_THROTTLED: { status: 429, message: 'Too many failed logins for this user name or from %s; retry in %s s' },
  NAME_TOO_LONG: { status: 400, message: 'A file or folder name may be at most %s bytes long: %s' },
  FILE_TOO_LARGE: { status: 413, message: 'Files are limited to %s bytes' },
  NOT_A_STRING: { status: 400, message: '"%s" must be a string' },
  MOCK_ITEM_NOT_FOUND: { status: 404, message: 'No item of %s has %s %s in the mock state' },
  MOCK_ITEM_EXISTS: { status: 409, message: 'An item of %s with %s %s already exists in the mock state' },
  MOCK_COLLECTION_FULL: {
    status: 507,
    message:
      'The mock collection %s holds its limit of %s items (MOCK_STATE_MAX_ITEMS); delete items or reset the state',
  },
  MOCK_STATE_FULL: {
    status: 507,
    message: 'The mock state of %s would exceed %s bytes (MOCK_STATE_MAX_BYTES); delete items or reset the state',
  },
  MOCK_MOUNT_UNKNOWN: { status: 404, message: 'No stateful spec is mounted at "%s"' },
  UPSTREAM_TIMEOUT: { status: 504, message: 'The upstream %s did not answer within %s ms (PROXY_TIMEOUT_MS)' },
  UPSTREAM_UNAVAILABLE: { status: 502, message: 'The upstream %s could not be used: %s' },
  UPSTREAM_RESPONSE_TOO_LARGE: {
    status: 502,
    message: 'The upstream %s answered more than %s bytes (PROXY_RESPONSE_LIMIT)',
  },
  PREFER_INVALID: { status: 400, message: 'Prefer: %s=%s is not valid: expected %s' },
  PREFER_NOT_DECLARED: { status: 404, message: '%s' },
  DYNAMIC_EXAMPLE_FAILED: { status: 500, message: 'Cannot generate a dynamic example for %s: %s' },
  INJECTED_FAULT: { status: 500, message: 'Fault injected by the mock (%s)' },
  CORS_ORIGIN_REFUSED: { status: 403, message: 'Cross-origin requests from %s are not accepted here' },
  SPARQL_UNAVAILABLE: {
    status: 503,
    message: 'SPARQL is unavailable until the knowledge graph is fixed and the server restarted: %s',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Fills the `%s` slots of a catalogue message in order. */
function format(message: string, args: readonly unknown[]): string {
  let i = 0;
  return message.replace(/%s/g, () => String(args[i++] ?? ''));
}

/**
 * An expected error with an HTTP status and a `detail` safe to show to the caller.
 * `extra` fields are merged into the response body (for example `errors` of a validation failure).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string = 'HTTP_ERROR',
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }

  /** The response body: `{detail, ...extra}`. */
  body(): Record<string, unknown> {
    return { detail: this.detail, ...this.extra };
  }
}

/** Builds the catalogued error `code`, its message filled with `args`. */
export function httpError(
  code: ErrorCode,
  args: readonly unknown[] = [],
  extra: Record<string, unknown> = {},
): HttpError {
  const entry = errorCatalogue[code];
  return new HttpError(entry.status, format(entry.message, args), code, extra);
}

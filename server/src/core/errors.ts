/**
 * The one catalogue of the errors the server answers with (docs/errors.md lists them for clients).
 * Every error body is `{detail, code}` plus the structured fields of some codes (`errors`, `position`,
 * `line`, `column`, `status`); a stack trace never leaves the process.
 *
 * Build an error with {@link httpError}, or {@link httpErrorWithStatus} for the few codes whose status
 * the raiser picks. Features that steer by their own failures throw domain errors instead
 * (`domain-errors.ts`), which one mapper turns into these codes.
 */

/** The status of a code whose raiser picks it (a handler's HTTPException, a mock's fault, a framework refusal). */
const chosen = 'chosen';

/** The statuses a raiser may pick for a {@link chosen}-status code. */
export const chosenStatusRange = { min: 400, max: 599 } as const;

export const errorCatalogue = {
  // Requests in general: routing, content negotiation, request limits, the server's state.
  NOT_FOUND: { status: 404, message: 'No route for %s %s' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method %s is not allowed on %s' },
  NOT_ACCEPTABLE: { status: 406, message: 'None of the media types in Accept (%s) is offered; available: %s' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type %s is not accepted; expected one of: %s' },
  BODY_NOT_ALLOWED: { status: 415, message: '%s declares no request body; send the request without one' },
  BAD_REQUEST: { status: 400, message: '%s' },
  REQUEST_REFUSED: { status: chosen, message: '%s' },
  VALIDATION_FAILED: { status: 400, message: 'Request validation failed: %s' },
  NOT_A_STRING: { status: 400, message: '"%s" must be a string' },
  BODY_TOO_LARGE: { status: 413, message: 'Request body is larger than the limit of %s bytes' },
  BODY_TOO_DEEP: { status: 400, message: 'Request body is nested deeper than %s levels' },
  REQUEST_TIMEOUT: { status: 408, message: 'Request took longer than %s ms' },
  MALFORMED_REQUEST: { status: 400, message: 'Malformed HTTP request: %s' },
  BAD_URL: { status: 400, message: 'The request path is not a valid URL: %s' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request headers are larger than the limit of %s bytes' },
  HOST_NOT_ALLOWED: { status: 421, message: 'This server does not answer to Host %s (see ALLOWED_HOSTS)' },
  CORS_ORIGIN_REFUSED: { status: 403, message: 'Cross-origin requests from %s are not accepted here' },
  NOT_READY: { status: 503, message: 'The gateway has not finished loading the workspace' },
  SHUTTING_DOWN: { status: 503, message: 'The server is shutting down; send the request again' },
  INTERNAL: { status: 500, message: 'Internal error' },

  // Authentication (auth/).
  AUTH_REQUIRED: { status: 401, message: 'Authentication is required: send Basic credentials or a Bearer token' },
  AUTH_MALFORMED: { status: 401, message: 'Malformed Authorization header: %s' },
  AUTH_BAD_CREDENTIALS: { status: 401, message: 'Invalid username or password' },
  AUTH_INVALID_TOKEN: { status: 401, message: 'Invalid bearer token: %s' },
  AUTH_FORBIDDEN: { status: 403, message: '%s' },
  AUTH_AMBIGUOUS: { status: 400, message: 'A request may carry only one Authorization header' },
  IDP_BAD_GATEWAY: { status: 502, message: 'The identity provider could not be used: %s' },
  IDP_TIMEOUT: { status: 504, message: 'The identity provider did not answer within %s ms' },
  LOGIN_THROTTLED: { status: 429, message: 'Too many failed logins for this user name or from %s; retry in %s s' },

  // The gateway's spec routes, its Swagger UI and its mocks (gateway/).
  PREFER_INVALID: { status: 400, message: 'Prefer: %s=%s is not valid: expected %s' },
  PREFER_NOT_DECLARED: { status: 404, message: '%s' },
  DYNAMIC_EXAMPLE_FAILED: { status: 500, message: 'Cannot generate a dynamic example for %s: %s' },
  EXAMPLE_UNAVAILABLE: { status: 500, message: 'The mock has no example body for %s: %s' },
  INJECTED_FAULT: { status: chosen, message: 'Fault injected by the mock (%s)' },
  MOCK_QUERY_INVALID: { status: 400, message: 'Query parameter %s=%s is not valid: expected %s' },
  SWAGGER_UI_ASSET_NOT_FOUND: { status: 404, message: 'No Swagger UI asset %s' },
  OPENAPI_MOUNT_NOT_FOUND: { status: 404, message: 'No API is mounted at /%s (the gateway serves: %s)' },
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
  MOCK_NO_RESPONSES: {
    status: 501,
    message: 'The spec declares no responses for %s, so the mock has nothing to answer with; declare at least one',
  },
  MOCK_CREDENTIALS_MISSING: {
    status: 401,
    message: '%s needs credentials the request does not carry: %s (the mock checks presence only, never values)',
  },
  MOCK_MOUNT_UNKNOWN: { status: 404, message: 'No stateful spec is mounted at "%s"' },
  PAGE_PARAMETER_INVALID: { status: 400, message: 'The paging parameter %s %s' },
  UPSTREAM_TIMEOUT: { status: 504, message: 'The upstream %s did not answer within %s ms (PROXY_TIMEOUT_MS)' },
  UPSTREAM_UNAVAILABLE: { status: 502, message: 'The upstream %s could not be used: %s' },
  UPSTREAM_CONTRACT_VIOLATED: {
    status: 502,
    message: 'The upstream answer to %s breaks the spec (%s violations; x-adaptive-proxy.errors is on)',
  },
  UPSTREAM_RESPONSE_TOO_LARGE: {
    status: 502,
    message: 'The upstream %s answered more than %s bytes (PROXY_RESPONSE_LIMIT)',
  },
  CONTRACT_VIOLATION: {
    status: 500,
    message: "The handler's answer to %s breaks the contract of %s (%s violations; CONTRACT_ENFORCE is strict)",
  },
  // The workbench's mock views: mode switches and recording (workbench/mock-api.ts).
  SPEC_NOT_LOADED: { status: 404, message: 'No loaded spec %s' },
  MOUNT_NOT_PROXIED: {
    status: 409,
    message: 'The spec mounted at "%s" is not proxied (x-adaptive-proxy): it has no upstream answers to record',
  },
  RECORDING_NOT_FOUND: {
    status: 404,
    message: 'No recorded exchange %s of mount "%s" (unknown, or dropped: only the last %s are kept)',
  },
  SPEC_EDIT_CONFLICT: { status: 409, message: 'Cannot propose an edit of %s: %s' },

  // Handler modules, TypeScript and Python (gateway/handlers, gateway/python).
  HANDLER_HTTP_EXCEPTION: { status: chosen, message: '%s' },
  HANDLER_VALIDATION_FAILED: { status: 422, message: '%s' },
  HANDLER_TIMEOUT: { status: 504, message: 'Handler did not answer within %s ms' },
  HANDLER_RESPONSE_TOO_LARGE: {
    status: 500,
    message: 'The handler answered %s bytes, more than HANDLER_RESPONSE_LIMIT (%s bytes)',
  },
  HANDLER_RESTARTING: { status: 503, message: 'The handler %s is restarting (%s); try again shortly' },
  HANDLER_PROTOCOL_ERROR: { status: 502, message: 'The handler %s answered with %s' },
  HANDLER_UNAVAILABLE: { status: 502, message: 'The handler %s did not answer (%s)' },

  // Health (health/).
  HEALTH_COMPONENT_NOT_FOUND: { status: 404, message: 'No health component %s' },

  // The query service: sources, SQL, async jobs (query/).
  QUERY_NOT_FOUND: { status: 404, message: 'No query endpoint %s %s' },
  QUERY_SOURCE_NOT_FOUND: { status: 404, message: 'Unknown source "%s"' },
  QUERY_INVALID: { status: 400, message: '%s' },
  QUERY_UNKNOWN_TABLE: { status: 404, message: '%s' },
  QUERY_UNKNOWN_FUNCTION: { status: 400, message: '%s' },
  QUERY_TOO_LARGE: { status: 413, message: 'The query is %s characters long; the limit is %s' },
  RESULT_TOO_LARGE: {
    status: 413,
    message: 'One row of the result is larger than the result limit of %s bytes (limits.max_result_bytes)',
  },
  QUERY_TIMEOUT: { status: 504, message: 'The query did not finish within %s ms and was stopped' },
  // Nobody receives it: the client closed the connection first. 499 is the access-log convention for that.
  QUERY_CANCELLED: { status: 499, message: 'The query was cancelled: the client closed the connection' },
  QUERY_SOURCE_TIMEOUT: { status: 504, message: 'Source "%s" did not list its tables within %s ms' },
  QUERY_SOURCE_UNAVAILABLE: { status: 502, message: '%s' },
  QUERY_BUSY: { status: 503, message: '%s async queries are already waiting; try again later' },
  QUERY_RESULT_STORE_FULL: {
    status: 503,
    message: 'No room for a %s-byte result: results being written hold %s of the %s bytes of async.max_stored_size',
  },
  QUERY_JOB_STORE_UNAVAILABLE: { status: 503, message: 'The async job store (%s) is unavailable: %s' },
  QUERY_JOB_NOT_FOUND: { status: 404, message: 'No async query with id "%s" (unknown or expired)' },
  QUERY_NOT_COMPLETED: { status: 409, message: 'Async query %s %s; results exist only once it is COMPLETED' },
  QUERY_RESULTS_GONE: { status: 404, message: 'The results of async query %s are gone' },

  // Natural-language questions (query/nl/).
  NL_QUESTION_EMPTY: { status: 400, message: 'The question is empty' },
  NL_QUESTION_TOO_LONG: { status: 413, message: 'The question is %s characters long; the limit is %s' },
  NL_NOT_UNDERSTOOD: { status: 422, message: '%s' },
  NL_AMBIGUOUS: { status: 422, message: '%s' },
  NL_PREFER_UNKNOWN: {
    status: 400,
    message: '"%s" in "prefer" is not a column of the sources (write it as table.column)',
  },
  NL_SYNONYM_INVALID: { status: 400, message: 'The synonym cannot be added: %s' },
  NL_LLM_UNAVAILABLE: { status: 502, message: 'The language model %s' },

  // SPARQL (query/sparql/).
  SPARQL_QUERY_MISSING: {
    status: 400,
    message: 'Send the SPARQL query as the body (Content-Type: application/sparql-query) or as the form field "query"',
  },
  SPARQL_INVALID: { status: 400, message: '%s' },
  SPARQL_SYNTAX: { status: 400, message: 'SPARQL syntax error: %s' },
  SPARQL_UNSUPPORTED: { status: 400, message: 'SPARQL feature not supported: %s' },
  SPARQL_PATH_TOO_DEEP: {
    status: 400,
    message: 'A property path of any length (* or +) needs more than %s steps (limits.max_path_depth)',
  },
  SPARQL_UNAVAILABLE: {
    status: 503,
    message: 'SPARQL is unavailable until the knowledge graph is fixed and the server restarted: %s',
  },

  // The workbench: its token, workspace paths and files, its UI (workbench/).
  WB_TOKEN_MISSING: { status: 401, message: 'The workbench token is missing: send it in the %s header' },
  WB_TOKEN_WRONG: { status: 401, message: 'The workbench token is wrong (it changes every time the server starts)' },
  WB_PATH_REQUIRED: { status: 400, message: 'A workspace path is required' },
  WB_PATH_REFUSED: { status: 403, message: 'Path %s is refused: %s' },
  WB_NAME_TOO_LONG: { status: 400, message: 'A file or folder name may be at most %s bytes long: %s' },
  WB_AREA_ROOT: { status: 403, message: 'The %s folder itself cannot be %s' },
  WB_NOT_FOUND: { status: 404, message: '%s does not exist' },
  WB_EXISTS: { status: 409, message: '%s already exists' },
  WB_IS_FOLDER: { status: 409, message: '%s is a folder' },
  WB_PARENT_IS_FILE: { status: 409, message: 'A parent of %s is a file, not a folder' },
  WB_MOVE_INTO_ITSELF: { status: 409, message: '%s cannot be moved into itself' },
  WB_OTHER_FILE_SYSTEM: { status: 409, message: '%s is on another file system; copy it instead' },
  WB_FORBIDDEN: { status: 403, message: 'The server may not change %s (%s)' },
  WB_PATH_TOO_LONG: { status: 400, message: 'The path of %s is too long for the file system' },
  WB_FILE_TOO_LARGE: { status: 413, message: '%s is larger than %s bytes' },
  WB_CONTENT_TOO_LARGE: { status: 413, message: 'Files are limited to %s bytes' },
  WB_BINARY_FILE: { status: 415, message: '%s is a binary file' },
  WB_SEARCH_QUERY: { status: 400, message: 'The text to search for (q) must be 1 to %s characters long' },
  WB_STALE_SAVE: {
    status: 409,
    message: '%s was not saved: it changed on disk since it was read (%s); read it again and merge',
  },
  WB_UI_NOT_BUILT: { status: 503, message: 'The workbench UI is not built (no %s): run npm run build' },
  WB_UI_FILE_NOT_FOUND: { status: 404, message: 'No workbench file %s' },
} as const satisfies Record<string, { status: number | typeof chosen; message: string }>;

/** Every code the server answers with. */
export type ErrorCode = keyof typeof errorCatalogue;

/** The codes whose status the raiser picks (see {@link httpErrorWithStatus}). */
export type ChosenStatusCode = {
  [C in ErrorCode]: (typeof errorCatalogue)[C]['status'] extends typeof chosen ? C : never;
}[ErrorCode];

/** The codes whose status the catalogue fixes: every other. */
export type FixedStatusCode = Exclude<ErrorCode, ChosenStatusCode>;

/** The body of an error answer: `{detail, code}` and the code's structured fields. */
export type HttpErrorBody = { detail: string; code: ErrorCode } & Record<string, unknown>;

/** An HttpError as plain data, to cross a process boundary (a handler's process and the gateway). */
export interface HttpErrorFields {
  status: number;
  detail: string;
  code: ErrorCode;
  extra: Record<string, unknown>;
}

/** Fills the `%s` slots of a catalogue message in order. */
function format(message: string, args: readonly unknown[]): string {
  let i = 0;
  return message.replace(/%s/g, () => String(args[i++] ?? ''));
}

/**
 * An expected error with an HTTP status, a catalogued `code` and a `detail` safe to show to the caller.
 * `extra` fields are merged into the response body (for example `errors` of a validation failure).
 * Built by the functions below; the handler SDK's `HTTPException` is its one subclass with a public
 * constructor.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: ErrorCode,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }

  /** The response body: `{detail, code, ...extra}`. */
  body(): HttpErrorBody {
    return { detail: this.detail, code: this.code, ...this.extra };
  }

  /** The error as plain data (see {@link revivedHttpError}). */
  fields(): HttpErrorFields {
    return { status: this.status, detail: this.detail, code: this.code, extra: this.extra };
  }
}

/** Builds the catalogued error `code`, its message filled with `args`, with the `extra` body fields. */
export function httpError(
  code: FixedStatusCode,
  args: readonly unknown[] = [],
  extra: Record<string, unknown> = {},
): HttpError {
  const entry = errorCatalogue[code];
  return new HttpError(entry.status, format(entry.message, args), code, extra);
}

/** Builds the catalogued error `code` whose status its raiser picks ({@link chosenStatusRange}). */
export function httpErrorWithStatus(
  code: ChosenStatusCode,
  status: number,
  args: readonly unknown[] = [],
  extra: Record<string, unknown> = {},
): HttpError {
  return new HttpError(status, format(errorCatalogue[code].message, args), code, extra);
}

/** The HttpError another process built, from its {@link HttpErrorFields}. */
export function revivedHttpError(fields: HttpErrorFields): HttpError {
  return new HttpError(fields.status, fields.detail, fields.code, fields.extra);
}

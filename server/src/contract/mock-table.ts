/** A spec's mock table (`specs/<name>.mock.yaml`) and its workbench API (`/api/workbench/mock/table`). */

/** What a route answers when it is chosen: a declared response, one of its examples, a status sent instead. */
export interface MockTableTarget {
  /** The declared response (its status: `404`), as `Prefer: code=` names it. */
  response?: number;
  /** A named example of the response's media type, as `Prefer: example=` names it. */
  example?: string;
  /** The status sent instead of the response's own. */
  status?: number;
}

/** Where a rule looks: a query parameter, a header, a path parameter, or the body (a JSONPath or JSON pointer). */
export type MockRuleSource = 'query' | 'header' | 'path' | 'body';

/** One rule of a route: when the request's value at `in`/`key` equals `equals` (or is present), answer the target. */
export interface MockTableRule extends MockTableTarget {
  in: MockRuleSource;
  key: string;
  /** Compared with the request's value; absent: the rule matches when the value is present. */
  equals?: unknown;
}

/** The settings of one route in a spec's mock table. */
export interface MockTableRow extends MockTableTarget {
  /** Milliseconds, or `[min, max]`. */
  delay?: number | [number, number];
  /** Share of requests (0 to 1) answered with `errorStatus` (default 500). */
  errorRate?: number;
  errorStatus?: number;
  /** Tried in order; the first that matches wins. */
  rules?: MockTableRule[];
}

/** One route of a spec as the table editor shows it: its key, its declared responses and their examples, its row. */
export interface MockTableRoute {
  /** `GET /orders/{id}`: the key of its row. */
  key: string;
  responses: { status: string; examples: string[] }[];
  row?: MockTableRow;
}

/** `GET /api/workbench/mock/table?mount=`: the spec's routes and its table. */
export interface MockTableView {
  mount: string;
  /** Workspace path of the table file: `specs/orders.mock.yaml`. */
  path: string;
  routes: MockTableRoute[];
  /** Why the table file on disk cannot be used (with its line), if it cannot. */
  problem?: string;
}

/** `POST /api/workbench/mock/table`: the rows to write (checked; answered with the file's new text, not written). */
export interface MockTableRequest {
  mount: string;
  routes: Record<string, MockTableRow>;
}

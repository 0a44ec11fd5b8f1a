import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { MockTableRow, MockTableTarget } from '../../contract/index.js';
import { isObject } from '../../core/json.js';
import { LoadError } from '../load-error.js';
import { specBaseName } from '../model/mount.js';
import type { Preference } from './example-responder.js';
import type { MockSettings } from './mock-settings.js';
import { compileRoute, firstMatch, RuleKeyError, type RuleInput, type TableRoute } from './table-rules.js';

/** A spec's mock table: its routes by `METHOD /path` as the spec writes the path. */
export type MockTable = Map<string, TableRoute>;

export type { RuleInput, TableRoute } from './table-rules.js';

/** The response header that says what chose a table route's answer: `prefer`, `rule <n>` or `route`. */
export const ruleHeader = 'x-adaptive-mock-rule';

/** `petstore.mock.yaml`: a spec's mock table, never a spec of its own. */
export function isMockTableFile(fileName: string): boolean {
  return /\.mock\.ya?ml$/i.test(fileName);
}

/** The name of a spec file's mock table: `petstore.openapi.yaml` -> `petstore.mock.yaml`. */
export function mockTableName(specFileName: string): string {
  return `${specBaseName(specFileName)}.mock.yaml`;
}

/** The mock table file beside a spec file: `specs/petstore.yaml` -> `specs/petstore.mock.yaml`. */
export function mockTablePath(specFile: string): string {
  return path.join(path.dirname(specFile), mockTableName(path.basename(specFile)));
}

const methods = 'get|put|post|delete|options|head|patch|trace';
const status = { type: 'integer', minimum: 100, maximum: 599 } as const;
const target = { response: status, example: { type: 'string', minLength: 1 }, status } as const;
const routeSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...target,
    delay: {
      anyOf: [
        { type: 'integer', minimum: 0 },
        { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 2, maxItems: 2 },
      ],
    },
    errorRate: { type: 'number', minimum: 0, maximum: 1 },
    errorStatus: { type: 'integer', minimum: 400, maximum: 599 },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['in', 'key'],
        // A body rule's key is a JSON pointer (`/customer/tier`; `""` is the whole body) or a JSONPath
        // (`$.customer.tier`), compiled when the table is read.
        if: { properties: { in: { const: 'body' } } },
        then: { properties: { key: { pattern: '^(/.*|\\$.*)?$' } } },
        properties: {
          ...target,
          in: { enum: ['query', 'header', 'path', 'body'] },
          key: { type: 'string' },
          equals: {},
        },
      },
    },
  },
} as const;
const tableSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    routes: {
      type: 'object',
      propertyNames: { pattern: `^(${methods}|${methods.toUpperCase()}) /` },
      additionalProperties: routeSchema,
    },
  },
} as const;

let validateTable: ReturnType<Ajv['compile']> | undefined;

/** A fault of a mock table file, with its 1-based position. */
export interface TableFault {
  message: string;
  line: number;
  column: number;
}

/** The position of the YAML node at Ajv's `instancePath` (the nearest existing parent when it is missing). */
function positionOf(root: Node | null, instancePath: string, counter: LineCounter): { line: number; col: number } {
  let node: Node | null = root;
  const tokens = instancePath.split('/').slice(1);
  for (const raw of tokens) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const next: unknown = isMap(node) ? node.get(token, true) : isSeq(node) ? node.get(Number(token), true) : undefined;
    if (!next) break;
    node = next as Node;
  }
  return counter.linePos(node?.range?.[0] ?? 0);
}

/** The fault `message` of the value at `instancePath`, named as a dotted path (`routes.GET /a.errorRate`). */
function faultAt(instancePath: string, message: string, root: Node | null, counter: LineCounter): TableFault {
  const { line, col } = positionOf(root, instancePath, counter);
  const where = instancePath.split('/').slice(1).join('.').replace(/~1/g, '/') || 'the table';
  return { message: `${where} ${message}`, line, column: col };
}

function faultOf(error: ErrorObject, root: Node | null, counter: LineCounter): TableFault {
  const extra =
    isObject(error.params) && 'additionalProperty' in error.params ? ` (${error.params.additionalProperty})` : '';
  return faultAt(error.instancePath, `${error.message ?? 'is invalid'}${extra}`, root, counter);
}

/**
 * Parses and checks the text of a mock table: its routes, or the first fault with its position (a table with a
 * fault is not used at all, so a half-read table never answers).
 */
export function parseMockTable(text: string): { table: MockTable } | { fault: TableFault } {
  const counter = new LineCounter();
  const document = parseDocument(text, { schema: 'core', uniqueKeys: true, lineCounter: counter });
  const yamlFault = document.errors[0];
  if (yamlFault) {
    const pos = yamlFault.linePos?.[0] ?? { line: 1, col: 1 };
    return { fault: { message: `invalid YAML: ${yamlFault.message.split('\n')[0]}`, line: pos.line, column: pos.col } };
  }
  const value: unknown = document.toJS({ maxAliasCount: 100 }) ?? {};
  validateTable ??= new Ajv({ strict: false, allErrors: false }).compile(tableSchema);
  if (!validateTable(value)) return { fault: faultOf(validateTable.errors![0], document.contents, counter) };
  const routes = (value as { routes?: Record<string, MockTableRow> }).routes ?? {};
  const table: MockTable = new Map();
  for (const [key, row] of Object.entries(routes)) {
    let route: TableRoute;
    try {
      route = compileRoute(row);
    } catch (error) {
      if (!(error instanceof RuleKeyError)) throw error;
      const at = `/routes/${key.replace(/~/g, '~0').replace(/\//g, '~1')}/rules/${error.index}/key`;
      return { fault: faultAt(at, error.message, document.contents, counter) };
    }
    const space = key.indexOf(' ');
    table.set(`${key.slice(0, space).toUpperCase()}${key.slice(space)}`, route);
  }
  return { table };
}

/**
 * The mock table beside `specFile`, read and checked: none when there is no file; a table with a fault is a
 * {@link LoadError} of the table's file with its position (the spec keeps serving, without the table).
 */
export function readMockTable(specFile: string): { table?: MockTable; problem?: LoadError } {
  const file = mockTablePath(specFile);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const parsed = parseMockTable(text);
  if ('table' in parsed) return { table: parsed.table };
  const { message, line, column } = parsed.fault;
  return { problem: new LoadError(path.basename(file), `mock table: ${message}; the table is not used`, line, column) };
}

/** What a request gets from its route's table: the preference to answer by, a status sent instead, what chose. */
export interface TableChoice {
  preference: Preference;
  status?: number;
  /** The {@link ruleHeader} value: `prefer`, `rule <n>` (1-based) or `route`. */
  chosenBy: string;
}

/**
 * The one hook of the mock table into the answer choice. Precedence: the request's own choice (`Prefer: code=` or
 * `example=`) wins, then the route's rules in order (the first that matches wins; its target replaces the route's
 * settings), then the route's own settings. The rest of `preference` (`dynamic`, `seed`, `delay`) is kept.
 */
export function tableChoice(route: TableRoute, input: RuleInput, preference: Preference): TableChoice {
  if (preference.code !== undefined || preference.example !== undefined) return { preference, chosenBy: 'prefer' };
  const matched = firstMatch(route, input);
  const target: MockTableTarget = matched ? matched[0] : route.row;
  return {
    preference: { ...preference, code: target.response, example: target.example },
    status: target.status,
    chosenBy: matched ? `rule ${matched[1]}` : 'route',
  };
}

/** The route's settings with its table's delay, error rate and error status over them (delays capped). */
export function withTableFaults(
  settings: MockSettings,
  route: MockTableRow | undefined,
  maxDelayMs: number,
): MockSettings {
  if (!route) return settings;
  const next = { ...settings };
  if (route.delay !== undefined) {
    const [min, max] = typeof route.delay === 'number' ? [route.delay, route.delay] : route.delay;
    next.delay = [Math.min(min, max, maxDelayMs), Math.min(Math.max(min, max), maxDelayMs)];
  }
  if (route.errorRate !== undefined) next.errorRate = route.errorRate;
  if (route.errorStatus !== undefined) next.errorStatus = route.errorStatus;
  return next;
}

import { jsonpath } from 'json-p3';
import type { MockTableRow, MockTableRule } from '../../contract/index.js';
import { isObject } from '../../core/json.js';
import { resolvePointer } from '../model/json-pointer.js';

/** The parts of a request rules look at. */
export interface RuleInput {
  query: unknown;
  headers: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
}

/** A rule of the table with its reader of the request, made once when the table is read. */
export interface TableRule {
  rule: MockTableRule;
  /** The request's value at the rule's `in`/`key`; `undefined` when it has none. */
  read(input: RuleInput): unknown;
}

/** A route of the table: its row as written, and its rules ready to match in order. */
export interface TableRoute {
  row: MockTableRow;
  rules: TableRule[];
}

/**
 * Reads the body at a JSONPath (`$.customer.tier`, RFC 9535): no node is no value, one node its value, several
 * nodes the list of their values (a rule then matches when one of them does). Compiled here, once per table load;
 * throws the path's syntax error with its position.
 */
function jsonPathReader(key: string): (body: unknown) => unknown {
  const query = jsonpath.compile(key);
  return (body) => {
    if (body === undefined) return undefined;
    const values = query.query(body as Parameters<typeof query.query>[0]).values();
    return values.length === 0 ? undefined : values.length === 1 ? values[0] : values;
  };
}

/** The reader of one rule: a body key starting with `$` is a JSONPath, any other a JSON pointer (`/a/b`, `""`). */
function readerOf(rule: MockTableRule): TableRule['read'] {
  const { key } = rule;
  switch (rule.in) {
    case 'query':
      return (input) => (isObject(input.query) ? input.query[key] : undefined);
    case 'header': {
      const name = key.toLowerCase();
      return (input) => input.headers[name];
    }
    case 'path':
      return (input) => input.params[key];
    case 'body': {
      if (key.startsWith('$')) {
        const read = jsonPathReader(key);
        return (input) => read(input.body);
      }
      const pointer = `#${key}`;
      return (input) => resolvePointer(input.body, pointer);
    }
  }
}

/** A rule's key that is not a valid JSONPath: its 0-based index in the route's rules, and why. */
export class RuleKeyError extends Error {
  constructor(
    readonly index: number,
    reason: string,
  ) {
    super(`is not a valid JSONPath: ${reason}`);
  }
}

/** Compiles a row's rules; throws `{index, error}` for the first rule whose key cannot be compiled. */
export function compileRoute(row: MockTableRow): TableRoute {
  const rules = (row.rules ?? []).map((rule, index) => {
    try {
      return { rule, read: readerOf(rule) };
    } catch (error) {
      throw new RuleKeyError(index, error instanceof Error ? error.message : String(error));
    }
  });
  return { row, rules };
}

/** Whether one value is text and the other a number or boolean (compared as text). */
const textAndScalar = (text: unknown, scalar: unknown): boolean =>
  typeof text === 'string' && (typeof scalar === 'number' || typeof scalar === 'boolean');

/**
 * Equal as JSON, or as text when one side is text and the other a number or boolean, either way: a query, header
 * or path value is always text, and YAML reads `equals: 7` or `equals: true` unquoted as a number or boolean.
 */
function matches(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual) && !Array.isArray(expected)) return actual.some((item) => matches(item, expected));
  if (textAndScalar(actual, expected) || textAndScalar(expected, actual)) return String(actual) === String(expected);
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** The route's first rule that matches the request, with its 1-based number; `undefined` when none does. */
export function firstMatch(route: TableRoute, input: RuleInput): [MockTableRule, number] | undefined {
  const { rules } = route;
  for (let i = 0; i < rules.length; i++) {
    const { rule, read } = rules[i];
    const actual = read(input);
    if (actual !== undefined && (rule.equals === undefined || matches(actual, rule.equals))) return [rule, i + 1];
  }
  return undefined;
}

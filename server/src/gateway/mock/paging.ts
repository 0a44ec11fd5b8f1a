import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../../core/errors.js';
import { isObject } from '../../core/json.js';
import { dereference, resolvePointer } from '../model/json-pointer.js';
import type { OperationSpec, ParameterSpec } from '../model/spec-types.js';

/** Names of the query parameter that sets a page's size, in the order one is picked when a spec declares several. */
const sizeNames = ['limit', 'per_page', 'perPage', 'pageSize', 'page_size', 'size'];
/** Names of the parameters that say where a page starts, by paging style. */
const positionNames = { offset: ['offset', 'skip'], page: ['page'], cursor: ['cursor', 'after'] } as const;
/** Envelope fields that carry the number of items of the whole collection. */
const totalFields = ['total', 'totalCount', 'total_count', 'totalItems', 'total_items', 'count'];
/** Envelope fields that carry the cursor of the next page. */
const nextCursorFields = ['next_cursor', 'nextCursor'];

/** A page's size when the spec declares paging without a default. */
export const defaultPageSize = 20;
/** The largest page when the spec's size parameter declares no maximum. */
export const maxPageSize = 100;

type Style = keyof typeof positionNames;

/** How a stateful list reads its page from the query: from the parameters the spec declares, else `limit`/`offset`. */
export interface PagingPlan {
  style: Style;
  sizeName: string;
  positionName: string;
  /** Items of a page when the request gives no size; unbounded (the whole list) when the spec declares no paging. */
  defaultSize: number;
  maxSize: number;
}

const integerOr = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;

/** A parameter's schema, when it has one that can be read. */
function schemaOf(document: Record<string, unknown>, parameter: ParameterSpec | undefined): Record<string, unknown> {
  if (parameter?.schemaPointer === undefined) return {};
  try {
    const schema = dereference(document, resolvePointer(document, parameter.schemaPointer), parameter.schemaPointer);
    return isObject(schema.value) ? schema.value : {};
  } catch {
    return {};
  }
}

/** The paging of a list operation: the style and names of its declared query parameters. */
export function pagingPlan(document: Record<string, unknown>, operation: OperationSpec | undefined): PagingPlan {
  const declared = new Map((operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));
  const style = (['cursor', 'page', 'offset'] as const).find((s) => positionNames[s].some((n) => declared.has(n)));
  const sizeName = sizeNames.find((name) => declared.has(name));
  if (style === undefined && sizeName === undefined)
    return { style: 'offset', sizeName: 'limit', positionName: 'offset', defaultSize: Infinity, maxSize: maxPageSize };
  const chosen = style ?? 'offset';
  const schema = schemaOf(document, sizeName === undefined ? undefined : declared.get(sizeName));
  const maxSize = integerOr(schema.maximum, maxPageSize);
  return {
    style: chosen,
    sizeName: sizeName ?? 'limit',
    positionName: positionNames[chosen].find((n) => declared.has(n)) ?? positionNames[chosen][0],
    defaultSize: Math.min(integerOr(schema.default, defaultPageSize), maxSize),
    maxSize,
  };
}

/** Where a page starts: an index into the list, or after the item a cursor names. */
export type PageStart = { index: number } | { after: number };

/** One page of a collection, as {@link Collection.page} finds it. */
export interface Page<T> {
  items: T[];
  /** Items in the whole collection. */
  total: number;
  /** Index of the page's first item in the collection. */
  index: number;
  /** The cursor of the page after this one; only when there is one. */
  nextCursor?: string;
}

/** A cursor names an item's position in its collection (an increasing number), opaque to clients. */
export const encodeCursor = (position: number) => Buffer.from(`p${position}`).toString('base64url');

function decodeCursor(name: string, cursor: string): number {
  const match = /^p([1-9]\d{0,14})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match || encodeCursor(Number(match[1])) !== cursor)
    throw httpError('PAGE_PARAMETER_INVALID', [name, `"${cursor}" is not a cursor this mock gave out`]);
  return Number(match[1]);
}

/** The value of query parameter `name` as text, if given once (validation may have made it a number). */
function queryValue(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw httpError('PAGE_PARAMETER_INVALID', [name, 'is given more than once']);
  return String(value);
}

function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw httpError('PAGE_PARAMETER_INVALID', [name, `must be a whole number ${range}, not "${text}"`]);
  }
  return value;
}

/** The page a request asks for: its size and where it starts. 400 for a value that does not read. */
export function requestedPage(plan: PagingPlan, query: Record<string, unknown>): { size: number; start: PageStart } {
  const sizeText = queryValue(query, plan.sizeName);
  const size = sizeText === undefined ? plan.defaultSize : wholeNumber(plan.sizeName, sizeText, 1, plan.maxSize);
  const position = queryValue(query, plan.positionName);
  if (position === undefined) return { size, start: { index: 0 } };
  if (plan.style === 'cursor') return { size, start: { after: decodeCursor(plan.positionName, position) } };
  if (plan.style === 'offset')
    return { size, start: { index: wholeNumber(plan.positionName, position, 0, Number.MAX_SAFE_INTEGER) } };
  const page = wholeNumber(plan.positionName, position, 1, Number.MAX_SAFE_INTEGER);
  return { size, start: { index: Math.min((page - 1) * size, Number.MAX_SAFE_INTEGER) } };
}

/** The request's URL with the paging parameters set to `values` (the others kept): a link to another page. */
function pageUrl(request: FastifyRequest, values: Record<string, string | number>): string {
  const url = request.url;
  const query = url.indexOf('?');
  const params = new URLSearchParams(query === -1 ? '' : url.slice(query + 1));
  for (const [name, value] of Object.entries(values)) params.set(name, String(value));
  return `${query === -1 ? url : url.slice(0, query)}?${params}`;
}

/** The query values of the pages before and after `page` (`undefined` where there is none). */
function neighbours(plan: PagingPlan, size: number, page: Page<unknown>) {
  const sized = Number.isFinite(size) ? { [plan.sizeName]: size } : {};
  const hasNext = page.index + page.items.length < page.total;
  if (plan.style === 'cursor')
    return { next: page.nextCursor === undefined ? undefined : { ...sized, [plan.positionName]: page.nextCursor } };
  if (plan.style === 'page') {
    const number = Math.floor(page.index / size) + 1;
    return {
      next: hasNext ? { ...sized, [plan.positionName]: number + 1 } : undefined,
      prev: number > 1 ? { ...sized, [plan.positionName]: number - 1 } : undefined,
    };
  }
  return {
    next: hasNext ? { ...sized, [plan.positionName]: page.index + page.items.length } : undefined,
    prev: page.index > 0 ? { ...sized, [plan.positionName]: Math.max(0, page.index - size) } : undefined,
  };
}

/**
 * Sets the headers of a list page: `X-Total-Count`, and `Link` (RFC 8288) to the next and previous
 * pages where there are such.
 */
export function setPageHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  plan: PagingPlan,
  size: number,
  page: Page<unknown>,
): void {
  reply.header('x-total-count', String(page.total));
  const { next, prev } = { prev: undefined, ...neighbours(plan, size, page) };
  const links = [
    ...(next ? [`<${pageUrl(request, next)}>; rel="next"`] : []),
    ...(prev ? [`<${pageUrl(request, prev)}>; rel="prev"`] : []),
  ];
  if (links.length > 0) reply.header('link', links.join(', '));
}

/**
 * A list envelope (`{data: [...], total: 2}`) filled for `page`: its list property holds the page's
 * items, its total, size, position and next-cursor fields (those it has) the page's values.
 */
export function filledEnvelope(
  envelope: { value: Record<string, unknown>; property: string; fields: ReadonlySet<string> },
  plan: PagingPlan,
  size: number,
  page: Page<unknown>,
): Record<string, unknown> {
  const value: Record<string, unknown> = { ...envelope.value, [envelope.property]: page.items };
  const has = (field: string) => envelope.fields.has(field);
  for (const field of totalFields.filter(has)) value[field] = page.total;
  if (has(plan.sizeName) && Number.isFinite(size)) value[plan.sizeName] = size;
  if (has(plan.positionName) && plan.style !== 'cursor')
    value[plan.positionName] = plan.style === 'page' ? Math.floor(page.index / size) + 1 : page.index;
  for (const field of nextCursorFields.filter(has)) {
    if (page.nextCursor === undefined) delete value[field];
    else value[field] = page.nextCursor;
  }
  return value;
}

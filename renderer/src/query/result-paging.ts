/** The page sizes a result can be read in. */
export const pageSizes = [100, 500, 1000, 5000] as const;

/** Where a reader is in a paged result: a page of `size` rows (0-based `page`) of `total`. */
export interface PageState {
  page: number;
  size: number;
  total: number;
}

/** The moves of the pager's buttons. */
export type PageMove = 'first' | 'previous' | 'next' | 'last';

/** How many pages `total` rows make (at least one: an empty result is one empty page). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** `page` kept within the pages there are. */
export function clampPage(page: number, total: number, size: number): number {
  return Math.min(Math.max(0, Math.floor(page)), pageCount(total, size) - 1);
}

/** The page a move leads to (the same page when it leads nowhere). */
export function movePage({ page, size, total }: PageState, move: PageMove): number {
  const target = { first: 0, previous: page - 1, next: page + 1, last: pageCount(total, size) - 1 }[move];
  return clampPage(target, total, size);
}

/** The new page after the page size changes: the one that holds the first row now shown. */
export function resizePage({ page, size, total }: PageState, newSize: number): number {
  return clampPage(Math.floor((page * size) / newSize), total, newSize);
}

/** The rows of the page: `offset` and `limit` to ask for, and the 1-based `first`-`last` rows, for the label. */
export function pageRows({ page, size, total }: PageState): {
  offset: number;
  limit: number;
  first: number;
  last: number;
} {
  const offset = clampPage(page, total, size) * size;
  const last = Math.min(offset + size, total);
  return { offset, limit: size, first: total === 0 ? 0 : offset + 1, last };
}

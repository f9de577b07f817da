import { errors } from './errors.ts';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX, type PageQuery } from './params.ts';

/**
 * The part of a list an answer returns. Pages (REST) and cursors (GraphQL) are both read into
 * a window, so every list and search is cut in this one place.
 */
export interface Window {
  /** Items skipped from the start of the list. */
  offset: number;
  limit: number;
}

export function pageWindow({ page, per_page }: PageQuery): Window {
  return { offset: (page - 1) * per_page, limit: per_page };
}

/**
 * A cursor surface's window: `first` items after the first `offset`, with the bounds of
 * `per_page` (1 to 100, default 10). Absent or null `first` means the default.
 */
export function windowAfter(offset: number, first: number | null | undefined): Window {
  if (first === null || first === undefined) return { offset, limit: PER_PAGE_DEFAULT };
  if (!(Number.isInteger(first) && first >= 1 && first <= PER_PAGE_MAX)) {
    throw errors.badArgument('first', `an integer from 1 to ${PER_PAGE_MAX}`);
  }
  return { offset, limit: first };
}

export function cut<T>(items: readonly T[], window: Window): T[] {
  return items.slice(window.offset, window.offset + window.limit);
}

/**
 * A build renders its pages in slices, each an Astro build in a process of its own (scripts/pages.ts):
 * Astro holds every route it renders and its props until its build ends, and at 10,000 essays x 14
 * one process ran out of V8's 4 GB heap. A slice renders at most `size` pages, in the order the
 * route lists them (a post's languages side by side, the API reference last: it searches, so it
 * waits for the indexes).
 */

/** Where the first pages process writes how many slices there are, in the build's folder (removed after). */
export const PAGES_SLICE_COUNT = 'pages-slices.txt';

/** Pages one pages process renders, unless FOLIO_PAGES_SLICE says otherwise. */
export const PAGES_SLICE_PAGES = 20_000;

/** FOLIO_PAGES_SLICE (pages per pages process, a positive integer); the default when unset. */
export function slicePagesSetting(value: string | undefined): number {
  if (value === undefined || value === '') return PAGES_SLICE_PAGES;
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`FOLIO_PAGES_SLICE takes the number of pages one process renders (a positive integer), not ${JSON.stringify(value)}`);
  return Number(value);
}

/** How many slices render `pages` pages, `size` a slice (at least one). */
export const sliceCount = (pages: number, size: number) => Math.max(1, Math.ceil(pages / size));

/** Slice `k` (from 0) of the pages, in the order given, and how many slices there are. */
export function pageSlice<T>(pages: readonly T[], size: number, k: number): { pages: T[]; count: number } {
  const count = sliceCount(pages.length, size);
  if (!Number.isInteger(k) || k < 0 || k >= count) throw new Error(`page slice ${k} of ${count} does not exist`);
  return { pages: pages.slice(k * size, (k + 1) * size), count };
}

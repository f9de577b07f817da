import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { LIST_PAGES_FILE, reusableListPages, type ListPageDigests, type Reuse, type ShardPages } from './page-reuse.ts';
import { readJson } from '../fs/read-json.ts';
import { loadCore } from '../bundle/load-bundle.ts';
import { DIST, ROOTS, SEARCH_INDEXES_WRITTEN } from '../artefact/roots.ts';
import { listPageDigests } from './list-page.ts';
import { pageSlice, slicePagesSetting } from './page-slice.ts';
import type { SiteRoot } from './site-root.ts';

// The pages (src/components) take the root's type from here with the data.
export type { SiteRoot };

let loaded: Promise<SiteRoot[]> | undefined;

/**
 * `npm run build` renders the pages while its bundle step still writes the search indexes, and
 * puts the promise of their end here (SEARCH_INDEXES_WRITTEN): a page that searches waits for it.
 * Astro's page code is a bundle of its own, so the promise goes by a global symbol.
 */
export const searchIndexesWritten = (): Promise<unknown> => (globalThis as Record<symbol, Promise<unknown> | undefined>)[SEARCH_INDEXES_WRITTEN] ?? Promise.resolve();

/** The roots' cores; their search indexes are opened on a first search (the build may still be writing them). */
export function roots(): Promise<SiteRoot[]> {
  const dir = process.env.FOLIO_DIST_ROOT ?? process.cwd();
  loaded ??= Promise.all(ROOTS.map(async (r) => ({ name: r.name, base: r.base, core: await loadCore(resolve(dir, DIST.bundle(r.name)), { warm: false, present: false }) })));
  return loaded;
}

/**
 * Posts whose pages the live build already holds (src/pipeline/reuse/reuse.ts), by root: `npm run build`
 * links those pages instead of rendering them. FOLIO_REUSE names the build's reuse file.
 */
export function reusedPosts(): Map<string, Set<string>> {
  return new Map(Object.entries(readReuse()?.posts ?? {}).map(([root, slugs]) => [root, new Set(slugs)]));
}

/** The posts whose pages a shard renders (FOLIO_SHARD names its file), by root; undefined in a whole build. */
export function shardPosts(): Map<string, Set<string>> | undefined {
  const file = process.env.FOLIO_SHARD;
  if (!file) return undefined;
  const { posts } = JSON.parse(readFileSync(file, 'utf8')) as ShardPages;
  return new Map(Object.entries(posts).map(([root, slugs]) => [root, new Set(slugs)]));
}

/**
 * The slice of `pages` this process renders (scripts/pages.ts sets FOLIO_PAGES_SLICE_INDEX; ./page-slice.ts);
 * all of them when unset. How many slices there are is written to the file FOLIO_PAGES_SLICE_COUNT
 * names, for the build to start the rest.
 */
export async function slicedPages<T>(pages: readonly T[]): Promise<readonly T[]> {
  const index = process.env.FOLIO_PAGES_SLICE_INDEX;
  if (index === undefined) return pages;
  const slice = pageSlice(pages, slicePagesSetting(process.env.FOLIO_PAGES_SLICE), Number(index));
  if (process.env.FOLIO_PAGES_SLICE_COUNT) await writeFile(process.env.FOLIO_PAGES_SLICE_COUNT, String(slice.count));
  return slice.pages;
}

function readReuse(): Reuse | undefined {
  const file = process.env.FOLIO_REUSE;
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Reuse) : undefined;
}

/**
 * List pages the live build holds as they would be rendered now (src/pipeline/reuse/reuse.ts), by file:
 * `npm run build` links those too. The digests of this build's list pages are recorded in its
 * folder (FOLIO_BUILD_DIR) for the next build.
 */
export async function reusedListPages(all: SiteRoot[]): Promise<Set<string>> {
  const digests: ListPageDigests = Object.fromEntries(all.map((root) => [root.name, listPageDigests(root)]));
  // Every slice of the pages (./page-slice.ts) computes them, to agree on the pages; the first records them.
  if (process.env.FOLIO_BUILD_DIR && (process.env.FOLIO_PAGES_SLICE_INDEX ?? '0') === '0') await writeFile(join(process.env.FOLIO_BUILD_DIR, LIST_PAGES_FILE), JSON.stringify(digests));
  const reuse = readReuse();
  return new Set(reusableListPages(digests, reuse && (await readJson<ListPageDigests>(join(reuse.from, LIST_PAGES_FILE))), reuse));
}

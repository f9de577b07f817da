/**
 * What a build hands the page renderer about the live build (written by src/pipeline/reuse/reuse.ts, read by
 * ./data.ts): the pages it can link instead of rendering. The site owns this contract, so it never
 * reads the build's incremental machinery.
 */

/** What a build takes from the live one: its folder and, per root, the posts that did not change. */
export interface Reuse {
  from: string;
  posts: Record<string, string[]>;
}

/** Each build's list page digests, by root and file, for the next build to compare (./list-page.ts). */
export const LIST_PAGES_FILE = 'list-pages.json';
export type ListPageDigests = Record<string, Record<string, string>>;

/** The list pages a build links from the live one: unchanged digests, in roots whose posts it reuses (same code and scope). */
export function reusableListPages(now: ListPageDigests, before: ListPageDigests | undefined, reuse: Reuse | undefined): string[] {
  if (!reuse || !before) return [];
  return Object.keys(reuse.posts).flatMap((root) => Object.entries(now[root] ?? {}).filter(([file, digest]) => before[root]?.[file] === digest).map(([file]) => file));
}

/**
 * What a shard of a sharded build renders (src/pipeline/reuse/shard-*.ts, through FOLIO_SHARD, a file of this
 * shape): the pages of these posts, by root, and nothing else; the merge makes every other page.
 */
export interface ShardPages {
  posts: Record<string, string[]>;
}

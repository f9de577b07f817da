import type { Catalog, PostRecord } from '../core/types.ts';

/**
 * How a bundle stores its catalog, so that no file grows with the corpus: `catalog.json` holds the
 * catalog with `posts` replaced by `{ parts }`, how many files hold them, and `catalog.posts.{k}.json`
 * the posts in order, consecutive ones up to CATALOG_PART_BYTES of JSON a file (a post is never cut,
 * so a part is at most that or one post's record). Read back whole, the keys in their order.
 */
export const CATALOG_FILE = 'catalog.json';
export const catalogPartFile = (k: number) => `catalog.posts.${k}.json`;
export const CATALOG_PART_BYTES = 256 * 1024;

/** The files of `catalog` as `[name, JSON]`: its posts' parts, then its root (written last, a bundle with a root has every part). */
export function catalogFiles(catalog: Catalog, partBytes = CATALOG_PART_BYTES): [string, string][] {
  const parts: string[] = [];
  let part: string[] = [];
  let bytes = 2;
  for (const post of catalog.posts) {
    const json = JSON.stringify(post);
    const size = Buffer.byteLength(json) + 1;
    if (part.length > 0 && bytes + size > partBytes) {
      parts.push(`[${part.join(',')}]`);
      part = [];
      bytes = 2;
    }
    part.push(json);
    bytes += size;
  }
  if (part.length > 0 || parts.length === 0) parts.push(`[${part.join(',')}]`);
  return [...parts.map((json, k): [string, string] => [catalogPartFile(k), json]), [CATALOG_FILE, JSON.stringify({ ...catalog, posts: { parts: parts.length } })]];
}

const decoder = new TextDecoder();
const parse = <T>(bytes: Uint8Array): T => JSON.parse(decoder.decode(bytes)) as T;

/** The catalog's root: everything but its posts, and how many parts hold them (undefined: the bundle has no catalog). */
export async function readCatalogRoot(read: (name: string) => Promise<Uint8Array | undefined>): Promise<(Omit<Catalog, 'posts'> & { posts: { parts: number } }) | undefined> {
  const rootBytes = await read(CATALOG_FILE);
  return rootBytes && parse<Omit<Catalog, 'posts'> & { posts: { parts: number } }>(rootBytes);
}

/** The catalog whole, its files read by `read` (undefined: the bundle has no catalog; a missing part is an error). */
export async function readCatalog(read: (name: string) => Promise<Uint8Array | undefined>): Promise<Catalog | undefined> {
  const root = await readCatalogRoot(read);
  if (!root) return undefined;
  const parts = await Promise.all(
    Array.from({ length: root.posts.parts }, async (_, k) => {
      const bytes = await read(catalogPartFile(k));
      if (!bytes) throw new Error(`the bundle has no ${catalogPartFile(k)}`);
      return parse<PostRecord[]>(bytes);
    }),
  );
  return { ...root, posts: parts.flat() };
}

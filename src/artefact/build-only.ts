import { sep } from 'node:path';

/**
 * A bundle's files that only a later build reads, never a host: each post's links for the link
 * check of a post taken whole (`links.json`, check/links.ts), the digests that tell which posts and
 * pages changed (`digests.json`, reuse/reuse.ts), and per language FlexSearch's export that an
 * incremental build updates (`search/{lang}.index.bin`, index-codec.ts) with the digest of its
 * inputs (`search/{lang}.digest`). They grow with the corpus (2.7 MB of links at 300 x 14); the host
 * targets leave them out, so no deployed file does. `rel`: a path in a root's bundle folder.
 */
export function buildOnly(rel: string): boolean {
  return /^(links|digests)\.json$|^search\/[^/]+\.(index\.bin|digest)$/.test(rel.split(sep).join('/'));
}

/** What a host reads of a root's bundle: all but its media (the site publishes them) and the build-only files. */
export const hostReads = (rel: string): boolean => !rel.startsWith(`media${sep}`) && !buildOnly(rel);

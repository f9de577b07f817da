import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CACHE_DIR } from '../../artefact/roots.ts';
import { gzipCoding } from '../../artefact/gzip-coding.ts';
import type { ManifestFile } from '../../artefact/manifest.ts';
import { variantCache } from '../reuse/variant-cache.ts';

/**
 * The `.gz` copies a server that only serves files needs (nginx's gzip_static, Caddy's precompressed:
 * the fronts and the static target's plain servers), which a build no longer stores (its br alone:
 * src/pipeline/publish/codings.ts). Made with the settings of the copies builds stored, so such a
 * server answers a client taking gzip and not br with the same bytes as before; kept in the coding
 * cache by the body's digest, so each is made once across builds. Returns a maker: identity's path,
 * its manifest entry, where the copy goes; whether it was placed (not when it does not pay).
 */
export function gzipCopies() {
  const cache = variantCache(join(CACHE_DIR, 'codings'));
  return async (identity: string, file: ManifestFile, to: string): Promise<boolean> => {
    const digest = file.etag.slice(1, -1);
    mkdirSync(dirname(to), { recursive: true });
    const taken = await cache.take(digest, 'gz', to);
    if (taken !== undefined) return taken !== 'none';
    const coded = gzipCoding(await readFile(identity));
    cache.put(digest, 'gz', coded ?? undefined, to);
    return coded !== null;
  };
}

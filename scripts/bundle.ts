// Content -> bundles (site and sandbox). Run by `npm run build` as its own process, so its memory
// is returned before Astro renders the pages.
import { join } from 'node:path';
import { buildBundle } from '../src/build/bundle.ts';
import { CACHE_DIR, DIST, ROOTS } from '../src/build/roots.ts';
import { ContentErrors, FileError } from '../src/build/file-error.ts';

let siteUrl = process.env.SITE_URL;
const errors: FileError[] = [];
for (const root of ROOTS) {
  const t = performance.now();
  try {
    const result = await buildBundle({ contentDir: root.contentDir, outDir: DIST.bundle(root.name), base: root.base, siteUrl, cacheDir: CACHE_DIR, ...(process.env.FOLIO_LIVE_BUNDLES ? { liveDir: join(process.env.FOLIO_LIVE_BUNDLES, root.name) } : {}) });
    siteUrl ??= result.catalog.site_url;
    const s = result.stats;
    console.log(`bundle ${root.name}: ${s.posts} posts (${s.postsTaken} taken from the live build), ${s.entries} entries (${s.cacheHits} cached), image variants: ${s.imagesEncoded} encoded, ${s.imagesReused} from the cache, search indexes: ${s.searchTaken} of 14 taken from the live build (${s.searchUpdated} updated from it), in ${Math.round(performance.now() - t)} ms`);
  } catch (e) {
    // Content errors are the author's to fix: one line each, every root's, no stack trace.
    if (e instanceof ContentErrors) errors.push(...e.errors);
    else if (e instanceof FileError) errors.push(e);
    else throw e;
  }
}
if (errors.length > 0) {
  for (const e of errors) console.error(process.env.FOLIO_VERBOSE ? (e.stack ?? e.message) : e.message);
  console.error(`${errors.length} content error${errors.length > 1 ? 's' : ''}`);
  process.exit(1);
}
console.log(`site url ${siteUrl}`);
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (bundle)`);

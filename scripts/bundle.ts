// Content -> bundles (site and sandbox). Run by `npm run build` as its own process, so its memory
// is returned once it ends. Once every root's content is bundled it prints BUNDLE_READY, and the
// pages start while it writes the search indexes (what searches waits for its end).
import { join } from 'node:path';
import { BUNDLE_READY, bundleContent, type BundleContent } from '../src/pipeline/bundle.ts';
import { CACHE_DIR, DIST, ROOTS } from '../src/artefact/roots.ts';
import { ContentErrors, FileError } from '../src/pipeline/load/file-error.ts';
import { reportFileSystemFailures } from '../src/pipeline/fs-failure.ts';
import { scheduledLine } from '../src/pipeline/live/schedule.ts';

reportFileSystemFailures('bundle step: ');

let siteUrl = process.env.SITE_URL;
const errors: FileError[] = [];
const bundled: { name: string; content: BundleContent; ms: number }[] = [];
for (const root of ROOTS) {
  const t = performance.now();
  try {
    const content = await bundleContent({ contentDir: root.contentDir, outDir: DIST.bundle(root.name), base: root.base, siteUrl, cacheDir: CACHE_DIR, previews: process.env.FOLIO_DRAFTS === '1', otherBases: ROOTS.filter((r) => r !== root).map((r) => r.base), ...(root.base === '' ? { publicDir: 'public' } : {}), ...(process.env.FOLIO_LIVE_BUNDLES ? { liveDir: join(process.env.FOLIO_LIVE_BUNDLES, root.name) } : {}) });
    siteUrl ??= content.catalog.site_url;
    bundled.push({ name: root.name, content, ms: performance.now() - t });
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
for (const { name, content } of bundled) {
  for (const w of content.warnings) console.error(`warning: ${w}`);
  const { drafts, scheduled, next } = content.leftOut;
  if (drafts + scheduled > 0) console.log(`left out of ${name}: ${drafts} draft${drafts === 1 ? '' : 's'}, ${scheduled} scheduled`);
  if (next) console.log(scheduledLine(name, next));
}
console.log(BUNDLE_READY);
const t = performance.now();
// A shard of a sharded build but the first (FOLIO_NO_SEARCH_INDEXES): nothing of it searches, and the merge takes the first shard's.
const indexes = process.env.FOLIO_NO_SEARCH_INDEXES !== '1';
for (const { name, content, ms } of bundled) {
  const s = content.stats;
  const search = indexes ? await content.searchIndexes() : undefined;
  console.log(`bundle ${name}: ${s.posts} posts (${s.postsTaken} taken from the live build), ${s.entries} entries (${s.cacheHits} cached), image variants: ${s.imagesEncoded} encoded, ${s.imagesReused} from the cache, ${s.references} references checked in ${Math.round(s.checkMs)} ms, in ${Math.round(ms)} ms; ${search ? `search indexes: ${search.taken} of 14 taken from the live build (${search.updated} updated from it)` : 'search indexes: left to shard 1'}`);
}
console.log(`search indexes written in ${Math.round(performance.now() - t)} ms`);
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (bundle)`);

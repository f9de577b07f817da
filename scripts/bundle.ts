// Content -> bundles (site and sandbox). Run by `npm run build` as its own process, so its memory
// is returned once it ends. Once every root's content is bundled it prints BUNDLE_READY, and the
// pages start while it writes the search indexes (what searches waits for its end).
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { ShardPages } from '../src/site/page-reuse.ts';
import { bundleContent, type BundleContent } from '../src/pipeline/bundle.ts';
import { BUNDLE_READY } from '../src/pipeline/bundle-ready.ts';
import { CACHE_DIR, DIST, ROOTS } from '../src/artefact/roots.ts';
import { ContentErrors, FileError } from '../src/pipeline/load/file-error.ts';
import { reportFileSystemFailures } from '../src/pipeline/fs-failure.ts';
import { scheduledLine } from '../src/pipeline/live/schedule.ts';
import { readerBodiesDir } from '../src/site/reader-bodies.ts';
import { renderPool } from '../src/pipeline/derive/render-pool.ts';

reportFileSystemFailures('bundle step: ');

let siteUrl = process.env.SITE_URL;
const errors: FileError[] = [];
const bundled: { name: string; content: BundleContent; ms: number }[] = [];
// However the step ends (a content error in a later root, an exception, a failed index), no root's
// spilled search texts stay behind (bundleContent deletes those of a root that fails itself).
process.on('exit', () => {
  for (const { content } of bundled) content.discard();
});
// A shard of a sharded build (FOLIO_SHARD): its posts' entries made, the others outlined (bundle.ts).
const shard = process.env.FOLIO_SHARD ? (JSON.parse(readFileSync(process.env.FOLIO_SHARD, 'utf8')) as ShardPages) : undefined;
// Where unchanged posts' entries are taken from: the live build's bundles, or a merge's shards' (FOLIO_LIVE_BUNDLES, a path list).
const liveBundles = process.env.FOLIO_LIVE_BUNDLES?.split(delimiter);
// One set of render threads for every root: each thread's start (the Markdown stack loaded) is paid once.
const renders = renderPool();
for (const root of ROOTS) {
  const t = performance.now();
  try {
    const content = await bundleContent({ contentDir: root.contentDir, outDir: DIST.bundle(root.name), base: root.base, siteUrl, cacheDir: CACHE_DIR, previews: process.env.FOLIO_DRAFTS === '1', otherBases: ROOTS.filter((r) => r !== root).map((r) => r.base), ...(root.base === '' ? { publicDir: 'public' } : {}), ...(liveBundles ? { liveDirs: liveBundles.map((dir) => join(dir, root.name)) } : {}), ...(shard ? { only: new Set(shard.posts[root.name] ?? []) } : {}), ...(process.env.FOLIO_BUILD_DIR ? { readerDir: readerBodiesDir(process.env.FOLIO_BUILD_DIR, root.name) } : {}), renders });
    siteUrl ??= content.catalog.site_url;
    bundled.push({ name: root.name, content, ms: performance.now() - t });
  } catch (e) {
    // Content errors are the author's to fix: one line each, every root's, no stack trace.
    if (e instanceof ContentErrors) errors.push(...e.errors);
    else if (e instanceof FileError) errors.push(e);
    else throw e;
  }
}
await renders.close();
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
for (const { name, content, ms } of bundled) {
  const s = content.stats;
  // A shard: nothing of it searches; its posts' texts go to the merge, which indexes every post.
  const search = shard ? await content.searchTexts() : await content.searchIndexes();
  console.log(`bundle ${name}: ${s.posts} posts (${s.postsTaken} taken from ${liveBundles && liveBundles.length > 1 ? 'the shards' : 'the live build'}${shard ? `, ${s.postsOutlined} outlined for another shard` : ''}), ${s.entries} entries (${s.cacheHits} cached), image variants: ${s.imagesEncoded} encoded, ${s.imagesReused} from the cache, ${s.references} references checked in ${Math.round(s.checkMs)} ms, in ${Math.round(ms)} ms; ${search ? `search indexes: ${search.taken} of 14 taken from the live build (${search.updated} updated from it)` : 'search indexes: its posts\' texts for the merge'}`);
}
console.log(`search indexes written in ${Math.round(performance.now() - t)} ms`);
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (bundle)`);

// Content -> bundles (site and sandbox). Run by `npm run build` as its own process, so its memory
// is returned before Astro renders the pages.
import { buildBundle } from '../src/build/bundle.ts';
import { DIST, ROOTS } from '../src/build/roots.ts';

let siteUrl = process.env.SITE_URL;
for (const root of ROOTS) {
  const t = performance.now();
  const result = await buildBundle({ contentDir: root.contentDir, outDir: DIST.bundle(root.name), base: root.base, siteUrl, cacheDir: process.env.FOLIO_CACHE ?? '.folio-cache' });
  siteUrl ??= result.catalog.site_url;
  const s = result.stats;
  console.log(`bundle ${root.name}: ${s.posts} posts, ${s.entries} entries (${s.cacheHits} cached) in ${Math.round(performance.now() - t)} ms`);
}
console.log(`site url ${siteUrl}`);
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (bundle)`);

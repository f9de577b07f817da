// `npm run build`: content -> bundles (site and sandbox) -> Astro pages -> static API, feeds, media.
import { build } from 'astro';
import { buildBundle } from '../src/build/bundle.ts';
import { DIST, ROOTS } from '../src/build/roots.ts';

const started = performance.now();
let siteUrl = process.env.SITE_URL;
for (const root of ROOTS) {
  const t = performance.now();
  const result = await buildBundle({ contentDir: root.contentDir, outDir: DIST.bundle(root.name), base: root.base, siteUrl, cacheDir: process.env.FOLIO_CACHE ?? '.folio-cache' });
  siteUrl ??= result.catalog.site_url;
  const s = result.stats;
  console.log(`bundle ${root.name}: ${s.posts} posts, ${s.entries} entries (${s.cacheHits} cached) in ${Math.round(performance.now() - t)} ms`);
}
process.env.SITE_URL = siteUrl;
await build({ root: process.cwd(), logLevel: process.env.FOLIO_ASTRO_LOG === 'info' ? 'info' : 'warn' });
console.log(`build done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
// Peak resident memory of this process, for the build benchmark.
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);

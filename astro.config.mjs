// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// Pages are prerendered; only 404.astro renders on demand (unavailable translations, not-found).
// The front server (src/server) owns every global policy, so Astro runs in middleware mode.
export default defineConfig({
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  // The build being written (scripts/build.ts sets FOLIO_BUILD_DIR; see src/build/roots.ts).
  outDir: `${process.env.FOLIO_BUILD_DIR ?? `${process.env.FOLIO_OUT ?? 'dist'}/current`}/site`,
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // A public CORS-* API: Astro's origin check would refuse cross-site POSTs.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
  telemetry: false,
});

// @ts-check
import { defineConfig } from 'astro/config';

// Every page is prerendered (the not-found pages too): the server and the host adapters serve files.
export default defineConfig({
  output: 'static',
  // The build being written (scripts/build.ts sets FOLIO_BUILD_DIR; see src/artefact/roots.ts).
  outDir: `${process.env.FOLIO_BUILD_DIR ?? `${process.env.FOLIO_OUT ?? 'dist'}/current`}/site/client`,
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  trailingSlash: 'ignore',
  // A file per page, no folder each (src/site/page-specs.ts, pageFileAt).
  build: { format: 'file' },
  devToolbar: { enabled: false },
  telemetry: false,
  // Each build writes into a new folder, where the answers step (its own process) writes while Astro
  // renders: Astro must not empty it first.
  vite: { build: { emptyOutDir: false } },
});

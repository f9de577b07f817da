import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BuildLayout } from '../roots.ts';
import { mirror } from './files.ts';
import { clientFiles, readManifest } from '../client-files.ts';
import { bundleFunction, CDN_ASSETS, shipBuild } from './function-bundle.ts';

/**
 * A Netlify site in `outDir`: `netlify.toml`, `static/` (what the CDN serves as it is: assets,
 * media, `_headers`), `functions/folio.mjs` (a Functions 2.0 handler on every other path) and
 * `build/` (the build it serves, its included files). Deploy: `cd outDir && netlify deploy --prod`.
 */
export async function writeNetlify(layout: BuildLayout, roots: readonly string[], outDir: string): Promise<string> {
  await rm(outDir, { recursive: true, force: true });
  const assets = await mirror(clientFiles(layout, await readManifest(layout)), join(outDir, 'static'), (rel) => !CDN_ASSETS(rel));
  const shipped = await shipBuild(layout, roots, join(outDir, 'build'));
  const bytes = await bundleFunction(resolve('src/hosts/netlify/function.ts'), join(outDir, 'functions', 'folio.mjs'));
  await writeFile(
    join(outDir, 'netlify.toml'),
    [
      '# Written by `npm run build -- --target netlify`. Deploy from this folder: `netlify deploy --prod`.',
      '# Set EVENT_SIGNING_SECRET (and REDIS_URL for a rate limit shared by every instance) in the site settings.',
      '[build]',
      '  publish = "static"',
      '',
      '[functions]',
      '  directory = "functions"',
      '  node_bundler = "esbuild"',
      '',
      '[functions.folio]',
      '  included_files = ["build/**"]',
      '',
    ].join('\n'),
  );
  return `netlify: ${outDir}: function ${(bytes / 1024).toFixed(0)} KiB with ${shipped.files} build files; ${assets.files} files for the CDN`;
}

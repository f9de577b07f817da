import { rm, writeFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BuildLayout } from '../roots.ts';
import { CORS_HEADERS } from '../../app/policies/cors.ts';
import { SECURITY_HEADERS } from '../../app/policies/security.ts';
import { CACHE_IMMUTABLE } from '../publish/write-manifest.ts';
import { VARIANT_FOLDER } from '../../core/responsive-images.ts';
import { mirror } from './files.ts';
import { clientFiles, readManifest } from '../publish/client-files.ts';
import { bundleFunction, CDN_ASSETS, shipBuild } from './function-bundle.ts';

/** Build Output API v3: routes in order; the CDN's files first, then the function for everything else. */
export function vercelConfig(): object {
  const policy = { ...CORS_HEADERS, ...SECURITY_HEADERS };
  return {
    version: 3,
    routes: [
      { src: `^/(?:_astro|(?:sandbox/)?media/${VARIANT_FOLDER})/(.*)$`, headers: { ...policy, 'cache-control': CACHE_IMMUTABLE }, continue: true },
      { src: '^/(?:sandbox/)?media/(.*)$', headers: policy, continue: true },
      { handle: 'filesystem' },
      { src: '^/(.*)$', dest: '/folio' },
    ],
  };
}

/** The function's settings: Node, the Web handler (`fetch`), streamed answers (SSE). */
export const VC_CONFIG = { runtime: 'nodejs22.x', handler: 'index.mjs', launcherType: 'Nodejs', shouldAddHelpers: false, supportsResponseStreaming: true, maxDuration: 60 };

/**
 * A Vercel Build Output (`outDir` is `.vercel/output`): `config.json`, `static/` (assets, media,
 * favicon), and `functions/folio.func/` (the bundled handler, its `.vc-config.json` and the
 * build it serves). Deploy: `vercel deploy --prebuilt`.
 */
export async function writeVercel(layout: BuildLayout, roots: readonly string[], outDir: string): Promise<string> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const assets = await mirror(clientFiles(layout, await readManifest(layout)), join(outDir, 'static'), (rel) => !CDN_ASSETS(rel) || rel === '_headers');
  const func = join(outDir, 'functions', 'folio.func');
  const shipped = await shipBuild(layout, roots, join(func, 'build'));
  const bytes = await bundleFunction(resolve('src/hosts/vercel/function.ts'), join(func, 'index.mjs'));
  await writeFile(join(func, '.vc-config.json'), `${JSON.stringify(VC_CONFIG, null, 2)}\n`);
  await writeFile(join(outDir, 'config.json'), `${JSON.stringify(vercelConfig(), null, 2)}\n`);
  return `vercel: ${outDir}: function ${(bytes / 1024).toFixed(0)} KiB with ${shipped.files} build files (limit 250 MB unzipped); ${assets.files} files for the CDN`;
}

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { BuildLayout } from '../../artefact/roots.ts';
import { rejectBearer } from '../../app/policies/bearer.ts';
import { readManifest } from '../../artefact/client-files.ts';
import { artefactPath, bundleFunction, placeBuild, searchPagesOnly } from './function-bundle.ts';
import { folderBytes } from './files.ts';
import { placeArtefact, PRECOMPRESSED } from './static.ts';
import { NEGOTIATED_INDEXES } from './cdn-routes.ts';
import { BEARER_BODY, FUNCTION_PATH, vercelOverrides, vercelRoutes } from './vercel-config.ts';

/** The function's settings: Node, the Web handler (`fetch`), streamed answers (SSE). */
export const VC_CONFIG = { runtime: 'nodejs22.x', handler: 'index.mjs', launcherType: 'Nodejs', shouldAddHelpers: false, supportsResponseStreaming: true, maxDuration: 60 };

/**
 * A Vercel Build Output (`outDir` is `.vercel/output`): `static/`, the whole static artefact the
 * CDN serves (no precompressed copies: Vercel compresses), `config.json` (its routes and
 * overrides), and `functions/folio.func/`: the bundled handler and its `.vc-config.json`. The
 * function carries no build: it reads the one it computes from (manifest and bundles; of the site's
 * files the search pages, the API index's HTML and the not-found pages) from the CDN, where they
 * are placed under an unguessable path (`artefactPath`).
 * Deploy: `vercel deploy --prebuilt`.
 */
export async function writeVercel(layout: BuildLayout, roots: readonly string[], outDir: string): Promise<string> {
  await rm(outDir, { recursive: true, force: true });
  const manifest = await readManifest(layout);
  const site = join(outDir, 'static');
  const files = await placeArtefact(layout, manifest, site, (rel) => /^_(headers|redirects)$/.test(rel) || PRECOMPRESSED.test(rel));
  await mkdir(join(site, '_folio'), { recursive: true });
  await writeFile(join(site, BEARER_BODY), await rejectBearer('Bearer', '')!.text());
  const func = join(outDir, 'functions', `${FUNCTION_PATH.slice(1)}.func`);
  // The function negotiates the API index and the page URLs an agent asks JSON or Markdown of
  // (`codeRoutes`): the index's HTML and the not-found pages ship with it too.
  const search = searchPagesOnly(manifest);
  const indexes = NEGOTIATED_INDEXES.map((p) => manifest.paths[p]?.answers['']).flatMap((a) => (a && typeof a !== 'number' && a.html !== undefined ? [a.html] : []));
  const pages = new Set([...indexes, ...Object.values(manifest.notFound), ...Object.values(manifest.unavailable)].map((i) => manifest.files[i]!.file.slice(1)));
  const artefact = artefactPath();
  const placed = await placeBuild(layout, roots, join(site, artefact), (rel) => search(rel) || pages.has(rel.split(sep).join('/')));
  const bytes = await bundleFunction(resolve('src/hosts/vercel/function.ts'), join(func, 'index.mjs'), artefact);
  await writeFile(join(func, '.vc-config.json'), `${JSON.stringify(VC_CONFIG, null, 2)}\n`);
  const routes = vercelRoutes(manifest, await readFile(join(layout.client, '_redirects'), 'utf8'));
  await writeFile(join(outDir, 'config.json'), `${JSON.stringify({ version: 3, routes, overrides: vercelOverrides(manifest) }, null, 2)}\n`);
  const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
  return `vercel: ${outDir}: ${files + 1 + placed.files} files (${mb(await folderBytes(site))} MB) for the CDN, ${routes.length} routes; function ${(bytes / 1024).toFixed(0)} KiB of code, ${mb(await folderBytes(func))} MB (limit 250 MB unzipped), reading the build from the CDN (${placed.files} of those files, ${mb(placed.bytes)} MB)`;
}

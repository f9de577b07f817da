import { build } from 'esbuild';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { BuildLayout } from '../roots.ts';
import { mirror } from './files.ts';
import { clientFiles, folderFiles, readManifest, selfContained } from '../publish/client-files.ts';
import type { Manifest } from '../publish/manifest.ts';

/**
 * A serverless Node entry as one ES module (its dependencies inside), for hosts that run what
 * they are given (Vercel's Build Output) or re-bundle it (Netlify).
 */
export async function bundleFunction(entry: string, outfile: string): Promise<number> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'error',
    // Some dependencies are CommonJS and call require() for Node's modules.
    banner: { js: "import { createRequire as __folioRequire } from 'node:module'; const require = __folioRequire(import.meta.url);" },
  });
  return (await stat(outfile)).size;
}

/**
 * The build a function serves, as a folder beside it: manifest.json, bundle/ (without media), and
 * site/client, or only the files `siteFiles` keeps when the CDN serves the others (the function
 * computes every answer; a search page's answer is its published page with the results).
 */
export async function shipBuild(layout: BuildLayout, roots: readonly string[], to: string, siteFiles: (rel: string) => boolean = () => true): Promise<{ files: number; largest: number }> {
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  const manifest = await readManifest(layout);
  await writeFile(join(to, 'manifest.json'), JSON.stringify(selfContained(manifest)));
  const client = await mirror(clientFiles(layout, manifest), join(to, 'site', 'client'), (rel) => !siteFiles(rel));
  let files = client.files + 1;
  let largest = client.largest;
  for (const root of roots) {
    const b = await mirror(folderFiles(layout.bundle(root)), join(to, 'bundle', root), (rel) => rel.startsWith('media/'));
    files += b.files;
    largest = Math.max(largest, b.largest);
  }
  return { files, largest };
}

/**
 * The site files a function behind a CDN that serves every published file still needs (`shipBuild`'s
 * `siteFiles`): the search pages, whose answer is the published page with the results.
 */
export function searchPagesOnly(manifest: Manifest): (rel: string) => boolean {
  const pages = new Set(Object.values(manifest.paths).filter((e) => e.query === 'search').map((e) => manifest.files[e.answers[''] as number]!.file.slice(1)));
  return (rel) => pages.has(rel.split(sep).join('/'));
}

/** What the CDN serves without the function: fingerprinted assets, media, the favicons and the headers file. */
export const CDN_ASSETS = (rel: string) => /^(_astro\/|media\/|sandbox\/media\/|favicon\.(?:svg|ico)$|_headers$)/.test(rel);

import { hostReads } from '../../artefact/build-only.ts';
import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { BuildLayout } from '../../artefact/roots.ts';
import { folderBytes, mirror } from './files.ts';
import { clientFiles, folderFiles, readManifest, saveManifest, selfContained } from '../../artefact/client-files.ts';
import type { Manifest } from '../../artefact/manifest.ts';
import { staticOnly } from './cdn-routes.ts';

/**
 * A serverless Node entry as one ES module (its dependencies inside), for hosts that run what
 * they are given (Vercel's Build Output) or re-bundle it (Netlify); `artefactPath` is written in
 * as FOLIO_ARTEFACT_PATH, where the function reads the build from the CDN.
 */
export async function bundleFunction(entry: string, outfile: string, artefactPath: string): Promise<number> {
  await build({
    define: { FOLIO_ARTEFACT_PATH: JSON.stringify(artefactPath) },
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
 * Where a function's build is placed among the CDN's files: a path no one can guess (the build is
 * public content, but neither a page nor an API, and the function reads it from there), new for
 * each target written.
 */
export const artefactPath = () => `/_folio/a/${randomBytes(16).toString('hex')}`;

/**
 * The build a function reads, as a folder for the CDN to serve (`artefactPath`): the manifest,
 * bundle/ (without media, which the site has, and the files only a build reads: hostReads), and of site/client only the files `siteFiles` keeps
 * (the function computes every answer; a search page's answer is its published page with the
 * results). The function carries none of it.
 */
export async function placeBuild(layout: BuildLayout, roots: readonly string[], to: string, siteFiles: (rel: string) => boolean): Promise<{ files: number; bytes: number }> {
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  const manifest = await readManifest(layout);
  const written = await saveManifest(to, selfContained(manifest));
  const client = await mirror(clientFiles(layout, manifest), join(to, 'site', 'client'), (rel) => !siteFiles(rel));
  let files = client.files + written;
  for (const root of roots) files += (await mirror(folderFiles(layout.bundle(root)), join(to, 'bundle', root), (rel) => !hostReads(rel))).files;
  return { files, bytes: await folderBytes(to) };
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
export const CDN_ASSETS = (rel: string) => rel === '_headers' || staticOnly(`/${rel.split(sep).join('/')}`);

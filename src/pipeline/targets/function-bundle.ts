import { build } from 'esbuild';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { dirname, join, sep } from 'node:path';
import type { BuildLayout } from '../../artefact/roots.ts';
import { mirror } from './files.ts';
import { clientFiles, folderFiles, readManifest, selfContained } from '../../artefact/client-files.ts';
import type { Manifest } from '../../artefact/manifest.ts';
import { PACKED } from '../../bundle/load-bundle.ts';

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

/** A bundle file brotli-compressed beside where it would be (`{to}.br`, which `diskBundle` reads); a fast level: the host decompresses it on every cold start. */
async function pack(from: string, to: string): Promise<void> {
  const bytes = await readFile(from);
  await mkdir(dirname(to), { recursive: true });
  await writeFile(`${to}${PACKED}`, await brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
}
const brotli = promisify(brotliCompress);

/**
 * The build a function serves, as a folder beside it: manifest.json, bundle/ (without media), and
 * site/client, or only the files `siteFiles` keeps when the CDN serves the others (the function
 * computes every answer; a search page's answer is its published page with the results).
 * `packed`: the bundle's files brotli-compressed (a third of their size), for a host that limits
 * a function's unzipped size.
 */
export async function shipBuild(layout: BuildLayout, roots: readonly string[], to: string, siteFiles: (rel: string) => boolean = () => true, packed = false): Promise<{ files: number; largest: number }> {
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  const manifest = await readManifest(layout);
  await writeFile(join(to, 'manifest.json'), JSON.stringify(selfContained(manifest)));
  const client = await mirror(clientFiles(layout, manifest), join(to, 'site', 'client'), (rel) => !siteFiles(rel));
  let files = client.files + 1;
  let largest = client.largest;
  for (const root of roots) {
    const bundle = folderFiles(layout.bundle(root)).filter(({ rel }) => !rel.startsWith('media/'));
    if (packed) for (const f of bundle) await pack(f.path, join(to, 'bundle', root, f.rel));
    const b = packed ? { files: bundle.length, largest: 0 } : await mirror(bundle, join(to, 'bundle', root));
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

import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BuildLayout } from '../../artefact/roots.ts';
import { readManifest } from '../../artefact/client-files.ts';
import type { Manifest } from '../../artefact/manifest.ts';
import { artefactPath, bundleFunction, placeBuild, searchPagesOnly } from './function-bundle.ts';
import { rewrites, writeStatic } from './static.ts';
import { API_PREFIXES, computedPaths, computedQueries, FUNCTION_PREFIX, NEGOTIATED_INDEXES, NEGOTIATED_PAGES, negotiatedFiles, queryRules } from './cdn-routes.ts';
import { CACHE_PUBLIC } from '../../../functions/http.ts';

/** A Functions 2.0 `config`: the computed paths, and the prefix `_redirects` rewrites computed queries to. */
export function functionConfig(manifest: Manifest): { path: string[]; preferStatic: boolean } {
  return { path: [...computedPaths(manifest), `${FUNCTION_PREFIX}/*`], preferStatic: false };
}

/**
 * `_redirects` after the build's own (`/en` to the root): each published answer to a query by its
 * parameters (most specific first; Netlify matches a rule whose parameters the request carries, in
 * any order, with the values as written), then any other value of a parameter the path reads to
 * the function, then each published URL to its file. No catch-all sends unknown API paths to the
 * function: it would also catch the published files under them (Netlify's local emulation ignores
 * shadowing for rewrites to functions), so they get the CDN's 404 page.
 */
export function netlifyRedirects(manifest: Manifest, base: string): string {
  const query = queryRules(manifest).map((r) => `${r.template} ${r.params.map(([k, v]) => `${k}=${v}`).join(' ')} ${r.file} 200`);
  const computed = computedQueries(manifest).map(([pattern, param]) => ({ param, rule: `${pattern} ${param}=:value ${FUNCTION_PREFIX}${pattern} 200` }));
  // A parameter no published query has (`per_page`) goes to the function before any published
  // answer's rule could match the request's other parameters.
  const unpublished = (param: string) => !query.some((r) => r.includes(` ${param}=`));
  const first = computed.filter((c) => unpublished(c.param)).map((c) => c.rule);
  const then = computed.filter((c) => !unpublished(c.param)).map((c) => c.rule);
  return `${base}${[...first, ...query, ...then, ...rewrites(manifest)].join('\n')}\n`;
}

/**
 * `_headers` after the static target's (CORS, security, exact types): the `Cache-Control` Node
 * sends, by pattern for the API folders (every answer there is a JSON read) and by URL elsewhere,
 * and `Vary: Accept` where `Accept` chooses the answer. No two blocks give one URL the same header.
 */
export function netlifyHeaders(manifest: Manifest, base: string): string {
  const blocks = API_PREFIXES.map((p) => `${p}/*\n  cache-control: ${CACHE_PUBLIC}`);
  for (const [path, entry] of Object.entries(manifest.paths)) {
    if (API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) continue;
    const answer = entry.answers[''];
    const i = typeof answer === 'number' ? answer : answer?.[entry.offers![0]!];
    if (i === undefined) continue;
    const { file, cacheControl } = manifest.files[i]!;
    const headers = [`  cache-control: ${cacheControl}`, ...(entry.offers ? ['  vary: Accept'] : [])];
    // A rule's target is matched too (a rewritten URL takes the headers of its file), a page's never is.
    const page = file.endsWith('.html');
    for (const at of page || file === path ? [path] : [path, file]) blocks.push([at, ...headers].join('\n'));
  }
  return `${base}${blocks.join('\n')}\n`;
}

/** An edge function as one ES module for Deno, its declaration (`config`) written after it as a literal. */
export async function bundleEdge(name: string, outDir: string, config: object, define: Record<string, string> = {}, entry = name): Promise<void> {
  const outfile = join(outDir, 'edge-functions', `${name}.js`);
  await build({ entryPoints: [resolve(`src/hosts/netlify/edge/${entry}.ts`)], outfile, bundle: true, platform: 'neutral', format: 'esm', target: 'es2022', logLevel: 'error', define });
  await writeFile(outfile, `${await readFile(outfile, 'utf8')}export const config = ${JSON.stringify(config)};\n`);
}

/**
 * Where the API indexes' pages are copied for the CDN: at `{index}/index.html` the API folders'
 * `Cache-Control` block would match them too (Netlify joins both values), so the negotiation
 * rewrites a browser's request to a copy outside them.
 */
const indexPage = (path: string) => `/_folio/pages${path}.html`;

/** Negotiated URL -> each offer's file where the static artefact has it (a page at `{path}/index.html`). */
function negotiatedPlaced(manifest: Manifest): ReturnType<typeof negotiatedFiles> {
  const files = negotiatedFiles(manifest);
  for (const [path, offers] of Object.entries(files)) {
    if (offers.html) offers.html = NEGOTIATED_INDEXES.includes(path) ? indexPage(path) : `${path.replace(/\/$/, '')}/index.html`;
  }
  return files;
}

/** The API indexes' pages copied to `indexPage`, with their own `Cache-Control` (`_headers` blocks). */
async function placeIndexPages(manifest: Manifest, site: string): Promise<string[]> {
  const blocks: string[] = [];
  for (const path of NEGOTIATED_INDEXES) {
    const answer = manifest.paths[path]?.answers[''];
    const html = typeof answer === 'object' ? answer.html : undefined;
    if (html === undefined) continue;
    await mkdir(join(site, indexPage(path), '..'), { recursive: true });
    await copyFile(join(site, path, 'index.html'), join(site, indexPage(path)));
    blocks.push(`${indexPage(path)}\n  cache-control: ${manifest.files[html]!.cacheControl}`);
  }
  return blocks;
}


/**
 * The rate-limit edge function's declaration (the API's paths) and the build's limits written into
 * it, for a build that has the Upstash store and a limit (Netlify's build sees the site's
 * variables); otherwise none, so no request pays for an edge function that would count nothing.
 */
export function rateLimitDeclaration(manifest: Pick<Manifest, 'limits'>, env: Readonly<Record<string, string | undefined>> = process.env): { config: { path: string[] }; define: Record<string, string> } | undefined {
  if (!env.UPSTASH_REDIS_REST_URL || manifest.limits.rateLimit <= 0) return undefined;
  return { config: { path: API_PREFIXES.flatMap((p) => [p, `${p}/*`]) }, define: { FOLIO_LIMITS: JSON.stringify(manifest.limits) } };
}

/**
 * A Netlify site in `outDir`: `netlify.toml`; `static/`, the whole static artefact the CDN serves
 * (`--target static`'s, with Netlify's `_redirects` and `_headers`); `edge-functions/` (the bearer
 * 401 on requests with `Authorization`, the OPTIONS preflight, negotiation on `Accept` naming JSON
 * or Markdown); `functions/folio.mjs`, one Functions 2.0 handler on the computed paths only, which
 * carries no build: it reads the manifest and bundles from the CDN, where they are placed under an
 * unguessable path (`artefactPath`). Deploy: `netlify deploy --prod`.
 */
export async function writeNetlify(layout: BuildLayout, roots: readonly string[], outDir: string): Promise<string> {
  await rm(outDir, { recursive: true, force: true });
  const site = join(outDir, 'static');
  await writeStatic(layout, site, { withFunctions: true });
  const manifest = await readManifest(layout);
  await writeFile(join(site, '_redirects'), netlifyRedirects(manifest, await readFile(join(layout.client, '_redirects'), 'utf8')));
  const indexBlocks = await placeIndexPages(manifest, site);
  await writeFile(join(site, '_headers'), `${netlifyHeaders(manifest, await readFile(join(site, '_headers'), 'utf8'))}${indexBlocks.join('\n')}\n`);
  const artefact = artefactPath();
  const placed = await placeBuild(layout, roots, join(site, artefact), searchPagesOnly(manifest));
  const config = functionConfig(manifest);
  // Netlify reads `config` from the entry's source as a literal: a two-line entry holds it, and
  // imports the bundled app (outside the functions folder, which would make it a function too).
  const app = join(outDir, 'function', 'folio.mjs');
  const bytes = await bundleFunction(resolve('src/hosts/netlify/function.ts'), app, artefact);
  await mkdir(join(outDir, 'functions'), { recursive: true });
  await writeFile(join(outDir, 'functions', 'folio.mjs'), `export { default } from '../function/folio.mjs';\nexport const config = ${JSON.stringify(config)};\n`);
  await bundleEdge('bearer', outDir, { path: '/*', header: { authorization: true } });
  await bundleEdge('preflight', outDir, { path: '/*', method: 'OPTIONS' });
  const negotiated = { FOLIO_NEGOTIATED: JSON.stringify(negotiatedPlaced(manifest)) };
  await bundleEdge('negotiate', outDir, { path: NEGOTIATED_PAGES, header: { accept: '(json|markdown)' } }, negotiated);
  await bundleEdge('negotiate-index', outDir, { path: NEGOTIATED_INDEXES }, negotiated, 'negotiate');
  const counting = rateLimitDeclaration(manifest);
  if (counting) await bundleEdge('rate-limit', outDir, counting.config, counting.define);
  await writeFile(
    join(outDir, 'netlify.toml'),
    [
      '# Written by `npm run build -- --target netlify`. Deploy from this folder: `netlify deploy --prod`.',
      '# Set EVENT_SIGNING_SECRET (streams) in the site settings, and for the rate limit either UPSTASH_REDIS_REST_URL and',
      '# UPSTASH_REDIS_REST_TOKEN (before the build: an edge function then counts every API request) or REDIS_URL (what the function answers).',
      '[build]',
      '  publish = "static"',
      '  edge_functions = "edge-functions"',
      '',
      '[functions]',
      '  directory = "functions"',
      '  node_bundler = "esbuild"',
      '',
    ].join('\n'),
  );
  return `netlify: ${outDir}: function ${(bytes / 1024).toFixed(0)} KiB of code (no build files) on ${config.path.length} paths; the CDN serves the rest, and the build it reads (${placed.files} files, ${(placed.bytes / 1024 / 1024).toFixed(1)} MB)`;
}

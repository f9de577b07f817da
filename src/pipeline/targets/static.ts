import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { LANGUAGES } from '../../core/languages.ts';
import { messages } from '../../core/messages.ts';
import { escapeHtml } from '../../site/html.ts';
import { RESULTS_SLOT } from '../../site/search-results.ts';
import { staticNginxConf } from './static-nginx.ts';
import { staticCaddyfile } from './static-caddy.ts';
import { staticHostRules } from './static-host-rules.ts';
import { FRONT_DEFAULTS, keepOptions, keptOptions } from './front.ts';
import type { Manifest } from '../../artefact/manifest.ts';
import type { BuildLayout } from '../../artefact/roots.ts';
import { mirror, place } from './files.ts';
import { clientFiles, fileAt, readManifest } from '../../artefact/client-files.ts';
import { gzipOnDemand } from '../../artefact/gzip-coding.ts';
import { gzipCopies } from './gzip-copies.ts';
import { answerFile } from '../publish/answer-file.ts';
import { pageAt, pageFileAt } from '../../site/page-specs.ts';
import { HOST_FILES } from '../publish/write-manifest.ts';

/** Where a host that serves files by their URL finds a page (the build's `/x.html`): `/x/index.html` (or `/x.html.br` at `/x/index.html.br`). */
export function pageFolder(rel: string): string {
  const name = `/${rel.split(sep).join('/')}`;
  const variant = /\.(br|gz)$/.exec(name)?.[0] ?? '';
  const file = name.slice(0, name.length - variant.length);
  const dir = HOST_FILES.includes(file) ? undefined : pageAt(file);
  return dir ? `${dir.slice(1)}/index.html${variant}` : rel;
}

/**
 * The published URLs whose default answer is in a file a host would not find by itself
 * (`/api/posts` is `/api/posts/index.json`): `[url, file]`. A page is placed where it finds it
 * (`/x/index.html`); answers to a query have a path form of their own,
 * `{path}/_query/{canonical query}.json`, needing no rule.
 */
export function rewriteTargets(manifest: Manifest): [string, string][] {
  const targets: [string, string][] = [];
  for (const [path, entry] of Object.entries(manifest.paths)) {
    const answer = entry.answers[''];
    if (answer === undefined) continue;
    const i = typeof answer === 'number' ? answer : answer[entry.offers![0]!];
    const file = i === undefined ? undefined : manifest.files[i]!.file;
    if (!file || file === path || file === pageFileAt(path)) continue;
    targets.push([path, file]);
  }
  return targets.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `_redirects` rewrites (status 200) from each URL of `rewriteTargets` to its file. */
export const rewrites = (manifest: Manifest): string[] => rewriteTargets(manifest).map(([path, file]) => `${path} ${file} 200`);

/**
 * Answers to a query that share another answer's file (src/pipeline/publish/publisher.ts), as the file a
 * static host serves at their own documented name, with its variants: `[name, shared file]`.
 */
export function sharedAnswerNames(manifest: Manifest): [string, string][] {
  const names: [string, string][] = [];
  for (const [path, entry] of Object.entries(manifest.paths)) {
    for (const [query, i] of Object.entries(entry.answers)) {
      if (!query || typeof i !== 'number') continue;
      const f = manifest.files[i]!;
      const own = answerFile(path, query, f.type);
      if (own === f.file) continue;
      names.push([own, f.file]);
      if (f.br !== undefined) names.push([`${own}.br`, `${f.file}.br`]);
      if (f.gzip !== undefined || gzipOnDemand(f)) names.push([`${own}.gz`, `${f.file}.gz`]);
    }
  }
  return names;
}

/**
 * The type a static host gives a file by its extension (what it serves when `_headers` says nothing),
 * as Netlify sends it: UTF-8 named for text types but not for XML, which a parser reads from the file.
 */
const HOST_TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml',
  ico: 'image/vnd.microsoft.icon',
};

/** A file a host would serve with another type than its own, or without its extra headers, and the URLs it answers. */
export interface RetypedFile {
  file: string;
  type: string;
  headers: Record<string, string>;
  urls: string[];
}

/** The files a host would type otherwise by their extension (feeds are RSS, the API catalog a linkset) or serve without their extra headers (its Link). */
export function retypedFiles(manifest: Manifest): RetypedFile[] {
  const urls = new Map<number, string[]>();
  for (const [path, entry] of Object.entries(manifest.paths)) {
    const answer = entry.answers[''];
    if (typeof answer === 'number') urls.set(answer, [...(urls.get(answer) ?? []), path]);
  }
  return manifest.files.flatMap((f, i) => {
    const expected = HOST_TYPES[f.file.split('.').pop() ?? ''];
    if (!expected || (f.type.toLowerCase() === expected && !f.headers)) return [];
    return [{ file: f.file, type: f.type, headers: f.headers ?? {}, urls: urls.get(i) ?? [] }];
  });
}

/** `_headers` blocks giving each retyped file its type and headers, at its URLs and at the file. */
export function typeRules(manifest: Manifest): string[] {
  return retypedFiles(manifest).flatMap(({ file, type, headers, urls }) => {
    const lines = [`  Content-Type: ${type}`, ...Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`)];
    return [...new Set([...urls, file])].map((url) => [url, ...lines].join('\n'));
  });
}

/**
 * The search pages of a copy nothing answers searches for: the form hidden, and in its place the
 * page's language saying so (a search on a static host would otherwise show the form, never an answer).
 * Their files are linked from the build: each is replaced, not written through, with its br/gzip made again.
 */
async function staticSearchPages(outDir: string, pages: string[]): Promise<number> {
  let changed = 0;
  for (const page of pages) {
    const html = await readFile(join(outDir, page), 'utf8');
    if (!html.includes(RESULTS_SLOT)) continue;
    const htmlLang = /<html lang="([^"]+)"/.exec(html)?.[1];
    const lang = LANGUAGES.find((l) => l.html_lang === htmlLang)?.code ?? 'en';
    const notice = `<div id="search-region"><p class="search-unavailable">${escapeHtml(messages(lang).searchNeedsServer)}</p></div>`;
    const bytes = Buffer.from(html.replace(RESULTS_SLOT, notice).replace('<form role="search" class="search"', '<form role="search" class="search" hidden'));
    for (const [suffix, coded] of [['', bytes], ['.br', brotliCompressSync(bytes)], ['.gz', gzipSync(bytes, { level: 9 })]] as const) {
      await rm(join(outDir, page + suffix), { force: true });
      await writeFile(join(outDir, page + suffix), coded);
    }
    changed++;
  }
  return changed;
}

/**
 * The artefact's files in `outDir` as a host serving files by their URL finds them: each page at
 * `{path}/index.html`, each answer to a query at its own name (linked, not copied, where the
 * folders share a file system); `skip` by the relative path placed. How many files.
 */
export async function placeArtefact(layout: BuildLayout, manifest: Manifest, outDir: string, skip: (rel: string) => boolean): Promise<number> {
  const files = clientFiles(layout, manifest);
  const copied = await mirror(files, outDir, (rel) => skip(pageFolder(rel)), pageFolder);
  const at = new Map(files.map((f) => [`/${f.rel}`, f.path]));
  // The gzip copies a build no longer stores, for the plain servers that serve them (where not skipped).
  const gzip = gzipCopies();
  let made = 0;
  for (const f of manifest.files) {
    const rel = `${f.file.slice(1)}.gz`;
    if (!gzipOnDemand(f) || skip(pageFolder(rel))) continue;
    const to = join(outDir, pageFolder(rel));
    if (!(await gzip(fileAt(layout, manifest, f), f, to))) continue;
    at.set(`/${rel}`, to);
    made++;
  }
  const shared = sharedAnswerNames(manifest).filter(([name, file]) => !skip(name.slice(1)) && at.has(file));
  for (const [name, file] of shared) await place(at.get(file)!, join(outDir, name));
  return copied.files + made + shared.length;
}

/** A file's precompressed copies (`x.json.br`, `x.json.gz`), which a host that compresses its answers does not need. */
export const PRECOMPRESSED = /\.(br|gz)$/;

/**
 * A host with no functions (GitHub Pages, S3, Netlify or Cloudflare Pages without functions):
 * the static artefact as it is, with `_redirects` also rewriting each published URL to its file,
 * search pages saying that search needs the server, and beside it (`{outDir}-hosts/`) an nginx
 * configuration and a Caddyfile serving it as it is, for hosts that read neither `_headers` nor `_redirects`.
 * `withFunctions` (Netlify): the same files for a CDN in front of Folio's function, which answers
 * searches, so the search pages keep their form and no server configuration is written; and
 * without the precompressed copies (`.br`, `.gz`): that CDN compresses what it serves itself.
 */
export async function writeStatic(layout: BuildLayout, outDir: string, options: { listen?: string; withFunctions?: boolean } = {}): Promise<string> {
  await rm(outDir, { recursive: true, force: true });
  const manifest = await readManifest(layout);
  const files = clientFiles(layout, manifest);
  const placed = await placeArtefact(layout, manifest, outDir, (rel) => rel === '_redirects' || rel === '_headers' || (options.withFunctions === true && PRECOMPRESSED.test(rel)));
  const rules = rewrites(manifest);
  const redirects = await readFile(join(layout.client, '_redirects'), 'utf8');
  await writeFile(join(outDir, '_redirects'), `${redirects}${rules.join('\n')}\n`);
  const types = typeRules(manifest);
  const headers = await readFile(join(layout.client, '_headers'), 'utf8');
  await writeFile(join(outDir, '_headers'), `${headers}${types.join('\n')}\n`);
  if (options.withFunctions) return `static: ${outDir}: ${placed + 2} files, ${rules.length} rewrites in _redirects, ${types.length} type rules in _headers`;
  const search = await staticSearchPages(outDir, files.map((f) => pageFolder(f.rel)).filter((rel) => rel.endsWith('/index.html') && /(^|\/)search\/index\.html$/.test(rel)));
  const hosts = `${outDir}-hosts`;
  // --listen when given, else the address these configurations were written with before.
  const { listen } = await keptOptions(hosts, { listen: options.listen }, { listen: FRONT_DEFAULTS.listen });
  await rm(hosts, { recursive: true, force: true });
  for (const dir of ['logs', 'tmp']) await mkdir(join(hosts, dir), { recursive: true });
  const hostRules = staticHostRules(manifest, HOST_TYPES, `${headers}${types.join('\n')}\n`, `${redirects}${rules.join('\n')}\n`);
  await writeFile(join(hosts, 'nginx.conf'), staticNginxConf(hostRules, resolve(outDir), listen));
  await writeFile(join(hosts, 'Caddyfile'), staticCaddyfile(hostRules, resolve(outDir), listen));
  await keepOptions(hosts, { listen });
  return `static: ${outDir}: ${placed + 2} files, ${rules.length} rewrites in _redirects, ${types.length} type rules in _headers, ${search} search pages saying search needs the server; ${hosts}/nginx.conf and ${hosts}/Caddyfile serve it on a plain nginx or Caddy on ${listen} (nginx -p ${hosts} -c nginx.conf; caddy run --config ${hosts}/Caddyfile --adapter caddyfile)`;
}

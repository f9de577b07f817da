import { readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { saveManifest } from '../../artefact/client-files.ts';
import { filesUnder } from '../../fs/files-under.ts';
import { canonicalQuery } from '../../core/params.ts';
import { LANGUAGE_CODES } from '../../core/languages.ts';
import { availableLanguages } from '../../core/availability.ts';
import { paths } from '../../core/urls.ts';
import type { Core } from '../../core/index.ts';
import { CACHE_PUBLIC } from '../../../functions/http.ts';
import { isCompressible, MANIFEST_VERSION, variantSuffixes, type Manifest, type ManifestFile, type ManifestPath } from '../../artefact/manifest.ts';
import type { PublishedAnswer } from './publisher.ts';
import { NOT_FOUND_SEGMENT, pageAt, SEARCH_SEGMENT } from '../../site/page-specs.ts';
import { VARIANT_FOLDER } from '../../core/responsive-images.ts';
import { FEEDS } from '../../core/formats.ts';
import type { variantWriter } from './file-variants.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.vtt': 'text/vtt; charset=utf-8',
  '.pdf': 'application/pdf',
  '.woff2': 'font/woff2',
};

/** A feed is a file of FEEDS' names outside the media folders (an author's feed.json stays JSON). */
const feedOf = (file: string) => (file.includes('/media/') ? undefined : FEEDS.find((f) => file.endsWith(`/${f.file}`)));
const typeOf = (file: string) => {
  const feed = feedOf(file);
  return feed ? `${feed.mediaType}; charset=utf-8` : TYPES[extname(file)] ?? 'application/octet-stream';
};

/**
 * Caching of the static files. Pages revalidate at once in browsers; every public read may be kept
 * by shared caches and served stale while they refetch. Files named by their content never change.
 */
export const CACHE_PAGE = 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400';
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_MEDIA = 'public, max-age=3600, s-maxage=86400, stale-while-revalidate=86400';

function cacheControlOf(sitePath: string, type: string): string {
  // Astro's assets and the image variants are named by their content.
  if (sitePath.includes('/_astro/') || sitePath.includes(`/media/${VARIANT_FOLDER}/`)) return CACHE_IMMUTABLE;
  if (type.startsWith('text/html')) return CACHE_PAGE;
  if (sitePath.includes('/media/') || /^(image|video|font)\//.test(type)) return CACHE_MEDIA;
  return CACHE_PUBLIC;
}

/** Files a static host reads as its configuration (publish/host-files.ts), never served as content. */
export const HOST_FILES = ['/_headers', '/_redirects', '/404.html'];

const segmentsIn = (dir: string, base: string) => (base && (dir === base || dir.startsWith(`${base}/`)) ? dir.slice(base.length) : dir).split('/').filter(Boolean);
const isLanguage = (seg: string | undefined) => seg !== undefined && LANGUAGE_CODES.includes(seg);

/** A not-found page: the language's (`<prefix>/_not-found.html`) or a post's unavailable one (`<prefix>/_not-found/<slug>.html`). */
const NOT_FOUND_PAGE = new RegExp(`^(.*)/${NOT_FOUND_SEGMENT}(?:/([^/]+))?\\.html$`);

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Homes carry a trailing slash; every other page does not. */
function pageKey(dir: string, base: string): string {
  const segs = segmentsIn(dir, base);
  const home = segs.length === 0 || (segs.length === 1 && isLanguage(segs[0]));
  return home ? `${dir}/` : dir || '/';
}

/** A search page answers its form as published; with a query, the search page function answers. */
function pageShape(dir: string, base: string): ManifestPath['query'] {
  const segs = segmentsIn(dir, base);
  const search = segs.at(-1) === SEARCH_SEGMENT && (segs.length === 1 || (segs.length === 2 && isLanguage(segs[0])));
  return search ? 'search' : 'none';
}

export interface ManifestInput {
  build: string;
  clientDir: string;
  answers: PublishedAnswer[];
  cores: Core[];
  limits: Manifest['limits'];
  configDependent: string[];
  /** The files written so far with their facts; the manifest adds the rest. */
  written: ReturnType<typeof variantWriter>;
}

/** Post and page URLs answer their page, the API's detail in their language, or the Markdown twin, by Accept. */
function negotiate(out: Record<string, ManifestPath>, cores: Core[]): void {
  for (const core of cores) {
    const scope = core.catalog;
    const entries = [...scope.posts.map((post) => ({ post, api: 'posts' })), ...scope.pages.map((post) => ({ post, api: 'pages' }))];
    for (const { post, api } of entries) {
      for (const lang of availableLanguages(post, core.index.policy)) {
        const page = paths.post(scope, post.slug, lang);
        const html = out[page]?.answers[''];
        const json = out[`${scope.base}/api/${api}/${post.slug}`]?.answers[canonicalQuery('content', new URLSearchParams({ lang }))];
        const markdown = out[paths.markdown(scope, post.slug, lang)]?.answers[''];
        if (typeof html === 'number' && typeof json === 'number' && typeof markdown === 'number') {
          out[page] = { query: 'none', offers: ['html', 'json', 'markdown'], answers: { '': { html, json, markdown } } };
        }
      }
    }
  }
}

/**
 * Describes every published file (type, ETag, caching, precompressed br/gzip variants) and every
 * URL that serves one, then writes the manifest beside the client folder.
 */
export async function writeManifest(input: ManifestInput, manifestFile: string): Promise<Manifest> {
  const files: ManifestFile[] = [];
  const byFile = new Map<string, number>();
  const addFile = (file: string, type: string, cacheControl: string, headers?: Record<string, string>) => {
    let i = byFile.get(file);
    if (i === undefined) {
      i = files.push({ file, type, etag: '', length: 0, cacheControl, ...(headers ? { headers } : {}) }) - 1;
      byFile.set(file, i);
    }
    return i;
  };
  const pathsOut: Record<string, ManifestPath> = {};
  const notFound: Record<string, number> = {};
  const unavailable: Record<string, number> = {};
  const keyed = (path: string, query: ManifestPath['query']) => (pathsOut[path] ??= { query, answers: {} });

  // In request order, whatever order they were made or linked in: the same answers give the same manifest.
  const ordered = [...input.answers].sort((a, b) => (a.path === b.path ? compare(a.query, b.query) : compare(a.path, b.path)));
  for (const a of ordered) keyed(a.path, a.shape).answers[a.query] = addFile(a.file, a.type, a.cacheControl, a.headers);
  const bases = input.cores.map((c) => c.catalog.base).sort((a, b) => b.length - a.length);
  const answerFiles = new Set(input.answers.map((a) => a.file));
  // Read at once (nothing else of the build runs now), in name order: a folder lists its files in the
  // order they were made (a small one, on ext4), and a build links what a clean build writes.
  // With the files this build keeps in an earlier build's folder (reuse.ts), as if they were here.
  const held = [...input.written.facts].filter(([, f]) => f.holder !== undefined);
  const walked = [...filesUnder(input.clientDir), ...held.flatMap(([file, f]) => variantSuffixes(f).map((suffix) => `${file}${suffix}`))].sort();
  const all = new Set(walked);
  for (const file of walked) {
    // Precompressed variants are described with the file they encode, never served by name.
    if (answerFiles.has(file) || HOST_FILES.includes(file) || (/\.(br|gz)$/.test(file) && all.has(file.slice(0, -3)))) continue;
    const type = typeOf(file);
    const missing = NOT_FOUND_PAGE.exec(file);
    if (missing) {
      const [, prefix, slug] = missing;
      if (slug) unavailable[`${prefix}/${slug}`] = addFile(file, type, 'no-store');
      else notFound[prefix!] = addFile(file, type, 'no-store');
      continue;
    }
    const i = addFile(file, type, cacheControlOf(file, type));
    const dir = pageAt(file);
    if (dir !== undefined) {
      const base = bases.find((b) => b && (dir === b || dir.startsWith(`${b}/`))) ?? '';
      const key = pageKey(dir, base);
      const json = pathsOut[key]?.answers[''];
      // A page at an answer's path (/api): the JSON stays the default, HTML when preferred.
      if (typeof json === 'number') pathsOut[key] = { query: 'none', offers: ['json', 'html'], answers: { '': { json, html: i } } };
      else keyed(key, pageShape(dir, base)).answers[''] = i;
    } else keyed(file, 'none').answers[''] = i;
  }
  negotiate(pathsOut, input.cores);

  // Files the build's other steps wrote (Astro's pages and assets, media): read once for their facts,
  // synchronously: a page is read in microseconds, less than the four trips through libuv's pool
  // (open, stat, read, close) a promised read takes, and every page Astro wrote is read here.
  for (const f of files) {
    if (!input.written.facts.has(f.file)) await input.written.add(f.file, async () => readFileSync(join(input.clientDir, f.file)), isCompressible(f.type), true);
  }
  await input.written.flush();
  const holders = [...new Set(held.map(([, f]) => f.holder!))].sort();
  for (const f of files) {
    const { holder, ...facts } = input.written.facts.get(f.file)!;
    Object.assign(f, facts, holder === undefined ? {} : { held: holders.indexOf(holder) });
  }

  const manifest: Manifest = {
    version: MANIFEST_VERSION,
    build: input.build,
    created: new Date().toISOString(),
    limits: input.limits,
    configDependent: input.configDependent,
    files,
    holders,
    paths: pathsOut,
    notFound,
    unavailable,
  };
  await saveManifest(dirname(manifestFile), manifest);
  return manifest;
}

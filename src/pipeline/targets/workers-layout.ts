import type { Manifest, ManifestFile } from '../../artefact/manifest.ts';
import { PRIVATE_PREFIX } from '../../hosts/cloudflare/assets-bundle.ts';
import { staticOnly } from './cdn-routes.ts';

/**
 * Where the Workers target puts each file of a build, and the manifest the worker reads, which
 * names each file where it was put. Pure: the build's manifest in, plain data out.
 *
 * - Public (the assets serve them at their URL, without the worker): the static-only files and the
 *   pages, a home (`/fr/`) at `/fr/index.html` so that the assets' `auto-trailing-slash` handling
 *   finds it at its URL, as Node does (`/fr` redirects to `/fr/`, `/x/` to `/x`).
 * - Private (`/_folio/site/...`, read by the worker only): every other answer (the API's, feeds,
 *   Markdown, discovery documents, the not-found pages).
 * - Left out: the precompressed copies (`.br`, `.gz`; the worker codes an answer for its client
 *   itself, src/hosts/cloudflare/coding.ts) and the published answers to query strings (the
 *   worker computes them from the bundles, as it does any query not published).
 * - Past `maxAssets` files, R2 (`r2: true`): the private files, then the pages that do not fit.
 */
export interface PlacedFile {
  /** Index into the build manifest's files. */
  index: number;
  /** Its name in the worker's manifest: its path among the assets, or under /_folio in R2. */
  name: string;
  r2: boolean;
}

/** A file the assets serve at its URL (a page or a static file), not one only the worker reads. */
export const atItsUrl = (p: PlacedFile) => !p.r2 && !p.name.startsWith(`${PRIVATE_PREFIX}/`);

export interface WorkersLayout {
  manifest: Manifest;
  files: PlacedFile[];
  /** Whether anything goes to R2 (the artefact is past `maxAssets`). */
  r2: boolean;
}

/** An answer to a query string (src/pipeline/publish/answer-file.ts's path form): the worker computes it instead. */
export const isQueryAnswer = (file: string) => file.includes('/_query/');

/** Cloudflare's limit of files per Worker's assets (paid plan) less a margin for the files the target writes besides. */
export const DEFAULT_MAX_ASSETS = 95_000;

/** FOLIO_WORKERS_MAX_ASSETS, or the default: past it, the artefact goes to R2. */
export function maxAssets(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const given = env.FOLIO_WORKERS_MAX_ASSETS;
  if (given === undefined || given === '') return DEFAULT_MAX_ASSETS;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 0) throw new Error(`FOLIO_WORKERS_MAX_ASSETS=${given}: give a whole number of files (default ${DEFAULT_MAX_ASSETS})`);
  return n;
}

/** The URL of each page file (the default answer of a path, HTML), for the pages the assets serve. */
function pageUrls(manifest: Manifest): Map<number, string> {
  const urls = new Map<number, string>();
  for (const [path, entry] of Object.entries(manifest.paths)) {
    const answer = entry.answers[''];
    const i = typeof answer === 'number' ? answer : answer?.html;
    if (i !== undefined && manifest.files[i]!.type.startsWith('text/html')) urls.set(i, path);
  }
  return urls;
}

/** Where a page is found at its URL by the assets' auto-trailing-slash handling: `/x` at `/x.html`, `/fr/` at `/fr/index.html`. */
const pageName = (url: string) => (url.endsWith('/') ? `${url}index.html` : `${url}.html`);

/**
 * The layout of a build on Workers. `fixed` is the number of asset files written besides the
 * build's (`_headers`, `_redirects`), counted against `limit`; bundle files go where the private
 * files go, so `bundleFiles` (with the files the manifest is stored as) counts too.
 */
export function workersLayout(manifest: Manifest, limit: number, bundleFiles: number, fixed = 2): WorkersLayout {
  const urls = pageUrls(manifest);
  const kept = manifest.files.map((f, index) => ({ f, index })).filter(({ f }) => !isQueryAnswer(f.file));
  const isPublic = ({ f, index }: { f: ManifestFile; index: number }) => staticOnly(f.file) || urls.has(index);
  const publicFiles = kept.filter(isPublic);
  const privateFiles = kept.filter((k) => !isPublic(k));
  // bundleFiles counts the manifest's files too (its root and chunks).
  const r2 = publicFiles.length + privateFiles.length + bundleFiles + fixed > limit;
  // In R2 mode the assets hold the public files while they fit, static files first (a page is served by the worker from R2 as well),
  const room = r2 ? Math.max(0, limit - fixed) : Infinity;
  // (the shortest URLs, the homes and the lists, before the posts).
  const pages = publicFiles.filter(({ f }) => !staticOnly(f.file)).sort((a, b) => urls.get(a.index)!.length - urls.get(b.index)!.length);
  const ordered = [...publicFiles.filter(({ f }) => staticOnly(f.file)), ...pages];
  const files: PlacedFile[] = [];
  ordered.forEach(({ f, index }, n) => {
    const fits = n < room;
    const name = !fits ? `${PRIVATE_PREFIX}/site${f.file}` : urls.has(index) ? pageName(urls.get(index)!) : f.file;
    files.push({ index, name, r2: !fits });
  });
  for (const { f, index } of privateFiles) files.push({ index, name: `${PRIVATE_PREFIX}/site${f.file}`, r2 });
  const names = new Map(files.map((p) => [p.index, p.name]));
  const rewritten: Manifest = {
    ...manifest,
    holders: [],
    files: manifest.files.map(({ held: _held, br: _br, gzip: _gzip, ...f }, i) => ({ ...f, file: names.get(i) ?? f.file })),
    paths: Object.fromEntries(
      Object.entries(manifest.paths).map(([path, entry]) => {
        const answers: Manifest['paths'][string]['answers'] = {};
        for (const [query, answer] of Object.entries(entry.answers)) {
          if (typeof answer === 'number') {
            if (names.has(answer)) answers[query] = answer;
          } else {
            // A negotiated JSON offer is the answer to a query (`/api/posts/x?lang=fr`): computed too.
            answers[query] = Object.fromEntries(Object.entries(answer).filter(([, i]) => names.has(i)));
          }
        }
        return [path, { ...entry, answers }];
      }),
    ),
  };
  return { manifest: rewritten, files, r2 };
}

import { hostReads } from '../../artefact/build-only.ts';
import { spawnSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { mirror, place } from './files.ts';
import { fileAt, folderFiles, readManifest, saveManifest } from '../../artefact/client-files.ts';
import { inboxSchema } from '../../contact/inbox.ts';
import { storedManifestFiles } from '../../artefact/manifest-chunks.ts';
import type { BuildLayout } from '../../artefact/roots.ts';
import { PRIVATE_PREFIX } from '../../hosts/cloudflare/assets-bundle.ts';
import type { Manifest } from '../../artefact/manifest.ts';
import { headerBlock } from '../publish/host-files.ts';
import { CORS_HEADERS } from '../../app/policies/cors.ts';
import { SECURITY_HEADERS } from '../../app/policies/security.ts';
import { STATIC_ONLY, staticOnly } from './cdn-routes.ts';
import { atItsUrl, maxAssets, workersLayout, type WorkersLayout } from './workers-layout.ts';

/** Cloudflare's published limits (developers.cloudflare.com/workers/platform/limits). */
export const WORKERS_LIMITS = {
  scriptGzipBytes: { free: 3 * 1024 * 1024, paid: 10 * 1024 * 1024 },
  assetFiles: { free: 20_000, paid: 100_000 },
  assetBytes: 25 * 1024 * 1024,
};

/** Replaced by the id `wrangler d1 create folio-inbox` prints (local previews need none). */
export const D1_PLACEHOLDER = '00000000-0000-0000-0000-000000000000';

/** The compatibility date the worker is written for (workerd of the pinned wrangler supports it). */
export const COMPATIBILITY_DATE = '2026-10-20';

/** `run_worker_first` with negotiation on pages: every path, less (Cloudflare's `!` patterns) those that are only ever a static file. */
export const WORKER_FIRST = ['/*', ...STATIC_ONLY.map((p) => `!${p}`)];

/** Cloudflare's limits on `run_worker_first` and `_headers` rules (workers-shared's MAX_ROUTES_RULES, MAX_HEADER_RULES). */
const MAX_RULES = 100;

/**
 * `run_worker_first` by default: the private files (the worker answers them 404) and the public
 * pages whose answer a page file is not always (a search page reads `q`, the API index negotiates
 * with JSON first). Every other public file is served by the assets; every URL no asset holds
 * (the API, feeds, Markdown, discovery documents, unknown paths) reaches the worker as it misses
 * the assets. A fixed list: some 20 patterns at any corpus size.
 */
export function computedFirst(layout: WorkersLayout): string[] {
  const assets = new Set(layout.files.filter(atItsUrl).map((f) => f.index));
  const paths = Object.entries(layout.manifest.paths).filter(([, entry]) => {
    const answer = entry.answers[''];
    const i = typeof answer === 'number' ? answer : answer?.html;
    return i !== undefined && assets.has(i) && (entry.query !== 'none' || (entry.offers !== undefined && entry.offers[0] !== 'html'));
  });
  return [`${PRIVATE_PREFIX}/*`, ...paths.map(([path]) => path).sort()];
}

/** The folder pattern of a file (`/media/_v/*`). */
const folderOf = (file: string) => `${file.slice(0, file.lastIndexOf('/'))}/*`;

/**
 * The assets' `_headers`, for the files the assets serve without the worker: the headers every
 * answer carries, the pages' `Cache-Control` (`pageCache`, when the assets serve the pages), and
 * the `Cache-Control` Node sends for each static file, by pattern: each static-only
 * pattern's value for most of its folders, then a folder whose files all differ from it (the image variants,
 * immutable) with its own, replacing it (`! cache-control`: Cloudflare joins the values of two
 * matching blocks), and a file that fits neither by its path. A handful of blocks at any corpus size.
 */
export function cloudflareHeaders(manifest: Manifest, pageCache?: string): string {
  // The assets answer any other method 405; Allow says what they serve, as Node's 405 does. The
  // pages' Cache-Control (one value for every page) when the assets serve them; each static-only
  // pattern replaces it with its own.
  const blocks = [headerBlock('/*', { ...CORS_HEADERS, ...SECURITY_HEADERS, allow: 'GET, HEAD', ...(pageCache ? { 'cache-control': pageCache } : {}) })];
  const cache = (pattern: string, value: string) => blocks.push(headerBlock(pattern, { 'cache-control': value }, ['cache-control']));
  for (const at of STATIC_ONLY) {
    const files = manifest.files.filter((f) => staticOnly(f.file) && (at.endsWith('/*') ? f.file.startsWith(at.slice(0, -1)) : f.file === at));
    if (!files.length) continue;
    const folders = new Map<string, Set<string>>();
    for (const f of files) if (f.file !== at) folders.set(folderOf(f.file), (folders.get(folderOf(f.file)) ?? new Set()).add(f.cacheControl));
    // The value of the most folders (not files: one post's variants outnumber its originals), so
    // the exceptions are the fewest folders.
    const counts = new Map<string, number>();
    for (const f of files) counts.set(f.cacheControl, 0);
    for (const values of folders.values()) for (const v of values) counts.set(v, counts.get(v)! + 1);
    const common = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    cache(at, common);
    const others = files.filter((f) => f.cacheControl !== common);
    const done = new Set<string>();
    for (const f of others) {
      const folder = folderOf(f.file);
      const values = folders.get(folder)!;
      if (values.size === 1 && folder !== at) {
        if (!done.has(folder)) cache(folder, f.cacheControl);
        done.add(folder);
      } else cache(f.file, f.cacheControl);
    }
  }
  if (blocks.length > MAX_RULES) throw new Error(`the Workers _headers would have ${blocks.length} rules; Cloudflare takes ${MAX_RULES}`);
  return `${blocks.join('\n')}\n`;
}

/** The Workers project: the worker, its bindings, and the assets it reads through ASSETS. */
export function wranglerConfig(outDir: string, runWorkerFirst: string[] = WORKER_FIRST, r2 = false): object {
  const worker = relative(outDir, resolve('src/hosts/cloudflare/worker.ts')).split(sep).join('/');
  return {
    $schema: relative(outDir, resolve('node_modules/wrangler/config-schema.json')).split(sep).join('/'),
    name: 'folio',
    main: worker,
    compatibility_date: COMPATIBILITY_DATE,
    // enable_request_signal: a stream learns that its client left (request.signal aborts).
    compatibility_flags: ['nodejs_compat', 'enable_request_signal'],
    assets: {
      directory: 'assets',
      binding: 'ASSETS',
      // Where the worker runs before the assets (computedFirst, or WORKER_FIRST with
      // FOLIO_WORKERS_NEGOTIATE=1); elsewhere the assets answer what they hold, with their
      // headers from the assets' _headers (cloudflareHeaders), and the worker what they do not.
      run_worker_first: runWorkerFirst,
      // `/x` is the page `/x.html`, `/fr/` the home `/fr/index.html`, and each redirects the
      // other spelling to it, as Node does (workers-layout.ts places the pages so).
      html_handling: 'auto-trailing-slash',
      not_found_handling: 'none',
    },
    // Past the assets' file limit, the build the worker reads: put its objects with
    // `wrangler r2 object put` (docs/deploy-cloudflare.md); `npm run preview:cloudflare` fills a local one.
    ...(r2 ? { r2_buckets: [{ binding: 'ARTEFACT', bucket_name: R2_BUCKET }] } : {}),
    durable_objects: {
      bindings: [
        { name: 'RATE_LIMITS', class_name: 'RateLimits' },
        { name: 'MCP_SESSIONS', class_name: 'McpSessions' },
        { name: 'LOCKS', class_name: 'Locks' },
      ],
    },
    migrations: [{ tag: 'v1', new_sqlite_classes: ['RateLimits', 'McpSessions', 'Locks'] }],
    // Paid contact's inbox: `wrangler d1 create folio-inbox`, its id here, then
    // `wrangler d1 migrations apply folio-inbox --remote -c <this file>`.
    d1_databases: [{ binding: 'INBOX', database_name: 'folio-inbox', database_id: D1_PLACEHOLDER, migrations_dir: 'migrations' }],
    observability: { enabled: true },
  };
}

/** The R2 bucket of a build past the assets' file limit (the binding ARTEFACT). */
export const R2_BUCKET = 'folio-artefact';

export interface CloudflareReport {
  outDir: string;
  assets: number;
  /** Objects put in R2 (0: the artefact fits the assets). */
  r2: number;
  /** Whether page URLs run the worker and negotiate by Accept (FOLIO_WORKERS_NEGOTIATE=1). */
  negotiate: boolean;
  largestAsset: number;
  /** Bytes of the bundled worker (and gzipped), as wrangler uploads it. */
  worker?: { bytes: number; gzip: number };
}

export interface CloudflareOptions {
  /** Page URLs run the worker, which negotiates them by Accept (default: the assets serve them, no invocation). */
  negotiate: boolean;
  /** Files the assets may hold; past it, the artefact goes to R2 (workers-layout.ts). */
  maxAssets: number;
}


/** The options from the environment: FOLIO_WORKERS_NEGOTIATE=1, FOLIO_WORKERS_MAX_ASSETS. */
export const cloudflareOptions = (env: Readonly<Record<string, string | undefined>> = process.env): CloudflareOptions => ({ negotiate: env.FOLIO_WORKERS_NEGOTIATE === '1', maxAssets: maxAssets(env) });

/** The value every page's Cache-Control has (the assets' `_headers` gives it to them all in one rule). */
function pagesCacheControl(layout: WorkersLayout): string | undefined {
  const pages = new Set(layout.files.filter((f) => atItsUrl(f) && !staticOnly(f.name)).map((f) => layout.manifest.files[f.index]!.cacheControl));
  if (pages.size > 1) throw new Error(`the pages have ${pages.size} Cache-Control values (${[...pages].join('; ')}); the Workers assets give them one`);
  return [...pages][0];
}

/**
 * Writes a deployable Workers project for a build into `outDir`: `wrangler.jsonc`, and `assets/`
 * holding the pages and static files at their URLs and the worker's private files (its manifest,
 * the bundles, the other answers) under /_folio, or, past `maxAssets` files, those in `r2/` (one
 * file per object, by its key) for the bucket; then bundles the worker with wrangler (a dry run)
 * to report its size against the limits.
 */
export async function writeCloudflare(layout: BuildLayout, roots: readonly string[], outDir: string, options: CloudflareOptions = cloudflareOptions()): Promise<CloudflareReport> {
  await rm(outDir, { recursive: true, force: true });
  const assets = join(outDir, 'assets');
  const manifest = await readManifest(layout);
  const bundles = roots.map((root) => ({ root, files: folderFiles(layout.bundle(root)).filter((f) => hostReads(f.rel)) }));
  const placed = workersLayout(manifest, options.maxAssets, bundles.reduce((n, b) => n + b.files.length, 0) + storedManifestFiles(manifest));
  const privateDir = placed.r2 ? join(outDir, 'r2') : assets;
  let files = 0;
  let objects = 0;
  let largest = 0;
  for (const p of placed.files) {
    const from = fileAt(layout, manifest, manifest.files[p.index]!);
    await place(from, join(p.r2 ? privateDir : assets, p.name));
    if (p.r2) objects++;
    else {
      files++;
      largest = Math.max(largest, manifest.files[p.index]!.length);
    }
  }
  // The build's `/en` redirects; the Workers `_headers` (written, not linked: place hard-links).
  await place(join(layout.client, '_redirects'), join(assets, '_redirects'));
  await writeFile(join(assets, '_headers'), cloudflareHeaders(manifest, options.negotiate ? undefined : pagesCacheControl(placed)));
  files += 2;
  await mkdir(join(privateDir, PRIVATE_PREFIX), { recursive: true });
  // The worker reads the manifest as every host does: its root, then the chunk a request needs.
  const manifestFiles = await saveManifest(join(privateDir, PRIVATE_PREFIX), placed.manifest);
  for (const { root, files: bundle } of bundles) {
    // Media are published with the pages already; the worker needs catalog, bodies and search (hostReads).
    const copied = await mirror(bundle, join(privateDir, PRIVATE_PREFIX, 'bundle', root));
    if (placed.r2) objects += copied.files;
    else {
      files += copied.files;
      largest = Math.max(largest, copied.largest);
    }
  }
  if (placed.r2) objects += manifestFiles;
  else files += manifestFiles;
  // The inbox tables, as D1 migrations (the worker also makes them on first use).
  await mkdir(join(outDir, 'migrations'), { recursive: true });
  await writeFile(join(outDir, 'migrations', '0001_inbox.sql'), roots.map((root) => inboxSchema(`folio_messages_${root}`, 'sqlite')).join('\n'));
  const first = options.negotiate ? WORKER_FIRST : computedFirst(placed);
  if (first.length > MAX_RULES) throw new Error(`run_worker_first would have ${first.length} rules; Cloudflare takes ${MAX_RULES}`);
  await writeFile(join(outDir, 'wrangler.jsonc'), `// Written by \`npm run build -- --target cloudflare\`; deploy with \`npx wrangler deploy -c ${relative(process.cwd(), outDir)}/wrangler.jsonc\`.\n${JSON.stringify(wranglerConfig(outDir, first, placed.r2), null, 2)}\n`);
  const report: CloudflareReport = { outDir, assets: files, r2: objects, negotiate: options.negotiate, largestAsset: largest };
  // The worker's size does not depend on the assets, and wrangler reads every asset file of the project
  // it is given (857 MB and 84 s at 300 x 14, the build's largest process at 1,000 x 14): it bundles a copy
  // of the project whose assets folder is empty.
  const sizing = join(outDir, '.sizing');
  await mkdir(join(sizing, 'assets'), { recursive: true });
  await writeFile(join(sizing, 'wrangler.jsonc'), JSON.stringify(wranglerConfig(sizing, first, placed.r2)));
  const dry = spawnSync(process.execPath, [resolve('node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', join(outDir, '.bundled'), '-c', join(sizing, 'wrangler.jsonc')], {
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  });
  if (dry.status !== 0) throw new Error(`wrangler could not bundle the worker:\n${dry.stdout}${dry.stderr}`);
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(dry.stdout);
  if (m) report.worker = { bytes: Math.round(Number(m[1]) * 1024), gzip: Math.round(Number(m[2]) * 1024) };
  return report;
}

const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

export function describeCloudflare(r: CloudflareReport): string {
  const L = WORKERS_LIMITS;
  // Cloudflare's script limit counts the gzipped upload, so that is the size set beside it (the raw size
  // next to the limit read as over it).
  const worker = r.worker ? `worker ${kib(r.worker.gzip)} gzipped (limit ${kib(L.scriptGzipBytes.free)} free, ${kib(L.scriptGzipBytes.paid)} paid; ${kib(r.worker.bytes)} before gzip)` : 'worker size not reported by wrangler';
  const r2 = r.r2 ? `, and ${r.r2} objects for the R2 bucket ${R2_BUCKET} (in r2/: past FOLIO_WORKERS_MAX_ASSETS)` : '';
  const pages = r.negotiate ? 'page URLs run the worker and negotiate by Accept (FOLIO_WORKERS_NEGOTIATE=1)' : 'pages served by the assets without the worker';
  return `cloudflare: ${r.outDir}: ${worker}; ${r.assets} assets (limit ${L.assetFiles.free} free, ${L.assetFiles.paid} paid), largest ${kib(r.largestAsset)} (limit ${kib(L.assetBytes)})${r2}; ${pages}`;
}

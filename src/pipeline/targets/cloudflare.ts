import { spawnSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { mirror } from './files.ts';
import { clientFiles, folderFiles, readManifest, saveManifest, selfContained } from '../../artefact/client-files.ts';
import { inboxSchema } from '../../contact/inbox.ts';
import type { BuildLayout } from '../../artefact/roots.ts';
import { PRIVATE_PREFIX } from '../../hosts/cloudflare/assets-bundle.ts';
import type { Manifest } from '../../artefact/manifest.ts';
import { headerBlock, POLICY_BLOCK } from '../publish/host-files.ts';
import { STATIC_ONLY, staticOnly } from './cdn-routes.ts';

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

/** `run_worker_first`: every path, less (Cloudflare's `!` patterns) those that are only ever a static file. */
export const WORKER_FIRST = ['/*', ...STATIC_ONLY.map((p) => `!${p}`)];

/** The folder pattern of a file (`/media/_v/*`). */
const folderOf = (file: string) => `${file.slice(0, file.lastIndexOf('/'))}/*`;

/**
 * The assets' `_headers`, for the files the assets serve without the worker: the headers every
 * answer carries, and the `Cache-Control` Node sends for each file, by pattern: each static-only
 * pattern's value for most of its folders, then a folder whose files all differ from it (the image variants,
 * immutable) with its own, replacing it (`! cache-control`: Cloudflare joins the values of two
 * matching blocks), and a file that fits neither by its path. A handful of blocks at any corpus size.
 */
export function cloudflareHeaders(manifest: Manifest): string {
  const blocks = [POLICY_BLOCK()];
  const cache = (pattern: string, value: string, replace = false) => blocks.push(headerBlock(pattern, { 'cache-control': value }, replace ? ['cache-control'] : []));
  // The assets answer any other method 405; Allow says what they serve, as Node's 405 does.
  const pattern = (at: string, value: string) => blocks.push(headerBlock(at, { allow: 'GET, HEAD', 'cache-control': value }));
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
    pattern(at, common);
    const others = files.filter((f) => f.cacheControl !== common);
    const done = new Set<string>();
    for (const f of others) {
      const folder = folderOf(f.file);
      const values = folders.get(folder)!;
      if (values.size === 1 && folder !== at) {
        if (!done.has(folder)) cache(folder, f.cacheControl, true);
        done.add(folder);
      } else cache(f.file, f.cacheControl, true);
    }
  }
  return `${blocks.join('\n')}\n`;
}

/** The Workers project: the worker, its bindings, and the assets it reads through ASSETS. */
export function wranglerConfig(outDir: string): object {
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
      // The worker runs first everywhere but on the static-only files: it negotiates pages by
      // Accept (Workers' own routing matches paths only), reads query strings, applies the policies
      // and never serves the private build files under /_folio. The static-only files are served by
      // the assets without it, their headers from the assets' _headers (cloudflareHeaders).
      run_worker_first: WORKER_FIRST,
      html_handling: 'none',
      not_found_handling: 'none',
    },
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

export interface CloudflareReport {
  outDir: string;
  assets: number;
  largestAsset: number;
  /** Bytes of the bundled worker (and gzipped), as wrangler uploads it. */
  worker?: { bytes: number; gzip: number };
}

/**
 * Writes a deployable Workers project for a build into `outDir`: `wrangler.jsonc`, and `assets/`
 * holding the static artefact plus the build's private files (manifest and bundles) under /_folio,
 * then bundles the worker with wrangler (a dry run) to report its size against the limits.
 */
export async function writeCloudflare(layout: BuildLayout, roots: readonly string[], outDir: string): Promise<CloudflareReport> {
  await rm(outDir, { recursive: true, force: true });
  const assets = join(outDir, 'assets');
  const manifest = await readManifest(layout);
  // The build's `_headers` is replaced by the Workers one (written, not linked: mirror hard-links).
  const client = await mirror(clientFiles(layout, manifest), assets, (rel) => rel === '_headers');
  await writeFile(join(assets, '_headers'), cloudflareHeaders(manifest));
  await mkdir(join(assets, PRIVATE_PREFIX), { recursive: true });
  let files = client.files + 1 + (await saveManifest(join(assets, PRIVATE_PREFIX), selfContained(manifest)));
  let largest = client.largest;
  for (const root of roots) {
    // Media are published with the pages already; the worker needs catalog, bodies and search.
    const bundle = await mirror(folderFiles(layout.bundle(root)), join(assets, PRIVATE_PREFIX, 'bundle', root), (rel) => rel.startsWith(`media${sep}`));
    files += bundle.files;
    largest = Math.max(largest, bundle.largest);
  }
  // The inbox tables, as D1 migrations (the worker also makes them on first use).
  await mkdir(join(outDir, 'migrations'), { recursive: true });
  await writeFile(join(outDir, 'migrations', '0001_inbox.sql'), roots.map((root) => inboxSchema(`folio_messages_${root}`, 'sqlite')).join('\n'));
  await writeFile(join(outDir, 'wrangler.jsonc'), `// Written by \`npm run build -- --target cloudflare\`; deploy with \`npx wrangler deploy -c ${relative(process.cwd(), outDir)}/wrangler.jsonc\`.\n${JSON.stringify(wranglerConfig(outDir), null, 2)}\n`);
  const report: CloudflareReport = { outDir, assets: files, largestAsset: largest };
  const dry = spawnSync(process.execPath, [resolve('node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', join(outDir, '.bundled'), '-c', join(outDir, 'wrangler.jsonc')], {
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
  return `cloudflare: ${r.outDir}: ${worker}; ${r.assets} assets (limit ${L.assetFiles.free} free, ${L.assetFiles.paid} paid), largest ${kib(r.largestAsset)} (limit ${kib(L.assetBytes)})`;
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createFunctions, type FunctionLayer } from '../../functions/routes.ts';
import type { Assets, Host, Root } from '../../functions/context.ts';
import { buildLayout, type BuildLayout } from '../build/roots.ts';
import { MANIFEST_VERSION, type Manifest } from '../publish/manifest.ts';
import { publishedFiles, type PublishedFiles } from './published.ts';

/** Astro's Node handler; called without `next`, an unmatched path renders the 404 route. */
export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => unknown;

/** What the server keeps across builds: its state and settings, not the content. */
export type SharedHost = Omit<Host, 'roots' | 'assets'>;

/**
 * One published build as the server serves it: its manifest, cores, function layer and pages. A
 * request takes the generation live when it starts and uses nothing else, so no answer mixes builds.
 */
export interface Generation {
  id: string;
  layout: BuildLayout;
  files: PublishedFiles;
  roots: Root[];
  functions: FunctionLayer;
  pages: NodeMiddleware;
  siteUrl: string;
}

/** Pages published at a path, as the Web Response a function can pass on (HTML negotiation). */
function assetsOf(files: PublishedFiles): Assets {
  return {
    async fetch(path) {
      const file = files.page(path);
      if (!file) return undefined;
      const body = await files.body(file, 'identity');
      return new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': file.type, etag: file.etag, 'cache-control': file.cacheControl } });
    },
  };
}

export interface GenerationOptions {
  shared: SharedHost;
  /** The content roots of a build, with their secrets and services. */
  roots: (layout: BuildLayout) => Promise<Root[]>;
  fileCacheBytes: number;
}

export async function loadGeneration(dir: string, opts: GenerationOptions): Promise<Generation> {
  const layout = buildLayout(dir);
  const manifest = JSON.parse(await readFile(layout.manifest, 'utf8')) as Manifest;
  if (manifest.version !== MANIFEST_VERSION) throw new Error(`${layout.manifest}: manifest version ${manifest.version}, this server reads ${MANIFEST_VERSION}; rebuild`);
  const { limits } = opts.shared;
  const sameLimits = manifest.limits.rateLimit === limits.rateLimit && manifest.limits.rateWindowSeconds === limits.rateWindowSeconds && manifest.limits.bodyLimit === limits.bodyLimit;
  // Guides that print the limits are published for the build's; a server with others computes them.
  const files = publishedFiles(manifest, layout.client, opts.fileCacheBytes, new Set(sameLimits ? [] : manifest.configDependent));
  const roots = await opts.roots(layout);
  const functions = createFunctions({ ...opts.shared, roots, assets: assetsOf(files) });
  const astro = (await import(pathToFileURL(join(layout.server, 'entry.mjs')).href)) as { handler: NodeMiddleware };
  return { id: manifest.build, layout, files, roots, functions, pages: astro.handler, siteUrl: roots[0]!.core.catalog.site_url };
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFunctions, type FunctionLayer } from '../../functions/routes.ts';
import type { Assets, Host, Root } from '../../functions/context.ts';
import { buildLayout, type BuildLayout } from '../build/roots.ts';
import { MANIFEST_VERSION, type Manifest } from '../publish/manifest.ts';
import { publishedFiles, type PublishedFiles } from '../app/published.ts';
import type { Build } from '../app/app.ts';

/** What the server keeps across builds: its state and settings, not the content. */
export type SharedHost = Omit<Host, 'roots' | 'assets'>;

/**
 * One published build as the Node server serves it: the app's build (files and functions) read
 * from disk. A request takes the generation live when it starts and uses nothing else, so no
 * answer mixes builds.
 */
export interface Generation extends Build {
  id: string;
  layout: BuildLayout;
  roots: Root[];
  functions: FunctionLayer;
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
  const fromDisk = async (name: string) => {
    const buffer = await readFile(join(layout.client, name));
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  };
  const files = publishedFiles(manifest, fromDisk, opts.fileCacheBytes, new Set(sameLimits ? [] : manifest.configDependent));
  const roots = await opts.roots(layout);
  const functions = createFunctions({ ...opts.shared, roots, assets: assetsOf(files) });
  return { id: manifest.build, layout, files, roots, functions, siteUrl: roots[0]!.core.catalog.site_url };
}

import { createFunctions } from '../../functions/routes.ts';
import type { Assets, Host, Root } from '../../functions/context.ts';
import { MANIFEST_VERSION, type Manifest } from '../publish/manifest.ts';
import { publishedFiles, type PublishedFiles, type ReadFile } from './published.ts';
import type { Build } from './app.ts';

/** What a host keeps across builds: its state and settings, not the content. */
export type SharedHost = Omit<Host, 'roots' | 'assets'>;

/** Pages published at a path, as the Web Response a function can pass on (HTML negotiation). */
function pagesOf(files: PublishedFiles): Assets {
  return {
    async fetch(path) {
      const file = files.page(path);
      if (!file) return undefined;
      const body = await files.body(file, 'identity');
      return new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': file.type, etag: file.etag, 'cache-control': file.cacheControl } });
    },
  };
}

/**
 * A published build as the app serves it, on any host: the manifest's files (read however the host
 * reads them) and the function layer over the build's content roots.
 */
export function assembleBuild(manifest: Manifest, read: ReadFile, roots: Root[], shared: SharedHost, fileCacheBytes: number): Build {
  if (manifest.version !== MANIFEST_VERSION) throw new Error(`manifest version ${manifest.version}, this app reads ${MANIFEST_VERSION}; rebuild`);
  const { limits } = shared;
  const sameLimits = manifest.limits.rateLimit === limits.rateLimit && manifest.limits.rateWindowSeconds === limits.rateWindowSeconds && manifest.limits.bodyLimit === limits.bodyLimit;
  // Guides that print the limits are published for the build's; a host with others computes them.
  const files = publishedFiles(manifest, read, fileCacheBytes, new Set(sameLimits ? [] : manifest.configDependent));
  const functions = createFunctions({ ...shared, roots, assets: pagesOf(files) });
  return { files, functions, siteUrl: roots[0]!.core.catalog.site_url };
}

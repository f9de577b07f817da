import { createFunctions } from '../../functions/routes.ts';
import type { Assets, Host, Root } from '../../functions/context.ts';
import { localStreamCounter } from '../../functions/sse.ts';
import { ROOTS, type RootSpec } from '../artefact/roots.ts';
import type { Core } from '../core/index.ts';
import { localSessionBus } from '../state/session-bus.ts';
import type { AppSettings } from './settings.ts';
import { MANIFEST_VERSION } from '../artefact/manifest.ts';
import type { ManifestView } from '../artefact/manifest-view.ts';
import { publishedFiles, type PublishedFiles, type ReadFile } from './published.ts';
import type { Build } from './app.ts';

/** What a host keeps across builds: its state and settings, not the content. */
export type SharedHost = Omit<Host, 'roots' | 'assets'>;

/** Pages published at a path, as the Web Response a function can pass on (HTML negotiation). */
function pagesOf(files: PublishedFiles): Assets {
  return {
    async fetch(path) {
      const file = await files.page(path);
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
export function assembleBuild(manifest: ManifestView, read: ReadFile, roots: Root[], shared: SharedHost, fileCacheBytes: number): Build {
  const { root } = manifest;
  if (root.version !== MANIFEST_VERSION) throw new Error(`manifest version ${root.version}, this app reads ${MANIFEST_VERSION}; rebuild`);
  const { limits } = shared;
  const sameLimits = root.limits.rateLimit === limits.rateLimit && root.limits.rateWindowSeconds === limits.rateWindowSeconds && root.limits.bodyLimit === limits.bodyLimit;
  // Guides that print the limits are published for the build's; a host with others computes them.
  const files = publishedFiles(manifest, read, fileCacheBytes, new Set(sameLimits ? [] : root.configDependent));
  const functions = createFunctions({ ...shared, roots, assets: pagesOf(files) });
  return { files, functions, siteUrl: roots[0]!.core.catalog.site_url };
}

/**
 * The content roots of a build with their signing keys (the sandbox's is published; without a
 * secret the main root's streams answer 503) and services,
 * each root's core read however the host reads its bundle.
 */
export function contentRoots(secret: string | undefined, core: (name: Root['name']) => Promise<Core>, contact?: (root: RootSpec, core: Core) => Root['contact']): Promise<Root[]> {
  return Promise.all(
    ROOTS.map(async (r) => {
      const loaded = await core(r.name);
      return {
        name: r.name,
        base: r.base,
        core: loaded,
        signingSecret: r.publishedSigningKey ?? secret,
        signingKeyPublished: r.publishedSigningKey !== undefined,
        contact: contact?.(r, loaded),
      };
    }),
  );
}

/** The host of an instance that shares nothing with others (a Worker isolate, a serverless function). */
export function instanceHost(settings: AppSettings, hostname: string, version: string): SharedHost {
  return {
    hostname,
    version,
    worker: { index: 1, count: 1 },
    streams: localStreamCounter(),
    mcpSessions: localSessionBus(),
    mcpAllowedOrigins: settings.mcpAllowedOrigins,
    mcpSessionLimits: settings.mcpSessionLimits,
    answerCacheBytes: settings.answerCacheBytes,
    limits: { rateLimit: settings.rateLimit, rateWindowSeconds: settings.rateWindowSeconds, bodyLimit: settings.bodyLimit },
  };
}

/** A build loaded on an instance's first request and kept; a load that fails is tried again by the next. */
export function loadOnce<Env>(load: (env: Env) => Promise<Build>): (env: Env) => Promise<Build> {
  let build: Promise<Build> | undefined;
  return (env) =>
    (build ??= load(env).catch((error: unknown) => {
      build = undefined;
      throw error;
    }));
}

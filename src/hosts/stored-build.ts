import type { Root } from '../../functions/context.ts';
import type { Build } from '../app/app.ts';
import { assembleBuild, contentRoots, type SharedHost } from '../app/build.ts';
import type { Core } from '../core/index.ts';
import type { RootSpec } from '../artefact/roots.ts';
import type { Manifest } from '../artefact/manifest.ts';
import { ARTEFACT, type ArtefactStore, type CachedStore } from '../artefact/storage.ts';
import { loadBundleCore } from '../bundle/load-core.ts';
import { decodeJson, type BundleReader } from '../bundle/reader.ts';

/** A file the manifest or the code names: its absence is a broken upload, not an absent file. */
async function need(store: ArtefactStore, path: string): Promise<Uint8Array> {
  const bytes = await store.get(path);
  if (!bytes) throw new Error(`artefact: ${path} is missing from the upload`);
  return bytes;
}

/** A root's bundle, read through the store. */
export const storedBundle = (store: ArtefactStore & { peek?: CachedStore['peek'] }, root: string): BundleReader => ({
  read: async (name) => (await store.get(ARTEFACT.bundle(root, name))) ?? undefined,
  ...(store.peek ? { peek: (name: string) => store.peek!(ARTEFACT.bundle(root, name)) } : {}),
});

export interface StoredBuildOptions {
  shared: SharedHost;
  /** The main root's signing key (without it, its streams answer 503). */
  secret: string | undefined;
  contact?: (root: RootSpec, core: Core) => Root['contact'];
  /** Bytes of published answers kept in their encodings (beside the store's own cache). */
  fileCacheBytes: number;
}

/**
 * A build as a host without the artefact on its disk serves it (a worker, a serverless function):
 * the manifest and each root's catalog read at the first request, every other file (a body, a
 * language's search index, a page) when an answer needs it, all through `store`.
 */
export async function storedBuild(store: ArtefactStore, opts: StoredBuildOptions): Promise<Build> {
  const manifest = decodeJson<Manifest>(await need(store, ARTEFACT.manifest));
  const roots = await contentRoots(opts.secret, (name) => loadBundleCore(storedBundle(store, name)), opts.contact);
  return assembleBuild(manifest, (name) => need(store, ARTEFACT.site(name)), roots, opts.shared, opts.fileCacheBytes);
}

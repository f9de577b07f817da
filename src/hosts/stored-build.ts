import type { Root } from '../../functions/context.ts';
import type { Build } from '../app/app.ts';
import { assembleBuild, contentRoots, type SharedHost } from '../app/build.ts';
import type { ReadFile } from '../app/published.ts';
import type { Core } from '../core/index.ts';
import type { RootSpec } from '../artefact/roots.ts';
import type { ManifestRoot } from '../artefact/manifest.ts';
import { storedManifest } from '../artefact/manifest-view.ts';
import { ARTEFACT, needFile, type ArtefactStore, type CachedStore } from '../artefact/storage.ts';
import { loadBundleCore } from '../bundle/load-core.ts';
import type { BundleReader } from '../bundle/reader.ts';

/** A root's bundle, read through the store. */
export const storedBundle = (store: ArtefactStore & { peek?: CachedStore['peek'] }, root: string): BundleReader => ({
  read: async (name) => (await store.get(ARTEFACT.bundle(root, name))) ?? undefined,
  ...(store.peek ? { peek: (name: string) => store.peek!(ARTEFACT.bundle(root, name)) } : {}),
});

/** The static artefact's files through a store, each from the folder that holds it (ManifestFile.held). */
export const storedFiles =
  (store: ArtefactStore, root: ManifestRoot): ReadFile =>
  (name, file) =>
    needFile(store, ARTEFACT.site(name, file.held === undefined ? undefined : root.holders[file.held]));

export interface StoredBuildOptions {
  shared: SharedHost;
  /** The main root's signing key (without it, its streams answer 503). */
  secret: string | undefined;
  contact?: (root: RootSpec, core: Core) => Root['contact'];
  /** Bytes of published answers kept in their encodings (beside the store's own cache). */
  fileCacheBytes: number;
  /** Where the published files are read (default: the store); a host that keeps them in `fileCacheBytes` alone reads them around the store's cache. */
  files?: ArtefactStore;
  /** Where the manifest is read (default: the store); its chunks are kept decoded (manifest-view.ts), so a host whose reads are cheap (a disk) reads them around the store's cache. */
  manifest?: ArtefactStore;
  /** How a root's bundle is read (default: through the store). */
  bundle?: (root: string) => BundleReader;
}

export interface StoredBuild extends Build {
  /** The build's id (its folder under builds/). */
  id: string;
  roots: Root[];
}

/**
 * A build as a host serves it from where it keeps the artefact (the disk, a worker's assets, a
 * function's CDN): the manifest's root and each root's catalog read at the first request, every
 * other file (a manifest chunk, a body, a language's search index, a page) when an answer needs it,
 * all through `store`.
 */
export async function storedBuild(store: ArtefactStore, opts: StoredBuildOptions): Promise<StoredBuild> {
  const manifest = await storedManifest(opts.manifest ?? store);
  const roots = await contentRoots(opts.secret, (name) => loadBundleCore(opts.bundle?.(name) ?? storedBundle(store, name)), opts.contact);
  return { id: manifest.root.build, roots, ...assembleBuild(manifest, storedFiles(opts.files ?? store, manifest.root), roots, opts.shared, opts.fileCacheBytes) };
}

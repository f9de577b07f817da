import type { Root } from '../../functions/context.ts';
import { buildLayout, type BuildLayout } from '../artefact/roots.ts';
import { buildStore } from '../artefact/disk-store.ts';
import { cachedStore } from '../artefact/storage.ts';
import type { SharedHost } from '../app/build.ts';
import type { Core } from '../core/index.ts';
import type { RootSpec } from '../artefact/roots.ts';
import { diskBundle } from '../bundle/load-bundle.ts';
import { storedBuild, storedBundle, type StoredBuild } from '../hosts/stored-build.ts';

/**
 * One published build as the Node server serves it: the app's build read from disk. A request
 * takes the generation live when it starts and uses nothing else, so no answer mixes builds.
 */
export interface Generation extends StoredBuild {
  layout: BuildLayout;
}

export interface GenerationOptions {
  shared: SharedHost;
  /** The main root's signing key (absent: its streams answer 503). */
  secret: string | undefined;
  contact?: (root: RootSpec, core: Core) => Root['contact'];
  /** Bytes of published files kept in memory (FILE_CACHE_MB). */
  fileCacheBytes: number;
  /** Bytes of the rest of the artefact kept (manifest chunks, catalogs, bodies: ARTEFACT_CACHE_MB). */
  artefactCacheBytes: number;
}

/**
 * A build read as every host reads one (src/hosts/stored-build.ts), its store the disk: the
 * manifest's root and the catalogs at once, a body when a request needs it, kept in the bounded
 * artefact cache (ARTEFACT_CACHE_MB); a manifest chunk kept decoded only (MANIFEST_CHUNK_CACHE_BYTES),
 * and the published files in FILE_CACHE_MB, both read around the artefact cache, as the disk is near
 * (its bytes kept twice would only take memory). Search reads its indexes from the disk itself
 * (synchronously, on a language's first query).
 */
export async function loadGeneration(dir: string, opts: GenerationOptions): Promise<Generation> {
  const layout = buildLayout(dir);
  const disk = buildStore(layout);
  const store = cachedStore(disk, opts.artefactCacheBytes);
  try {
    const build = await storedBuild(store, {
      shared: opts.shared,
      secret: opts.secret,
      contact: opts.contact,
      fileCacheBytes: opts.fileCacheBytes,
      files: disk,
      manifest: disk,
      bundle: (name) => {
        const bundle = diskBundle(layout.bundle(name));
        return { ...storedBundle(store, name), readSync: bundle.readSync, readRangeSync: bundle.readRangeSync };
      },
    });
    return { ...build, layout };
  } catch (e) {
    throw new Error(`${layout.manifest}: ${(e as Error).message}`);
  }
}

import type { ManifestChunk, ManifestRoot } from './manifest.ts';
import { chunkFile, chunkOf } from './manifest-chunks.ts';
import { ARTEFACT, needFile, type ArtefactStore } from './storage.ts';
import { boundedCache } from '../../functions/bounded-cache.ts';

/** The stored manifest as a host reads it: the root, and the chunk of a path when a request needs it. */
export interface ManifestView {
  root: ManifestRoot;
  /** The chunk a path's answers are in: at once when it is kept, else read. */
  chunk(path: string): ManifestChunk | Promise<ManifestChunk>;
}

/** Bytes of decoded chunks an instance keeps, besides the store's cache (a decoded chunk is counted at three times its JSON). */
export const MANIFEST_CHUNK_CACHE_BYTES = 16 * 1024 * 1024;
const DECODED_PER_BYTE = 3;

const decoder = new TextDecoder();

/**
 * The manifest through a store: the root read now (small whatever the corpus), each chunk read on
 * the first request that needs it and kept decoded in a bounded cache, least recently stored out
 * first; concurrent requests for one chunk share one read.
 */
export async function storedManifest(store: ArtefactStore, cacheBytes = MANIFEST_CHUNK_CACHE_BYTES): Promise<ManifestView> {
  const root = JSON.parse(decoder.decode(await needFile(store, ARTEFACT.manifest))) as ManifestRoot;
  const sizes = new WeakMap<ManifestChunk, number>();
  const kept = boundedCache<ManifestChunk>(cacheBytes, (c) => sizes.get(c)!);
  const reading = new Map<number, Promise<ManifestChunk>>();
  return {
    root,
    chunk(path) {
      const k = chunkOf(path, root.chunks);
      const key = String(k);
      const hit = kept.get(key);
      if (hit) return hit;
      let pending = reading.get(k);
      if (!pending) {
        pending = needFile(store, ARTEFACT.manifestChunk(k))
          .then((bytes) => {
            const chunk = JSON.parse(decoder.decode(bytes)) as ManifestChunk;
            sizes.set(chunk, bytes.byteLength * DECODED_PER_BYTE);
            kept.set(key, chunk);
            return chunk;
          })
          .finally(() => reading.delete(k));
        reading.set(k, pending);
      }
      return pending;
    },
  };
}

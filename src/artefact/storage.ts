import { chunkFile } from './manifest-chunks.ts';

/**
 * Where a host keeps a built artefact, as the app reads it: a file's bytes by its path in the
 * build's layout (`manifest.json`, `bundle/main/catalog.json`, `site/client/fr/search.html`). A
 * function or a worker carries none of the artefact; it reads what a request needs through this,
 * from the disk, the Workers assets binding or the CDN the host serves the artefact from.
 */
export interface ArtefactStore {
  /** The file's bytes; null when the artefact has no such file. A store that cannot answer throws. */
  get(path: string): Promise<Uint8Array | null>;
}

/**
 * The artefact's paths: its manifest's root and chunks (manifest-chunks.ts), a root's bundle file, a
 * file of the static site (`/fr/x.html.br`), in the build's own folder or, for a file an incremental
 * build keeps in an earlier build's folder (ManifestFile.held: only on the Node server's disk), in
 * that holder's.
 */
export const ARTEFACT = {
  manifest: 'manifest.json',
  manifestChunk: chunkFile,
  bundle: (root: string, name: string) => `bundle/${root}/${name}`,
  site: (file: string, holder?: string) => (holder === undefined ? `site/client${file}` : `${HELD}${holder}${file}`),
};

/** Where the artefact's paths name a holder's file (`held/<build>/fr/x.html`). */
export const HELD = 'held/';

/** A file the manifest or the code names: its absence is a broken upload, not an absent file. */
export async function needFile(store: ArtefactStore, path: string): Promise<Uint8Array> {
  const bytes = await store.get(path);
  if (!bytes) throw new Error(`artefact: ${path} is missing from the upload`);
  return bytes;
}

/**
 * The artefact as static files over HTTP (the CDN of Netlify or Vercel, where the target placed it
 * under one unguessable prefix): `base()` is that prefix's URL, known at the first request.
 */
export function httpStore(base: () => string, fetcher: typeof fetch = fetch): ArtefactStore {
  return {
    async get(path) {
      const url = `${base()}/${path.split('/').map(encodeURIComponent).join('/')}`;
      const response = await fetcher(url);
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`artefact: ${url} answered ${response.status}`);
      }
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}

/** What an entry costs besides its bytes (its key and bookkeeping), so absent files are bounded too. */
const ENTRY_OVERHEAD = 128;

/** The default bound of the artefact cache (ARTEFACT_CACHE_MB). */
export const ARTEFACT_CACHE_MB = 128;

export interface CachedStore extends ArtefactStore {
  /** Bytes held now (at most the bound). */
  readonly held: number;
  /** The file's bytes when the cache holds them now (null: held as absent), without reading; undefined when it does not. */
  peek(path: string): Uint8Array | null | undefined;
}

/**
 * A store read through one bounded memory cache, least recently used out first, by bytes: an
 * instance holds at most `maxBytes` of the artefact whatever the corpus (a file larger than the
 * bound is read each time and never kept). Concurrent reads of one file share one read; a failed
 * read is not kept.
 */
export function cachedStore(store: ArtefactStore, maxBytes: number): CachedStore {
  const kept = new Map<string, Uint8Array | null>();
  const reading = new Map<string, Promise<Uint8Array | null>>();
  let held = 0;
  const cost = (path: string, bytes: Uint8Array | null) => (bytes?.byteLength ?? 0) + path.length + ENTRY_OVERHEAD;
  function keep(path: string, bytes: Uint8Array | null) {
    const size = cost(path, bytes);
    if (size > maxBytes) return;
    kept.set(path, bytes);
    held += size;
    for (const [oldest, b] of kept) {
      if (held <= maxBytes) break;
      kept.delete(oldest);
      held -= cost(oldest, b);
    }
  }
  return {
    get held() {
      return held;
    },
    peek(path) {
      if (!kept.has(path)) return undefined;
      const bytes = kept.get(path)!;
      // Most recently used last: the Map's order is the eviction order.
      kept.delete(path);
      kept.set(path, bytes);
      return bytes;
    },
    get(path) {
      const held = this.peek(path);
      if (held !== undefined) return Promise.resolve(held);
      let pending = reading.get(path);
      if (!pending) {
        pending = store
          .get(path)
          .then((bytes) => {
            keep(path, bytes);
            return bytes;
          })
          .finally(() => reading.delete(path));
        reading.set(path, pending);
      }
      return pending;
    },
  };
}

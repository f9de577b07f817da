import { createCore, type Core } from '../core/index.ts';
import type { BodyStore, EntryBody } from '../core/types.ts';
import { CATALOG_FILE, readCatalog } from './catalog-file.ts';
import { loadSearchSource, type SourceOptions } from '../search/load-source.ts';
import { readJson, type BundleReader } from './reader.ts';
import { readLazyCatalog } from './lazy-catalog.ts';

/** Bodies load on demand and stay cached (up to `limit` of them). */
export function bundleBodyStore(reader: BundleReader, limit = 2000): BodyStore {
  const cache = new Map<string, Promise<EntryBody | undefined>>();
  return {
    get(slug, lang) {
      const key = `${slug}/${lang}`;
      let hit = cache.get(key);
      if (!hit) {
        hit = readJson<EntryBody>(reader, `bodies/${slug}/${lang}.json`).catch(() => undefined);
        if (cache.size >= limit) cache.delete(cache.keys().next().value!);
        cache.set(key, hit);
      }
      return hit;
    },
  };
}

/**
 * A bundle as a core, from wherever the host keeps it. Where the host reads synchronously (a disk:
 * the server, a build's steps) the posts' entries stay in their catalog parts until an answer asks
 * for them (lazy-catalog.ts); elsewhere the catalog is read whole.
 */
export async function loadBundleCore(reader: BundleReader, options?: SourceOptions & { catalogEntriesBytes?: number }): Promise<Core> {
  const catalog = reader.readSync ? await readLazyCatalog({ ...reader, readSync: reader.readSync }, options?.catalogEntriesBytes) : await readCatalog((name) => reader.read(name));
  if (!catalog) throw new Error(`the bundle has no ${CATALOG_FILE}`);
  return createCore(catalog, bundleBodyStore(reader), await loadSearchSource(reader, catalog.posts.length, options));
}

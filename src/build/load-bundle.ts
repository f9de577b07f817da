import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCore, type Core } from '../core/index.ts';
import type { BodyStore, Catalog, EntryBody } from '../core/types.ts';
import { loadSearchSource } from '../search/load-source.ts';

/** Reads a bundle folder into a core; bodies load on demand and stay cached. */
export function fileBodyStore(dir: string, limit = 2000): BodyStore {
  const cache = new Map<string, Promise<EntryBody | undefined>>();
  return {
    get(slug, lang) {
      const key = `${slug}/${lang}`;
      let hit = cache.get(key);
      if (!hit) {
        hit = readFile(join(dir, 'bodies', slug, `${lang}.json`), 'utf8').then(
          (s) => JSON.parse(s) as EntryBody,
          () => undefined,
        );
        if (cache.size >= limit) cache.delete(cache.keys().next().value!);
        cache.set(key, hit);
      }
      return hit;
    },
  };
}

export async function loadCore(dir: string): Promise<Core> {
  const catalog = JSON.parse(await readFile(join(dir, 'catalog.json'), 'utf8')) as Catalog;
  const slugs = catalog.posts.map((p) => p.slug);
  return createCore(catalog, fileBodyStore(dir), await loadSearchSource(join(dir, 'search'), slugs));
}

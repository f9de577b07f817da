import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { diskCatalog } from '../../bundle/load-bundle.ts';
import { readJson } from '../../fs/read-json.ts';
import { join } from 'node:path';
import type { Catalog, PostRecord } from '../../core/types.ts';
import { readTexts } from '../../search/texts-codec.ts';
import { placeFile } from './place-file.ts';
import { DIGESTS_FILE, type BundleDigests } from './reuse.ts';
import { LINKS_FILE, type FileLinks, type PostLinks } from '../check/links.ts';

/** A post's entry as the live bundle holds it. */
export interface LiveEntry {
  record: PostRecord;
  /** Its digest in digests.json. */
  digest: string;
  /** Its plain text in a language where it is searchable (by the same record and site settings, where it was). */
  text: (lang: string) => string | undefined;
  /** Its files' references and ids, for the link check. */
  links: FileLinks[];
  /** Links its rendered bodies and its media files (`assets`) into the bundle at `outDir`. */
  place(assets: readonly string[], outDir: string): Promise<void>;
}

/**
 * The bundle of the live build, made by the same code (the caller sees to that), as a source of
 * whole post entries: a post whose source digest (postSource in load/posts.ts) equals the live one
 * would be loaded, rendered and written into the same record, bodies, media and search text, so
 * they are taken from the live bundle instead: record and digest from its catalog and digests,
 * bodies and media linked, search texts read from its per-language texts.
 */
export async function liveBundle(dir: string) {
  const [catalog, digests, links] = await Promise.all([diskCatalog(dir), readJson<BundleDigests>(join(dir, DIGESTS_FILE)), readJson<PostLinks>(join(dir, LINKS_FILE))]);
  if (!catalog || !digests?.sources || !links) return undefined;
  const ids = new Map(catalog.posts.map((p, id) => [p.slug, id]));
  // Read when a search index is made again, each language once.
  const texts = new Map<string, (id: number) => string | undefined>();
  const textsOf = (lang: string) => {
    let byId = texts.get(lang);
    if (!byId) {
      byId = readTexts((name) => readFileSync(join(dir, 'search', name)), lang);
      texts.set(lang, byId);
    }
    return byId;
  };
  return {
    /** Its posts' slugs, in catalog order (their ids in its search indexes). */
    slugs: catalog.posts.map((p) => p.slug),
    /** The live entry of `slug` when its source digest is `source`; undefined for a post changed or new since. */
    entry(slug: string, source: string | undefined): LiveEntry | undefined {
      const id = ids.get(slug);
      const digest = digests.posts[slug];
      const postLinks = links[slug];
      if (id === undefined || digest === undefined || source === undefined || postLinks === undefined || digests.sources[slug] !== source) return undefined;
      const record = catalog.posts[id]!;
      return { record, digest, text: (lang) => textsOf(lang)(id), links: postLinks, place: (assets, outDir) => place(record, assets, outDir) };
    },
  };

  async function place(record: PostRecord, assets: readonly string[], outDir: string): Promise<void> {
    const files = [...Object.keys(record.entries).map((lang) => join('bodies', record.slug, `${lang}.json`)), ...assets.map((name) => join('media', record.slug, name))];
    await mkdir(join(outDir, 'bodies', record.slug), { recursive: true });
    if (assets.length > 0) await mkdir(join(outDir, 'media', record.slug), { recursive: true });
    for (const file of files) placeFile(join(dir, file), join(outDir, file));
  }
}

/**
 * Several earlier bundles as one source of entries: a merge's shards', each of which holds entries
 * of its own posts only (the others it outlined have no source digest in it). `slugs` (for its
 * search indexes) only when there is one bundle: shards hold search texts, no indexes.
 */
export async function liveBundles(dirs: readonly string[]) {
  const bundles = (await Promise.all(dirs.map((dir) => liveBundle(dir)))).filter((b) => b !== undefined);
  if (bundles.length === 0) return undefined;
  return {
    slugs: dirs.length === 1 ? bundles[0]!.slugs : undefined,
    entry: (slug: string, source: string | undefined): LiveEntry | undefined => {
      for (const b of bundles) {
        const entry = b.entry(slug, source);
        if (entry) return entry;
      }
      return undefined;
    },
  };
}

export type LiveBundle = NonNullable<Awaited<ReturnType<typeof liveBundles>>>;

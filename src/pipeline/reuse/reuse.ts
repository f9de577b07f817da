import { createHash } from 'node:crypto';
import { readJson } from '../../fs/read-json.ts';
import type { Reuse } from '../../site/page-reuse.ts';
import { placeFile } from './place-file.ts';
import { join } from 'node:path';
import { indexCatalog, type CatalogIndex } from '../../core/catalog-index.ts';
import { readNextOf } from '../../core/read-next.ts';
import type { Catalog, PostRecord } from '../../core/types.ts';
import { holderOf, type Manifest, type ManifestFile } from '../../artefact/manifest.ts';
import { fileAt, readManifest } from '../../artefact/client-files.ts';
import type { PublishedAnswer } from '../publish/publisher.ts';
import type { FileFacts, variantWriter } from '../publish/file-variants.ts';
import { buildLayout, type BuildLayout } from '../../artefact/roots.ts';
import { LANGUAGE_CODES } from '../../core/languages.ts';
import { pageFile } from '../../site/page-specs.ts';
import { menuTargets } from '../../site/menu.ts';
import { paths } from '../../core/urls.ts';

/**
 * Incremental builds at the grain of a post. A post's page in each language, its detail answers and
 * its Markdown twins are a function of the post (its record, rendered bodies and media, and what it
 * offers to read next) and of its root's scope (site settings, URLs, the languages that have posts, the pages and where the menu leads in each language), given the same code. When
 * the live build was made by the same code, with the same scope, and a post's digest is unchanged,
 * those files are taken from the live build (where it holds them) with their recorded facts instead of being made again.
 * A list page (a home or term page) is a function of what it shows (src/site/list-page.ts) and of
 * the same scope and code: one whose digest is unchanged is linked too. Every other file that
 * gathers posts (answers, feeds, sitemaps) is made anew, and linked when its bytes equal the live one's.
 */
export const DIGESTS_FILE = 'digests.json';
/** Written into a build's folder for its steps (Astro reads it through FOLIO_REUSE). */
export const REUSE_FILE = 'reuse.json';

export interface BundleDigests {
  scope: string;
  /** Per slug: the post's record, rendered bodies and media. */
  posts: Record<string, string>;
  /** Per slug: its `posts` digest and what its pages show of other posts (what its pages and answers are made of). */
  pages: Record<string, string>;
  /** Per slug: the post's source (its folder and what it takes from its root), to take its entry from the live bundle (live-bundle.ts). */
  sources: Record<string, string>;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A post's digest: its record and `bodies`, a digest of its rendered bodies and media bytes. */
export const postDigest = (record: PostRecord, bodies: string) => sha(`${JSON.stringify(record)}\0${bodies}`);

/**
 * What a post's pages show of other posts, in each language: the essays to read next, by slug and
 * title (src/core/read-next.ts). A new title or date elsewhere changes the post's pages.
 */
function readNextShown(index: CatalogIndex, post: PostRecord) {
  return (index.available.get(post) ?? []).map((lang) => {
    const { previous, next, related } = readNextOf(index)(post.slug, lang);
    return [previous, next, ...related].map((p) => p && [p.slug, p.entries[lang]!.title]);
  });
}

/** `posts`, `pages` and `sources`: per slug of a post with a digest in `posts`, the post's digest, its pages' and its source's. */
export function bundleDigests(catalog: Catalog, posts: ReadonlyMap<string, string>, sources: ReadonlyMap<string, string>): BundleDigests {
  const index = indexCatalog(catalog);
  const { languagesWithPosts } = index;
  const { posts: all, ...scope } = catalog;
  // A shard's bundle outlines other shards' posts (bundle.ts): its digests are of its own posts.
  const records = all.filter((p) => posts.has(p.slug));
  // Every page shows the menu, whose links follow which languages other posts are available in.
  const menu = LANGUAGE_CODES.map((lang) => menuTargets(index, lang).map((t) => t.lang));
  return {
    scope: sha(JSON.stringify({ scope, languagesWithPosts, menu })),
    posts: Object.fromEntries(records.map((p) => [p.slug, posts.get(p.slug)!])),
    pages: Object.fromEntries(records.map((p) => [p.slug, sha(`${posts.get(p.slug)!}\0${JSON.stringify(readNextShown(index, p))}`)])),
    sources: Object.fromEntries(records.map((p) => [p.slug, sources.get(p.slug)!])),
  };
}

/** The posts of each root whose digest equals the live build's, when code and scope are the same. */
export async function reusablePosts(live: BuildLayout | undefined, liveCode: string | undefined, code: string, next: BuildLayout, roots: readonly string[]): Promise<Reuse | undefined> {
  if (!live || liveCode !== code) return undefined;
  const posts: Record<string, string[]> = {};
  for (const root of roots) {
    const [before, now] = await Promise.all([readJson<BundleDigests>(join(live.bundle(root), DIGESTS_FILE)), readJson<BundleDigests>(join(next.bundle(root), DIGESTS_FILE))]);
    if (!before || !now || before.scope !== now.scope) continue;
    posts[root] = Object.keys(now.pages).filter((slug) => before.pages?.[slug] === now.pages[slug]);
  }
  return Object.values(posts).some((s) => s.length > 0) ? { from: live.dir, posts } : undefined;
}

/**
 * The live build's files, taken into a new build with their facts (no read, no hash, no coding). A
 * file stays in the folder that holds it, which the new manifest names (ManifestFile.held): an
 * unchanged file costs the build nothing on disk. Only the variants of a file this build wrote again
 * with the same bytes (a page Astro rendered) are linked beside it.
 */
function liveFiles(from: BuildLayout, manifest: Manifest, writer: ReturnType<typeof variantWriter>, client: string) {
  const byName = new Map(manifest.files.map((f) => [f.file, f]));
  const placeVariant = (f: ManifestFile, suffix: '.br' | '.gz') => {
    const to = join(client, `${f.file}${suffix}`);
    writer.ensureDir(to);
    placeFile(fileAt(from, manifest, f, suffix), to);
  };
  const adopt = async (f: ManifestFile, withBody = true): Promise<FileFacts> => {
    if (!withBody) {
      if (f.br !== undefined) placeVariant(f, '.br');
      if (f.gzip !== undefined) placeVariant(f, '.gz');
    }
    const facts: FileFacts = { etag: f.etag, length: f.length, ...(f.br !== undefined ? { br: f.br } : {}), ...(f.gzip !== undefined ? { gzip: f.gzip } : {}), ...(withBody ? { holder: holderOf(manifest, f) } : {}) };
    writer.record(f.file, facts);
    return facts;
  };
  // Any file made again with the bytes the live build published under its name: linked, not coded again.
  writer.takeFrom(async (name, etag, withBody) => {
    const f = byName.get(name);
    return f?.etag === etag ? adopt(f, withBody) : undefined;
  });
  return {
    /** Whether the live build published a file of that name. */
    has: (name: string) => byName.has(name),
    /** Whether `answers` can link the live build's answers of a path. */
    hasAnswers: (path: string) => {
      const entry = manifest.paths[path];
      return entry !== undefined && !entry.offers && Object.values(entry.answers).every((i) => typeof i === 'number' && manifest.files[i] !== undefined);
    },
    /** Links a file the live build published under the same name; false when it has none. */
    async file(name: string): Promise<boolean> {
      const f = byName.get(name);
      if (!f) return false;
      await adopt(f);
      return true;
    },
    /** Links every answer the live build published for a path, as the answers of this build. */
    async answers(path: string): Promise<PublishedAnswer[] | undefined> {
      const entry = manifest.paths[path];
      if (!entry || entry.offers) return undefined;
      const out: PublishedAnswer[] = [];
      const linked = new Set<string>();
      for (const [query, i] of Object.entries(entry.answers)) {
        const f = typeof i === 'number' ? manifest.files[i] : undefined;
        if (!f) return undefined;
        // Answers with the same bytes share a file (publish/publisher.ts): linked once.
        if (!linked.has(f.file)) await adopt(f);
        linked.add(f.file);
        out.push({ path, query, shape: entry.query, file: f.file, type: f.type, cacheControl: f.cacheControl, ...(f.headers ? { headers: f.headers } : {}) });
      }
      return out;
    },
  };
}

/** The live build's files for a build that reuses it (its manifest read once). */
export async function liveBuildFiles(reuse: Reuse, out: { files: ReturnType<typeof variantWriter> }, client: string) {
  const from = buildLayout(reuse.from);
  const manifest = await readManifest(from);
  const files = liveFiles(from, manifest, out.files, client);
  // The live build's media files by their post's folder (`/media/<slug>/`), grouped once when first asked.
  let byFolder: Map<string, string[]> | undefined;
  const media = () => {
    if (byFolder) return byFolder;
    byFolder = new Map();
    for (const { file } of manifest.files) {
      const folder = /^(?:\/[^/]+)?\/media\/[^/]+\//.exec(file)?.[0];
      if (folder) byFolder.set(folder, [...(byFolder.get(folder) ?? []), file]);
    }
    return byFolder;
  };
  return {
    ...files,
    /** A post's page in every language (or its unavailable page), its Markdown twins and its media, as the live build holds them. */
    async post(base: string, slug: string): Promise<void> {
      const names = LANGUAGE_CODES.flatMap((lang) => [...(['post', 'unavailable'] as const).map((kind) => pageFile(base, { kind, lang, slug })), paths.markdown({ base, site_url: '' }, slug, lang)]);
      for (const name of [...names, ...(media().get(paths.media({ base, site_url: '' }, slug, '')) ?? [])]) await files.file(name);
    },
  };
}

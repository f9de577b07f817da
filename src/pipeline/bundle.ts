import { createHash } from 'node:crypto';
import { catalogFiles } from '../bundle/catalog-file.ts';
import { siteUrlOf } from './site-url.ts';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DEFAULT_LANGUAGE } from '../core/languages.ts';
import { absolute, paths } from '../core/urls.ts';
import { format } from '../core/messages.ts';
import type { Catalog, EntryBody, EntryMeta, ImageInfo, PageRecord, PostRecord, Term } from '../core/types.ts';
import { menuOf } from './load/menu.ts';
import { DigestCache } from './derive/cache.ts';
import { fileDigests } from './reuse/file-digests.ts';
import { isImageName, measureImage } from './derive/images.ts';
import { VariantMaker } from './derive/image-variants.ts';
import { hasVariants, VARIANT_FOLDER, type ImageFacts } from '../core/responsive-images.ts';
import { pageReadingTime, readingTime } from '../core/reading-time.ts';
import type { Rendered } from './derive/render.ts';
import { renderPool, type RenderPool } from './derive/render-pool.ts';
import { pooled } from './derive/pooled.ts';
import { sourceHash } from './derive/source-hash.ts';
import { LARGE_SOURCE_BYTES, loadPage, loadPost, listPostSlugs, postSource, type FolderSource, type PageEnglishSource, type PostSource, type SourceFile, type TranslationSource } from './load/posts.ts';
import { loadSite } from './load/site.ts';
import { loadTermNames, usedTerms } from './load/taxonomies.ts';
import { slugify } from './load/slugify.ts';
import { ContentErrors, FileError } from './load/file-error.ts';
import { printedQuotes } from '../site/reader-text.ts';
import { writeSearchIndexes, writeSearchTexts } from './index/search-indexes.ts';
import { TextSpill } from './index/text-spill.ts';
import { bundleDigests, DIGESTS_FILE, postDigest } from './reuse/reuse.ts';
import { liveBundles, type LiveEntry } from './reuse/live-bundle.ts';
import { nextScheduled, postVisibility, translationVisibility, type Dated, type Preview, type Scheduled } from './load/visibility.ts';
import { indexCatalog } from '../core/catalog-index.ts';
import { bodyLineOffset, checkLinks, LINKS_FILE, type FileLinks, type PostLinks } from './check/links.ts';
import { sitePaths } from './check/site-paths.ts';
import { coverAltWarnings } from './check/cover-alt.ts';

const POST_CONCURRENCY = 8;

/** Bump when rendering changes, so cached results are recomputed. */
const RENDER_VERSION = '7';

export interface BundleOptions {
  /** Content root: site.yaml and posts/. */
  contentDir: string;
  /** Where the bundle goes: the catalog (catalog-file.ts), bodies/, media/. */
  outDir: string;
  /** '' for the site, '/sandbox' for the sandbox. */
  base: string;
  siteUrl?: string;
  cacheDir: string;
  /**
   * Earlier bundles of this root made by the same code: unchanged posts' entries are taken from them
   * (the live build's; a merge's shards', each for its own posts). One alone lends its search indexes too.
   */
  liveDirs?: readonly string[];
  /**
   * A shard of a sharded build: the posts whose entries it makes (bodies, media, search texts). Every
   * other post is outlined from its front matter, nothing rendered: what its neighbours' pages and
   * the menu show of it (title, date, languages, terms).
   */
  only?: ReadonlySet<string>;
  /** A preview build (`npm run dev`): drafts and scheduled posts are in it, marked; a published build leaves them out. */
  previews?: boolean;
  /** The time that decides which posts are due (ms since the epoch); now by default. */
  now?: number;
  /** The bases of the build's other roots: links into them are not this root's to check. */
  otherBases?: readonly string[];
  /** The folder the site publishes at its root as it is (`public/`): links to its files are valid. */
  publicDir?: string;
  /** Where each rendered post's page bodies go for this build's pages (src/site/reader-bodies.ts). */
  readerDir?: string;
  /**
   * The render threads, shared by the roots a process bundles (the caller closes them): each thread
   * loads the whole Markdown stack, about a second of CPU, and the sandbox's few files paid it again.
   * Without it, the bundle starts threads of its own and closes them when done.
   */
  renders?: RenderPool;
}

/** What a published build left out: its drafts and scheduled posts, and the next of these to go out. */
export interface LeftOut {
  drafts: number;
  scheduled: number;
  next?: Scheduled;
}

export interface BundleResult {
  catalog: Catalog;
  leftOut: LeftOut;
  /** What the author should fix but the build goes on without: one line each, the file named. */
  warnings: string[];
  /** Images: variants encoded in this build, and variants taken from the cache instead. */
  stats: { posts: number; postsTaken: number; postsOutlined: number; entries: number; cacheHits: number; cacheMisses: number; imagesEncoded: number; imagesReused: number; searchTaken: number; searchUpdated: number; references: number; checkMs: number };
}

/** What the bundle step prints once every root's content is bundled (its search indexes come next). */
/** A bundle without its search indexes yet: what the pages need is written, `searchIndexes` writes the rest. */
export interface BundleContent {
  catalog: Catalog;
  leftOut: LeftOut;
  warnings: string[];
  stats: Omit<BundleResult['stats'], 'searchTaken' | 'searchUpdated'>;
  searchIndexes(): Promise<{ taken: number; updated: number }>;
  /** A shard's part of them instead: its posts' search texts, which the merge indexes (live-bundle.ts). */
  searchTexts(): Promise<void>;
  /** Deletes the spilled search texts unindexed: the step fails before it indexes them (either of the above does it once done). */
  discard(): void;
}

/** The whole bundle of a content root. */
export async function buildBundle(opts: BundleOptions): Promise<BundleResult> {
  const { catalog, leftOut, warnings, stats, searchIndexes } = await bundleContent(opts);
  const search = await searchIndexes();
  return { catalog, leftOut, warnings, stats: { ...stats, searchTaken: search.taken, searchUpdated: search.updated } };
}

function terms(names: string[], file: string, field: string): Term[] {
  return names.map((name) => {
    const slug = slugify(name);
    if (!slug) throw new FileError(file, field, `has "${name}", which gives an empty slug`);
    return { slug, name };
  });
}

/**
 * A content root's bundle but for its search indexes (catalog, bodies, media, digests), so that
 * what needs no search (the pages) can start while they are written.
 */
export async function bundleContent(opts: BundleOptions): Promise<BundleContent> {
  // Beside the bundle's folder, never in it; deleted once the texts are indexed, or at once when
  // anything fails before (a content error, or an exception: a full disk, a bug).
  await mkdir(dirname(opts.outDir), { recursive: true });
  const spill = new TextSpill(`${opts.outDir}.texts.spill`);
  try {
    return await bundleInto(opts, spill);
  } catch (e) {
    spill.close();
    throw e;
  }
}

async function bundleInto(opts: BundleOptions, spill: TextSpill): Promise<BundleContent> {
  const site = await loadSite(opts.contentDir);
  const siteUrl = siteUrlOf(opts.siteUrl, site.url);
  const scope = { site_url: siteUrl, base: opts.base };
  const postsDir = join(opts.contentDir, 'posts');
  const cache = new DigestCache<Rendered>(opts.cacheDir);
  const live = opts.liveDirs?.length ? await liveBundles(opts.liveDirs) : undefined;
  // What a post's entry takes from its root besides its folder (the code is the live build's, or nothing is taken).
  const context = JSON.stringify({ siteUrl, base: opts.base, settings: site.settings });
  await rm(opts.outDir, { recursive: true, force: true });
  // Made here: a shard may hold none of a root's posts, so nothing below makes it.
  await mkdir(opts.outDir, { recursive: true });
  const variants = new VariantMaker(opts.cacheDir, join(opts.outDir, 'media', VARIANT_FOLDER));
  const encoding: Promise<void>[] = [];
  const encodeErrors: FileError[] = [];
  const posts: PostRecord[] = [];
  const texts = new Map<string, (lang: string) => string | undefined>();
  const spilled = (slug: string) => (lang: string) => spill.get(`${slug}\0${lang}`);
  const postDigests = new Map<string, string>();
  const sourceDigests = new Map<string, string>();
  const links: PostLinks = {};
  const assets = new Map<string, readonly string[]>();
  let entries = 0;
  const taken = new Set<string>();
  const outlined = new Set<string>();
  const now = opts.now ?? Date.now();
  const previews = opts.previews ?? false;
  // Posts left out of this build (drafts, scheduled), by their English source's draft flag and date.
  const leftOut: (Dated & { slug: string })[] = [];

  /** Every responsive variant of the post's images, into the bundle (encoded once, then from the cache). */
  const encodeVariants = (dir: string, mediaPath: string, images: readonly ImageInfo[]) => {
    for (const { path, width, height, digest } of images) {
      const file = join(dir, path.slice(mediaPath.length));
      if (hasVariants(file)) encoding.push(variants.make(file, { width, height, digest }).catch((e: Error) => void encodeErrors.push(new FileError(file, '', `could not be encoded: ${e.message}`))));
    }
  };

  /** A post's featured image: its file's name and its English alt text. */
  type Cover = { name: string; alt?: string };
  type Bundled = { record: PostRecord; text: (lang: string) => string | undefined; digest: string; links: FileLinks[] };
  /** Another shard's post (opts.only): its record alone. */
  type Outlined = { record: PostRecord };
  /** A post unchanged since the live build: its entry taken whole (bodies and media linked). */
  const takePost = async (entry: LiveEntry, assets: readonly string[]): Promise<Bundled> => {
    await entry.place(assets, opts.outDir);
    encodeVariants(join(postsDir, entry.record.slug), paths.media(scope, entry.record.slug, ''), entry.record.images);
    entries += Object.keys(entry.record.entries).length;
    return entry;
  };
  /**
   * A post's or page's folder rendered into the bundle: its bodies and media written, its entries
   * (each marked with its preview, a draft's or a scheduled post's, in a preview build), images and links.
   */
  /** How a folder's files render (through the render cache), with its images measured. */
  const folderRenderer = async (source: FolderSource<PageEnglishSource>) => {
    const mediaPath = paths.media(scope, source.slug, '');
    const facts: Record<string, ImageFacts> = {};
    for (const name of source.assets.filter(isImageName)) facts[name] = await measureImage(source.dir, name);
    const ctx = { mediaPath, mediaRoot: paths.mediaRoot(scope), images: facts, siteUrl, assets: source.assets };
    const renderFile = (file: SourceFile) =>
      cache.get(DigestCache.digest(RENDER_VERSION, siteUrl, mediaPath, file.lang, file.format, source.assets.join('/'), JSON.stringify(facts), file.body), () =>
        renders.render(file.format, file.body, { ...ctx, lang: file.lang }),
      );
    return { mediaPath, facts, renderFile };
  };
  /** A rendered file's references for the link check, at their lines in the file (not the body). */
  const fileLinks = (file: SourceFile, rendered: Rendered): FileLinks => {
    const offset = bodyLineOffset(file.raw, file.body);
    return { name: basename(file.file), lang: file.lang, refs: rendered.refs.map((r) => ({ ...r, line: r.line + offset })), ids: rendered.ids };
  };
  /** The files a folder publishes: its English and each stamped translation (a draft one only in a preview). */
  const publishedFiles = (source: FolderSource<PageEnglishSource>): SourceFile[] => [source.english, ...source.translations.filter((t) => t.source_hash && translationVisibility(t, previews).in)];
  /** A published file's entry; `made` is what rendering it gives (its reading time, its images' alt texts). */
  const entryOf = (source: FolderSource<PageEnglishSource>, file: SourceFile, englishHash: string, made: Pick<EntryMeta, 'page_reading_time' | 'alts'>, preview: Preview | undefined): EntryMeta => {
    const { english } = source;
    if (file === english) return { title: english.title, summary: english.summary, modified: english.modified, page_reading_time: made.page_reading_time, state: 'available', alts: made.alts, ...(preview ? { preview } : {}) };
    const t = source.translations.find((x) => x === file)!;
    return {
      title: t.title,
      summary: t.summary,
      modified: t.modified,
      page_reading_time: made.page_reading_time,
      provider: t.provider,
      automated: t.automated,
      verified: t.verified,
      // A person's text kept under a changed English is stale until reviewed.
      state: t.source_hash === englishHash && t.needs_review.length === 0 ? 'available' : 'stale',
      alts: made.alts,
      ...(preview ? { preview } : {}),
    };
  };
  /**
   * A scheduled post left out of this build, checked as if it were published (its links, at every
   * build), so that a broken link is found when it is written, not when it falls due.
   */
  const scheduledLinks = async (source: PostSource): Promise<FileLinks[]> => {
    const { renderFile } = await folderRenderer(source);
    return Promise.all(publishedFiles(source).map(async (file) => fileLinks(file, await renderFile(file))));
  };
  const bundleFolder = async (source: FolderSource<PageEnglishSource>, cover: Cover | undefined, previewOf: (file: SourceFile) => Preview | undefined, readerDir?: string) => {
    const { english, slug } = source;
    const { mediaPath, facts, renderFile } = await folderRenderer(source);
    const englishHash = sourceHash(english.title, english.body);
    const folderEntries: Record<string, EntryMeta> = {};
    const folderLinks: FileLinks[] = [];
    const imageNames = new Set<string>(cover ? [cover.name] : []);
    const bodyDir = join(opts.outDir, 'bodies', slug);
    // Synchronous, as the bodies below: a small write costs less than its trips through libuv's pool.
    mkdirSync(bodyDir, { recursive: true });
    if (readerDir) mkdirSync(readerDir, { recursive: true });
    const bytes = createHash('sha256');

    // An unstamped translation (a scaffold still holding the English) is not published until it is stamped.
    for (const file of publishedFiles(source)) {
      const rendered = await renderFile(file);
      rendered.localImages.forEach((img) => imageNames.add(img.name));
      const alts = Object.fromEntries(rendered.localImages.filter((img) => img.alt).map((img) => [mediaPath + img.name, img.alt]));
      // The cover's alt text: the file's own front matter's, else the English one.
      const coverAlt = cover && ((file as { featured_image_alt?: string }).featured_image_alt ?? cover.alt);
      if (cover && coverAlt) alts[mediaPath + cover.name] = coverAlt;
      const body: EntryBody = {
        content_html: rendered.html,
        content_markdown: rendered.markdown,
        reading_time: readingTime(rendered.text, file.lang),
        links: rendered.links,
        media: rendered.media,
        structure: { sections: rendered.sections },
      };
      const json = JSON.stringify(body);
      bytes.update(`${file.lang}\0${json}\0`);
      writeFileSync(join(bodyDir, `${file.lang}.json`), json);
      if (readerDir && rendered.reader !== undefined) writeFileSync(join(readerDir, `${file.lang}.html`), rendered.reader);
      // Search snippets quote the essay as its page does (the language's quotation marks).
      spill.put(`${slug}\0${file.lang}`, printedQuotes(rendered.text, file.lang));
      folderLinks.push(fileLinks(file, rendered));
      entries++;
      folderEntries[file.lang] = entryOf(source, file, englishHash, { page_reading_time: pageReadingTime(rendered.text, file.lang), alts }, previewOf(file));
    }

    const images: ImageInfo[] = [];
    for (const name of imageNames) {
      const { width, height, digest } = facts[name] ?? (await measureImage(source.dir, name));
      images.push({ path: mediaPath + name, width, height, digest, featured: name === cover?.name });
    }
    encodeVariants(source.dir, mediaPath, images);
    if (source.assets.length > 0) {
      const mediaDir = join(opts.outDir, 'media', slug);
      await mkdir(mediaDir, { recursive: true });
      for (const n of source.assets) {
        // Read once, synchronously (a post's few files): the bytes digested are the bytes copied.
        copyFileSync(join(source.dir, n), join(mediaDir, n));
        bytes.update(`${n}\0`).update(readFileSync(join(mediaDir, n)));
      }
    }
    return { entries: folderEntries, images, links: folderLinks, bytes: bytes.digest('hex') };
  };
  const sizeWarnings: string[] = [];
  /** The links of scheduled posts left out of this build, checked with the others. */
  const scheduled: PostLinks = {};
  const noteLarge = (source: { large: { file: string; bytes: number }[] }) => {
    for (const { file, bytes } of source.large) {
      sizeWarnings.push(`${file}: is ${(bytes / 1e6).toFixed(1)} MB, over the ${LARGE_SOURCE_BYTES / 1e6} MB a post is expected to be: it builds slowly (split it into several posts, or move data into files beside it)`);
    }
  };
  /** A post's record around its `images` and `entries`. */
  const postRecord = (slug: string, english: PostSource['english'], images: ImageInfo[], entries: Record<string, EntryMeta>): PostRecord => ({
    slug,
    date: english.date,
    ...(english.modified ? { modified: english.modified } : {}),
    author: english.author ?? site.settings.author,
    featured_image: english.featured_image ? paths.media(scope, slug, english.featured_image) : null,
    categories: terms(english.categories, english.file, 'categories'),
    tags: terms(english.tags, english.file, 'tags'),
    images,
    entries,
  });
  /** A post's entry made (rendered, written); `outline` (another shard's post): its record only, from its front matter. */
  const bundlePost = async (slug: string, outline = false): Promise<Bundled | Outlined | undefined> => {
    const source: PostSource = await loadPost(postsDir, slug);
    const { english } = source;
    const visibility = postVisibility(english, now, previews);
    const previewOf = (file: SourceFile) => (file === english ? visibility.preview : visibility.preview ?? translationVisibility(file as TranslationSource, previews).preview);
    // Another shard's post: left out as its own shard leaves it out, else its entries as its neighbours' pages show them (nothing rendered: no reading time, no images).
    if (outline) {
      if (!visibility.in) return undefined;
      const englishHash = sourceHash(english.title, english.body);
      const entries = Object.fromEntries(publishedFiles(source).map((file) => [file.lang, entryOf(source, file, englishHash, { page_reading_time: 0, alts: {} }, previewOf(file))]));
      return { record: postRecord(slug, english, [], entries) };
    }
    noteLarge(source);
    if (!visibility.in) {
      leftOut.push({ slug, date: english.date, draft: english.draft });
      if (!english.draft) scheduled[slug] = await scheduledLinks(source);
      return undefined;
    }
    const folder = await bundleFolder(source, english.featured_image ? { name: english.featured_image, alt: english.featured_image_alt } : undefined, previewOf, opts.readerDir && join(opts.readerDir, slug));
    const record = postRecord(slug, english, folder.images, folder.entries);
    return { record, text: spilled(slug), digest: postDigest(record, folder.bytes), links: folder.links };
  };
  // Posts are bundled a few at a time (their reads and writes overlap); every post is read even
  // after an error, so the build reports all of them at once, in folder order.
  const slugs = await listPostSlugs(postsDir, true);
  if (slugs.length === 0) throw new FileError(postsDir, '', 'holds no posts: add one with npm run new -- "The Title" (a folder posts/<slug>/ with en.md)');
  const renders = opts.renders ?? renderPool();
  // The build's fingerprint has just digested every content file (scripts/build.ts): their digests are taken from it.
  const digests = fileDigests(opts.cacheDir);
  const bundle = (slug: string) => {
    const source = postSource(postsDir, slug, context, digests);
    // Its media are known to the link check (a link into them is valid); its source digest is its own shard's to record.
    if (source) assets.set(slug, source.assets);
    if (opts.only && !opts.only.has(slug)) {
      outlined.add(slug);
      return bundlePost(slug, true);
    }
    if (source) sourceDigests.set(slug, source.digest);
    const entry = source && live?.entry(slug, source.digest);
    // A preview of a scheduled post that has become due is made again, without its banner.
    const overdue = entry && Date.parse(entry.record.date) <= now && Object.values(entry.record.entries).some((e) => e.preview === 'scheduled');
    if (!entry || overdue) return bundlePost(slug);
    taken.add(slug);
    return takePost(entry, source.assets);
  };
  const bundlePage = async (slug: string) => {
    if (slugs.includes(slug)) throw new FileError(join(pagesDir, slug), '', `collides with the post ${join(postsDir, slug)} (both would live at /${slug}); rename one folder`);
    const source = await loadPage(pagesDir, slug);
    noteLarge(source);
    const folder = await bundleFolder(source, undefined, () => undefined);
    const record: PageRecord = { slug, ...(source.english.modified ? { modified: source.english.modified } : {}), entries: folder.entries };
    return { record, links: folder.links, assets: source.assets };
  };
  // Pages beside the posts, never among them: a page may not take a post's slug (both would live at /{slug}).
  const pagesDir = join(opts.contentDir, 'pages');
  const pageSlugs = await listPostSlugs(pagesDir, true);
  const settle = <T>(work: Promise<T>) => work.then((b) => ({ b }), (e: unknown) => ({ e }));
  const [done, pagesDone] = await Promise.all([
    pooled(slugs, POST_CONCURRENCY, (slug) => settle(bundle(slug))),
    pooled(pageSlugs, POST_CONCURRENCY, (slug) => settle(bundlePage(slug))),
  ]).finally(() => (opts.renders ? undefined : renders.close()));
  const errors: FileError[] = [];
  const pages: PageRecord[] = [];
  const failed = new Set<string>();
  const collect = (e: unknown) => {
    if (e instanceof ContentErrors) errors.push(...e.errors);
    else if (e instanceof FileError) errors.push(e);
    else throw e;
  };
  done.forEach((result, i) => {
    if (!('b' in result)) {
      failed.add(slugs[i]!);
      return collect(result.e);
    }
    // Left out of this build (a draft or a scheduled post).
    if (!result.b) return;
    posts.push(result.b.record);
    if (!('digest' in result.b)) return;
    texts.set(slugs[i]!, result.b.text);
    postDigests.set(slugs[i]!, result.b.digest);
    links[slugs[i]!] = result.b.links;
  });
  // A page's links are checked like a post's (a page is always bundled anew: they are not kept for reuse).
  const pageLinks: PostLinks = {};
  const pageFolders = new Map<string, string>();
  pagesDone.forEach((result, i) => {
    if (!('b' in result)) return collect(result.e);
    pages.push(result.b.record);
    pageLinks[pageSlugs[i]!] = result.b.links;
    pageFolders.set(pageSlugs[i]!, join(pagesDir, pageSlugs[i]!));
    assets.set(pageSlugs[i]!, result.b.assets);
  });
  const held: LeftOut = { drafts: leftOut.filter((p) => p.draft).length, scheduled: leftOut.filter((p) => !p.draft).length, next: nextScheduled(leftOut, now) };
  // With no post published, the menu's categories and the pages' links to the home fail too: the cause alone is said.
  if (posts.length === 0 && failed.size === 0 && leftOut.length > 0) throw new FileError(postsDir, '', `holds no published post yet (${held.drafts} draft${held.drafts === 1 ? '' : 's'}, ${held.scheduled} scheduled): publish one with npm run publish -- <slug>, or see them with npm run dev`);
  const categories = new Set(posts.flatMap((p) => p.categories.map((t) => t.slug)));
  const menu = menuOf(site, new Set(pages.map((p) => p.slug)), categories, errors);
  await Promise.all(encoding);
  errors.push(...encodeErrors);
  posts.sort((a, b) => (a.date === b.date ? a.slug.localeCompare(b.slug) : b.date.localeCompare(a.date)));
  // Links are checked with every other content error, against the posts that loaded (a link into a post that did not is not judged,
  // nor in a shard one into another shard's post: the merge checks every post's links).
  const checking = performance.now();
  const index = indexCatalog({ site_url: siteUrl, base: opts.base, site: site.settings, term_names: { categories: {}, tags: {} }, posts, pages, menu });
  const known = sitePaths({ index, scope, assets, routes: async () => (await import('../../functions/routes.ts')).ROUTES, publicDir: opts.publicDir, otherBases: opts.otherBases ?? [] });
  errors.push(...(await checkLinks({ postsDir, scope, site: known, assets, links: { ...links, ...pageLinks }, pending: new Set([...failed, ...outlined]), folders: pageFolders })));
  // A scheduled post may link to itself and to other scheduled posts (published by the time it is); a published one may not.
  errors.push(...(await checkLinks({ postsDir, scope, site: known, assets, links: scheduled, pending: new Set([...failed, ...Object.keys(scheduled)]) })));
  const checkMs = performance.now() - checking;
  const references = Object.values(links).flat().reduce((n, f) => n + f.refs.length, 0);
  if (errors.length > 0) throw new ContentErrors(errors);

  const termNames = await loadTermNames(opts.contentDir, usedTerms((kind) => posts.flatMap((p) => p[kind].map((t) => t.slug))));
  const filling = { name: site.settings.name, url: absolute(scope, paths.home(scope, DEFAULT_LANGUAGE)).replace(/\/$/, '') };
  const filled = (text: string) => format(text, filling);
  // A translated sentence holds the name and address isolated (FSI…PDI), so that in a right-to-left
  // language the parenthesised Latin address keeps its order and its brackets.
  const isolated = Object.fromEntries(Object.entries(filling).map(([k, v]) => [k, `\u2068${v}\u2069`]));
  const attributions = Object.fromEntries(Object.entries(site.settings.attributions).map(([code, text]) => [code, format(text, isolated)]));
  const catalog: Catalog = { site_url: siteUrl, base: opts.base, site: { ...site.settings, attribution: filled(site.settings.attribution), attributions }, term_names: termNames, posts, pages, menu };
  for (const [name, json] of catalogFiles(catalog)) await writeFile(join(opts.outDir, name), json);
  await writeFile(join(opts.outDir, DIGESTS_FILE), JSON.stringify(bundleDigests(catalog, postDigests, sourceDigests)));
  await writeFile(join(opts.outDir, LINKS_FILE), JSON.stringify(Object.fromEntries(Object.keys(links).sort().map((slug) => [slug, links[slug]]))));
  const changed = new Set(slugs.filter((slug) => !taken.has(slug)));
  // One earlier bundle lends its search indexes (what did not change kept, a few posts updated); a merge's shards hold their posts' texts only.
  const liveDir = opts.liveDirs?.length === 1 ? opts.liveDirs[0] : undefined;
  const liveSearch = liveDir && { dir: join(liveDir, 'search'), ...(live?.slugs ? { posts: { slugs: live.slugs, changed } } : {}) };
  return {
    catalog,
    leftOut: held,
    warnings: [...sizeWarnings, ...coverAltWarnings(posts.filter((p) => !outlined.has(p.slug)), postsDir, links)],
    stats: { posts: posts.length, postsTaken: taken.size, postsOutlined: outlined.size, entries, cacheHits: cache.hits, cacheMisses: cache.misses, imagesEncoded: variants.encoded, imagesReused: variants.reused, references, checkMs },
    searchIndexes: () => writeSearchIndexes(catalog, (slug, lang) => texts.get(slug)?.(lang), join(opts.outDir, 'search'), liveSearch || undefined).finally(() => spill.close()),
    searchTexts: () => writeSearchTexts(catalog, (slug, lang) => texts.get(slug)?.(lang), join(opts.outDir, 'search')).finally(() => spill.close()),
    discard: () => spill.close(),
  };
}

/** Shapes of the bundle: what the build writes and the core reads. */
export type TranslationState = 'available' | 'stale' | 'missing';

export interface Product {
  title: string;
  description: string;
  format: string;
  price_usd: number;
  currency: string;
  landing_url: string;
  download_url: string;
}

export interface SiteSettings {
  name: string;
  description: string;
  /** Optional localized descriptions, by language code. */
  descriptions: Record<string, string>;
  author: string;
  /** The attribution sentence ({name} and {url} filled at build time): what the API prints. */
  attribution: string;
  /** Its translations, by language code, filled the same way: what each language's pages print. */
  attributions: Record<string, string>;
  /** Serve stale translations (marked `stale: true`) instead of treating them as unavailable. */
  serve_stale: boolean;
  product: Product;
  /** Paths /robots.txt asks crawlers to leave alone (none by default: everything may be crawled). */
  robots_disallow: string[];
}

/** One post in one language, without its body. */
export interface EntryMeta {
  title: string;
  summary?: string;
  modified?: string;
  /** The reader's site's reading time (pageReadingTime in src/core/reading-time.ts): what its pages and cards show. */
  page_reading_time: number;
  /** Translation fields; absent on the English source. */
  provider?: string | null;
  automated?: boolean;
  verified?: boolean;
  state: Exclude<TranslationState, 'missing'>;
  /** Alt text of the entry's inline images, by site path. */
  alts?: Record<string, string>;
  /** Only in a preview build (`npm run dev`): a draft or a scheduled post, which a published build leaves out (src/pipeline/load/visibility.ts). */
  preview?: 'draft' | 'scheduled';
}

export type TaxonomyKind = 'categories' | 'tags';

export interface Term {
  slug: string;
  /** The English name, as the posts' front matter writes it. */
  name: string;
}

/**
 * Names of the categories and tags in other languages (content/taxonomies.yaml): by taxonomy, by
 * the term's (English) slug, then by language code. A name not given reads the English one.
 */
export type TermNames = Record<TaxonomyKind, Record<string, Record<string, string>>>;

export interface ImageInfo {
  /** Site path (base included), e.g. /media/<slug>/cover.jpg */
  path: string;
  width: number;
  height: number;
  /** sha256 of the file: names its AVIF/WebP variants (src/core/responsive-images.ts). */
  digest: string;
  featured: boolean;
}

export interface PostRecord {
  slug: string;
  date: string;
  modified?: string;
  author: string;
  featured_image: string | null;
  categories: Term[];
  tags: Term[];
  images: ImageInfo[];
  /** Entries by language code; `en` is always present. */
  entries: Record<string, EntryMeta>;
}

/** A standalone page (About, Colophon): no date, terms or author, never in a post list. */
export interface PageRecord {
  slug: string;
  modified?: string;
  /** Entries by language code; `en` is always present. */
  entries: Record<string, EntryMeta>;
}

/** An entry of the site menu (content/site.yaml `menu:`), in the order written. */
export interface MenuItem {
  kind: 'page' | 'category';
  slug: string;
  /** A page's label in the languages it has no translation in (site.yaml `menu_names:`), by language code. */
  names?: Record<string, string>;
}

export interface Catalog {
  /** Origin of every absolute URL, without trailing slash. */
  site_url: string;
  /** Path prefix of this content root: '' for the site, '/sandbox' for the sandbox. */
  base: string;
  site: SiteSettings;
  term_names: TermNames;
  /** Newest first. */
  posts: PostRecord[];
  /** Standalone pages, by slug. */
  pages: PageRecord[];
  menu: MenuItem[];
}

export interface MediaItem {
  type: 'image' | 'video';
  src: string;
}

export interface Section {
  level: number;
  text: string;
  /** The heading's id in `content_html` (its fragment on the page). */
  id: string;
}

/** The heavy part of a post in one language, stored apart from the catalog. */
export interface EntryBody {
  content_html: string;
  content_markdown: string;
  reading_time: number;
  links: string[];
  media: MediaItem[];
  structure: { sections: Section[] };
}

export interface BodyStore {
  get(slug: string, lang: string): Promise<EntryBody | undefined>;
}

/** Posts (positions in the catalog's posts) as a search finds them, most relevant first; read-only (it may be the index itself). */
export type Ids = ArrayLike<number> & Iterable<number>;

/** A search's matches in one language. */
export interface SearchMatch {
  /** Posts holding at least one word of the query, those holding every word first, then those holding most (README, "What search matches"). */
  ids: Ids;
  /** The query's words (queryUnits: in Chinese and Japanese what was written together), as typed in lower case, that a post of `ids` holds in no form; [] when it holds them all. */
  missing(id: number): string[];
  /** The query's words (folded) a post of `ids` holds as written or as the start of a longer word: what its snippet looks for first (the others are not in its text). */
  terms(id: number): string[];
}

/** The prebuilt search indexes, as the core sees them. */
export interface SearchSource {
  /**
   * A view of the languages' indexes for one answer (a host that reads them lazily reads each
   * language's word list now); the view's methods are called only for those languages.
   */
  load(langs: readonly string[]): Promise<SearchView>;
}

/**
 * The indexes as one answer reads them, synchronously. A word's posts are read in parts (by term
 * range, docs/search.md): a part that is not at hand reads as no posts and is noted, and
 * `readMissing` reads what was noted, so an answer is made again until nothing was missing
 * (searched in core/index.ts).
 */
export interface SearchView {
  /** Posts matching words of `text` in `lang` (positions in the catalog's posts), most relevant first. */
  match(lang: string, text: string): SearchMatch;
  /** Plain text of a post's body in a language (the post by its position in the catalog). */
  text(lang: string, id: number): string | undefined;
  /** The words `text` matches in `lang` besides its own words and those they begin (other forms, corrected typos): what snippets show. */
  forms(lang: string, text: string): string[];
  /** `text` with each word `lang`'s posts hold in no form replaced by the nearest one they hold, when that finds posts; else undefined. */
  suggest(lang: string, text: string): string | undefined;
  /** Reads the parts the calls so far found missing and holds them for this view; true when there were any (what was answered may be short of them). */
  readMissing(): Promise<boolean>;
}

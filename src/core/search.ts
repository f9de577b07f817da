import { mergeByLanguage, resolve, type Resolved } from './availability.ts';
import type { CatalogIndex } from './catalog-index.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import { readContent, readPage, readSearchText, type Params } from './params.ts';
import { meta, summary, type ResponseMeta, type Summary } from './shape.ts';
import { snippet } from './snippet.ts';
import { cut, pageWindow, type Window } from './window.ts';
import { fold } from '../search/encoders.ts';
import type { SearchMatch, SearchView } from './types.ts';

export interface SearchHit extends Summary {
  snippet: string;
  /** The query's words (in Chinese and Japanese, what was written together) this post holds in no form, as typed in lower case; [] when it holds them all: such posts rank after those holding every word. */
  missing_words: string[];
}

export interface ImageRecord {
  type: 'image';
  url: string;
  title: string;
  description: string;
  width: number;
  height: number;
  post_slug: string;
  post_url: string;
  post_title: string;
}

export interface SearchBody {
  attribution: string;
  data: SearchHit[];
  meta: ResponseMeta;
  query: string;
  total: number;
  images: ImageRecord[];
  total_images: number;
  /** The query with its words that no post holds in any form replaced by the nearest word posts hold (docs/search.md, "What search matches"); null when none is. */
  suggestion: string | null;
}

export interface SearchRun {
  body: SearchBody;
  /** Rank of the first item minus one (for surfaces that number results). */
  offset: number;
}

/** Quoted parts of a query must appear as written (after folding). */
function phrases(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1]!.trim()).filter(Boolean);
}

/** Text as a phrase is compared: folded, one space between words, typographic quotes as typed (the texts have the page's). */
const plain = (lang: string, text: string) => fold(lang, text).replace(/\s+/g, ' ').replace(/[‘’]/g, "'").replace(/[“”„«»「」]/g, '"');

/** A matching post as a search answers it, with its position in the catalog (the index's id); resolved (its entry read) only where an answer reads it (a phrase's check, the page). */
class Found {
  readonly id: number;
  readonly #index: CatalogIndex;
  readonly #lang: string;
  #resolved: Resolved | undefined;
  constructor(index: CatalogIndex, id: number, lang: string) {
    this.id = id;
    this.#index = index;
    this.#lang = lang;
  }
  /** The post in the search's language, else its English original (Tables: a hit is one or the other). */
  get resolved(): Resolved {
    return (this.#resolved ??= resolve(this.#index.catalog.posts[this.id]!, this.#lang, true, this.#index.policy) as Resolved);
  }
}

/** A match: the post, and the query's words it lacks. */
interface Hit {
  found: Found;
  missing: string[];
  /** The match it came from (its snippet's terms). */
  match: SearchMatch;
}

/** How a post stands in a language (Tables): not searched there, read in it, or its English original standing in. */
const NONE = 0;
const OWN = 1;
const STAND = 2;

/**
 * What does not depend on the query, worked out once per core and language on first use: how each
 * post resolves in `lang`, a byte a post (a result's resolution and summary are made again for the
 * answer's page only: holding every post's summary in every language took some 10 KB a post).
 */
const tablesOf = new WeakMap<CatalogIndex, Map<string, Uint8Array>>();
/** Distinct image paths of each post, and whether any path belongs to more than one post. */
const imagesOfIndex = new WeakMap<CatalogIndex, { counts: number[]; shared: boolean }>();

function tables(index: CatalogIndex, lang: string): Uint8Array {
  let byLang = tablesOf.get(index);
  if (!byLang) tablesOf.set(index, (byLang = new Map()));
  let t = byLang.get(lang);
  if (t) return t;
  t = new Uint8Array(index.catalog.posts.length);
  index.catalog.posts.forEach((post, id) => {
    const [r] = mergeByLanguage([post], lang, true, index.policy);
    if (r && !r.fallbackUsed) t[id] = OWN;
    else if (r && lang !== DEFAULT_LANGUAGE) t[id] = STAND;
  });
  byLang.set(lang, t);
  return t;
}

function imageCounts(index: CatalogIndex) {
  let c = imagesOfIndex.get(index);
  if (c) return c;
  const owners = new Map<string, number>();
  const counts = index.catalog.posts.map((post, id) => {
    const paths = new Set(post.images.map((i) => i.path));
    for (const path of paths) owners.set(path, owners.has(path) && owners.get(path) !== id ? -1 : id);
    return paths.size;
  });
  imagesOfIndex.set(index, (c = { counts, shared: [...owners.values()].includes(-1) }));
  return c;
}

/** Images of all the matches, each path once (a sum when no two posts share an image, as is usual). */
function totalImages(index: CatalogIndex, found: readonly Found[]): number {
  const { counts, shared } = imageCounts(index);
  if (shared) return new Set(found.flatMap((f) => index.catalog.posts[f.id]!.images.map((i) => i.path))).size;
  let total = 0;
  for (const f of found) total += counts[f.id]!;
  return total;
}

/** The hits of `ids` that stand as `state` in `table` (the posts of one language state), resolved in `lang` (with the English fallback). */
function hitsOf(index: CatalogIndex, table: Uint8Array, state: number, lang: string, match: SearchMatch): Hit[] {
  const out: Hit[] = [];
  for (const id of match.ids) {
    if (table[id] === state) out.push({ found: new Found(index, id, lang), missing: match.missing(id), match });
  }
  return out;
}

/**
 * Posts matching in `lang`; with fallback, untranslated posts are searched in English and
 * interleaved, those holding every word first (each list ranks them first; the stable sort keeps
 * the interleaving within each count of missing words).
 */
function matches(index: CatalogIndex, source: SearchView, lang: string, fallback: boolean, text: string): Hit[] {
  const t = tables(index, lang);
  const own = hitsOf(index, t, OWN, lang, source.match(lang, text));
  if (!fallback || lang === DEFAULT_LANGUAGE) return own;
  // A post in `lang` never stands in English, so the English matches need no check against `own`.
  const english = hitsOf(index, t, STAND, lang, source.match(DEFAULT_LANGUAGE, text));
  const merged: Hit[] = [];
  for (let i = 0; i < Math.max(own.length, english.length); i++) {
    if (own[i]) merged.push(own[i]!);
    if (english[i]) merged.push(english[i]!);
  }
  return merged.sort((a, b) => a.missing.length - b.missing.length);
}

function imagesOf(hits: readonly { resolved: Resolved; summary: Summary }[]): ImageRecord[] {
  const seen = new Set<string>();
  const out: ImageRecord[] = [];
  for (const { resolved: r, summary } of hits) {
    const postUrl = summary.url;
    for (const img of r.post.images) {
      if (seen.has(img.path)) continue;
      seen.add(img.path);
      const alt = r.entry.alts?.[img.path];
      out.push({
        type: 'image',
        url: img.path,
        title: img.featured ? r.entry.title : alt || r.entry.title,
        description: alt || r.entry.summary || r.entry.title,
        width: img.width,
        height: img.height,
        post_slug: r.post.slug,
        post_url: postUrl,
        post_title: r.entry.title,
      });
    }
  }
  return out;
}

/** The languages a search reads: its own and English (the fallback); none when the query is refused. */
export function searchLanguages(params: Params): string[] {
  try {
    return [...new Set([readContent(params).lang, DEFAULT_LANGUAGE])];
  } catch {
    return [];
  }
}

/** Search in the window given, else in the page the query's `page` and `per_page` name. */
export function runSearch(index: CatalogIndex, source: SearchView, params: Params, window?: Window): SearchRun {
  const text = readSearchText(params);
  const { lang, fallback } = readContent(params);
  const range = window ?? pageWindow(readPage(params));
  const required = phrases(text);
  let hits = matches(index, source, lang, fallback, text.replace(/"/g, ' '));
  if (required.length > 0) {
    hits = hits.filter(({ found: { id, resolved: r } }) => {
      const hay = plain(r.lang, `${r.entry.title} ${source.text(r.lang, id) ?? ''}`);
      return required.every((p) => hay.includes(plain(r.lang, p)));
    });
  }
  const found = hits.map((h) => h.found);
  const page = cut(hits, range);
  const slice = page.map(({ found: { resolved } }) => ({ resolved, summary: summary(index.catalog, resolved, index.available.get(resolved.post)!) }));
  // The query's words in each language a result is in (`lang`, and English for fallbacks).
  // Each result's snippet looks for the query's words its text holds, then their other forms (in `lang`, and English for fallbacks).
  const forms = new Map<string, string[]>();
  const formsIn = (l: string) => forms.get(l) ?? forms.set(l, source.forms(l, text)).get(l)!;
  const data = page.map(({ found: { id, resolved: r }, missing, match }, k) => ({
    ...slice[k]!.summary,
    snippet: snippet(r.lang, source.text(r.lang, id) ?? '', match.terms(id), formsIn(r.lang)),
    missing_words: missing,
  }));
  return {
    offset: range.offset,
    body: {
      attribution: index.catalog.site.attribution,
      data,
      meta: meta(lang, data, index.languagesWithPosts),
      query: text,
      total: found.length,
      images: imagesOf(slice),
      total_images: totalImages(index, found),
      suggestion: source.suggest(lang, text.replace(/"/g, ' ')) ?? null,
    },
  };
}


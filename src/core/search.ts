import { mergeByLanguage, type Resolved } from './availability.ts';
import type { CatalogIndex } from './catalog-index.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import { readContent, readPage, readSearchText, type Params } from './params.ts';
import { meta, summary, type ResponseMeta, type Summary } from './shape.ts';
import { snippet } from './snippet.ts';
import { cut, pageWindow, type Window } from './window.ts';
import { fold, tokens } from '../search/encoders.ts';
import type { PostRecord, SearchSource } from './types.ts';

export interface SearchHit extends Summary {
  snippet: string;
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

/** Posts matching in `lang`; with fallback, untranslated posts are searched in English and interleaved. */
function matches(index: CatalogIndex, source: SearchSource, lang: string, fallback: boolean, text: string): Resolved[] {
  const bySlug = (slugs: string[]) => slugs.map((s) => index.bySlug.get(s)).filter((p): p is PostRecord => p !== undefined);
  const own = mergeByLanguage(bySlug(source.match(lang, text)), lang, false, index.policy);
  if (!fallback || lang === DEFAULT_LANGUAGE) return own;
  const ownSlugs = new Set(own.map((r) => r.post.slug));
  const english = mergeByLanguage(bySlug(source.match(DEFAULT_LANGUAGE, text)), lang, true, index.policy).filter(
    (r) => r.fallbackUsed && !ownSlugs.has(r.post.slug),
  );
  const merged: Resolved[] = [];
  for (let i = 0; i < Math.max(own.length, english.length); i++) {
    if (own[i]) merged.push(own[i]!);
    if (english[i]) merged.push(english[i]!);
  }
  return merged;
}

function imagesOf(index: CatalogIndex, hits: readonly Resolved[]): ImageRecord[] {
  const seen = new Set<string>();
  const out: ImageRecord[] = [];
  for (const r of hits) {
    const postUrl = summary(index.catalog, r, index.available.get(r.post)!).url;
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

/** Search in the window given, else in the page the query's `page` and `per_page` name. */
export function runSearch(index: CatalogIndex, source: SearchSource, params: Params, window?: Window): SearchRun {
  const text = readSearchText(params);
  const { lang, fallback } = readContent(params);
  const range = window ?? pageWindow(readPage(params));
  const required = phrases(text);
  let found = matches(index, source, lang, fallback, text.replace(/"/g, ' '));
  if (required.length > 0) {
    found = found.filter((r) => {
      const hay = fold(r.lang, `${r.entry.title} ${source.text(r.lang, r.post.slug) ?? ''}`).replace(/\s+/g, ' ');
      return required.every((p) => hay.includes(fold(r.lang, p).replace(/\s+/g, ' ')));
    });
  }
  const slice = cut(found, range);
  const data = slice.map((r) => ({
    ...summary(index.catalog, r, index.available.get(r.post)!),
    snippet: snippet(r.lang, source.text(r.lang, r.post.slug) ?? '', tokens(r.lang, text)),
  }));
  return {
    offset: range.offset,
    body: {
      attribution: index.catalog.site.attribution,
      data,
      meta: meta(lang, data, index.languagesWithPosts),
      query: text,
      total: found.length,
      images: imagesOf(index, slice),
      total_images: new Set(found.flatMap((r) => r.post.images.map((i) => i.path))).size,
    },
  };
}


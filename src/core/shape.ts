import { DEFAULT_LANGUAGE } from './languages.ts';
import { messages } from './messages.ts';
import { absolute, paths } from './urls.ts';
import type { Resolved, Translated } from './availability.ts';
import { termName } from './term-names.ts';
import type { Catalog, EntryBody } from './types.ts';
import type { PageQuery } from './params.ts';

/** Output mappers: a resolved entry becomes the summary, detail and meta objects of SERVICE.md. */
export interface TranslationMeta {
  automated: boolean;
  provider: string | null;
  source_language: string;
  target_language: string;
  verified: boolean;
  stale: boolean;
  fallback_used: boolean;
}

export interface Summary {
  slug: string;
  title: string;
  date: string;
  modified?: string;
  author: string;
  summary?: string;
  url: string;
  featured_image: string | null;
  categories: string[];
  tags: string[];
  language: string;
  is_translation: boolean;
  translations_available: string[];
  english_url: string;
  translation?: TranslationMeta;
}

export type Detail = Summary & EntryBody;

export interface ResponseMeta {
  language: string;
  source_language: string;
  is_translation: boolean;
  automated_translation: boolean;
  disclaimer?: string;
  available_languages: string[];
}

export function translationMeta(r: Resolved<Translated>): TranslationMeta | undefined {
  if (r.fallbackUsed) {
    return {
      automated: false,
      provider: null,
      source_language: DEFAULT_LANGUAGE,
      target_language: r.requested,
      verified: false,
      stale: false,
      fallback_used: true,
    };
  }
  if (r.lang === DEFAULT_LANGUAGE) return undefined;
  return {
    automated: r.entry.automated ?? true,
    provider: r.entry.provider ?? null,
    source_language: DEFAULT_LANGUAGE,
    target_language: r.lang,
    verified: r.entry.verified ?? false,
    stale: r.entry.state === 'stale',
    fallback_used: false,
  };
}

/** A post in the language it was resolved to: its terms named in that language too. */
export function summary(scope: Catalog, r: Resolved, available: readonly string[]): Summary {
  const { post, entry } = r;
  const modified = entry.modified ?? post.modified;
  const translation = translationMeta(r);
  return {
    slug: post.slug,
    title: entry.title,
    date: post.date,
    ...(modified ? { modified } : {}),
    author: post.author,
    ...(entry.summary ? { summary: entry.summary } : {}),
    url: absolute(scope, paths.post(scope, post.slug, r.lang)),
    featured_image: post.featured_image,
    categories: post.categories.map((t) => termName(scope, 'categories', t, r.lang)),
    tags: post.tags.map((t) => termName(scope, 'tags', t, r.lang)),
    language: r.lang,
    is_translation: r.lang !== DEFAULT_LANGUAGE,
    translations_available: available.filter((code) => code !== r.lang),
    english_url: absolute(scope, paths.post(scope, post.slug, DEFAULT_LANGUAGE)),
    ...(translation ? { translation } : {}),
  };
}

export function detail<S extends Omit<Summary, 'date' | 'author' | 'featured_image' | 'categories' | 'tags'>>(base: S, body: EntryBody): S & EntryBody {
  return {
    ...base,
    content_html: body.content_html,
    content_markdown: body.content_markdown,
    reading_time: body.reading_time,
    links: body.links,
    media: body.media,
    structure: body.structure,
  };
}

/** `meta` describes what was returned; the disclaimer appears when any item is an automated translation. */
export function meta(requested: string, items: readonly Pick<Summary, 'is_translation' | 'translation'>[], available: readonly string[]): ResponseMeta {
  const isTranslation = items.some((i) => i.is_translation);
  const automated = items.some((i) => i.is_translation && i.translation?.automated === true);
  return {
    language: requested,
    source_language: DEFAULT_LANGUAGE,
    is_translation: isTranslation,
    automated_translation: automated,
    ...(automated ? { disclaimer: messages(requested).disclaimer } : {}),
    available_languages: [...available],
  };
}

export interface Pagination {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

export function pagination({ page, per_page }: PageQuery, total: number): Pagination {
  return { page, per_page, total, total_pages: Math.ceil(total / per_page) };
}

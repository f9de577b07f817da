import { DEFAULT_LANGUAGE } from './languages.ts';
import type { FeedFile } from './formats.ts';

/** Every absolute URL the core emits is built here, on the catalog's origin and base. */
export interface UrlScope {
  site_url: string;
  base: string;
}

const langPrefix = (lang: string) => (lang === DEFAULT_LANGUAGE ? '' : `/${lang}`);

export const paths = {
  post: (scope: UrlScope, slug: string, lang: string) => `${scope.base}${langPrefix(lang)}/${slug}`,
  home: (scope: UrlScope, lang: string) => `${scope.base}${langPrefix(lang)}/`,
  /** A language's feed: RSS unless another of FEEDS (src/core/formats.ts) is named. */
  feed: (scope: UrlScope, lang: string, file: FeedFile = 'feed.xml') => `${scope.base}${langPrefix(lang)}/${file}`,
  sitemap: (scope: UrlScope) => `${scope.base}/sitemap.xml`,
  /** Part `n` (from 1) of a sitemap split into an index (src/pipeline/publish/sitemap.ts). */
  sitemapPart: (scope: UrlScope, n: number) => `${scope.base}/sitemaps/${n}.xml`,
  llmsFull: (scope: UrlScope) => `${scope.base}/llms-full.txt`,
  /** Part `n` (from 1, the oldest posts) of the posts llms-full.txt has no room for (src/discovery/llms-full.ts). */
  llmsFullPart: (scope: UrlScope, n: number) => `${scope.base}/llms-full/${n}.txt`,
  markdown: (scope: UrlScope, slug: string, lang: string) => `${scope.base}${langPrefix(lang)}/${slug}.md`,
  category: (scope: UrlScope, slug: string, lang: string) => `${scope.base}${langPrefix(lang)}/category/${slug}`,
  tag: (scope: UrlScope, slug: string, lang: string) => `${scope.base}${langPrefix(lang)}/tag/${slug}`,
  media: (scope: UrlScope, slug: string, file: string) => `${paths.mediaRoot(scope)}/${slug}/${file}`,
  /** The root's media folder: post folders, and the image variants (src/core/responsive-images.ts). */
  mediaRoot: (scope: UrlScope) => `${scope.base}/media`,
  api: (scope: UrlScope, path: string, query: Record<string, string> = {}) => {
    const search = new URLSearchParams(query).toString();
    return `${scope.base}${path}${search ? `?${search}` : ''}`;
  },
};

export function absolute(scope: UrlScope, path: string): string {
  return /^https?:\/\//.test(path) ? path : `${scope.site_url}${path}`;
}

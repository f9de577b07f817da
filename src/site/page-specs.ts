import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../core/languages.ts';
import type { TaxonomyKind } from '../core/catalog-index.ts';
import { isAvailable } from '../core/availability.ts';
import type { CatalogIndex } from '../core/catalog-index.ts';
import type { SiteRoot } from './site-root.ts';

/** Every prerendered HTML page of a root, as data: the path it lives at and what it shows. */
export const PAGE_SIZE = 10;

export type PageSpec =
  | { kind: 'home'; lang: string; page: number }
  | { kind: 'post'; lang: string; slug: string }
  /** A standalone page (About, Colophon), at a post's kind of path. */
  | { kind: 'page'; lang: string; slug: string }
  | { kind: 'term'; taxonomy: TaxonomyKind; lang: string; slug: string; page: number }
  | { kind: 'search'; lang: string }
  | { kind: 'api' }
  /** The language's not-found page, published for the server to answer unknown paths with (status 404). */
  | { kind: 'not-found'; lang: string }
  /** A post's (or page's) URL in a language it is unavailable in: a not-found page linking to the original (404). */
  | { kind: 'unavailable'; lang: string; slug: string };

/** Where the not-found pages are published: `_` never starts a slug, so no page can live there. */
export const NOT_FOUND_SEGMENT = '_not-found';

/** Where a language's search page lives (its form published; with a query, functions/search-page.ts answers). */
export const SEARCH_SEGMENT = 'search';

const TERM_SEGMENT: Record<TaxonomyKind, string> = { categories: 'category', tags: 'tag' };

const prefix = (lang: string) => (lang === DEFAULT_LANGUAGE ? [] : [lang]);
const pageSuffix = (page: number) => (page > 1 ? ['page', String(page)] : []);

/**
 * The file a page is published at: its site path with `.html` (Astro's `build.format: 'file'`),
 * the root's home at `/index.html`. A file per page, not a folder each: ext4 takes about 120 µs to
 * make a folder and 6 µs to link a file, and a build at 1,000 x 14 has 23,000 pages.
 */
export const pageFileAt = (path: string) => `/${path.replace(/^\/+|\/+$/g, '') || 'index'}.html`;

/** The site path of a page file (`''` for the root's home); undefined for a file that is no page (media, assets). */
export function pageAt(file: string): string | undefined {
  if (!file.endsWith('.html') || file.includes('/media/') || file.startsWith('/_astro/')) return undefined;
  return file === '/index.html' ? '' : file.slice(0, -'.html'.length);
}

/** The file a page of a root (at `base`) is published at. */
export const pageFile = (base: string, spec: PageSpec) => pageFileAt(`${base}/${pathOf(spec)}`);

export function pathOf(spec: PageSpec): string {
  switch (spec.kind) {
    case 'home':
      return [...prefix(spec.lang), ...pageSuffix(spec.page)].join('/');
    case 'post':
    case 'page':
      return [...prefix(spec.lang), spec.slug].join('/');
    case 'term':
      return [...prefix(spec.lang), TERM_SEGMENT[spec.taxonomy], spec.slug, ...pageSuffix(spec.page)].join('/');
    case 'search':
      return [...prefix(spec.lang), SEARCH_SEGMENT].join('/');
    case 'api':
      return 'api';
    case 'not-found':
      return [...prefix(spec.lang), NOT_FOUND_SEGMENT].join('/');
    case 'unavailable':
      return [...prefix(spec.lang), NOT_FOUND_SEGMENT, spec.slug].join('/');
  }
}

const pageCount = (n: number) => Math.max(1, Math.ceil(n / PAGE_SIZE));

/** The element id of every page's main content (the skip link's target): a fragment any page has. */
export const MAIN_ID = 'content';

/** Every page of a root (its catalog's index is all they depend on). */
export function pageSpecs(root: { core: { index: CatalogIndex } }): PageSpec[] {
  const { index } = root.core;
  const menu = new Set(index.catalog.menu.filter((item) => item.kind === 'category').map((item) => item.slug));
  const specs: PageSpec[] = [{ kind: 'api' }, ...LANGUAGE_CODES.map((lang) => ({ kind: 'not-found' as const, lang }))];
  for (const lang of index.languagesWithPosts) {
    const count = index.catalog.posts.filter((p) => isAvailable(p, lang, index.policy)).length;
    for (let page = 1; page <= pageCount(count); page++) specs.push({ kind: 'home', lang, page });
    specs.push({ kind: 'search', lang });
    for (const taxonomy of ['categories', 'tags'] as const) {
      for (const { term, posts } of index.terms[taxonomy].values()) {
        const n = posts.filter((p) => isAvailable(p, lang, index.policy)).length;
        // A category of the menu has its list in every language with posts (the menu links it), even empty.
        const listed = n > 0 || (taxonomy === 'categories' && menu.has(term.slug));
        for (let page = 1; listed && page <= pageCount(n); page++) specs.push({ kind: 'term', taxonomy, lang, slug: term.slug, page });
      }
    }
  }
  for (const post of index.catalog.posts) {
    for (const lang of LANGUAGE_CODES) specs.push({ kind: isAvailable(post, lang, index.policy) ? 'post' : 'unavailable', lang, slug: post.slug });
  }
  for (const page of index.catalog.pages) {
    for (const lang of LANGUAGE_CODES) specs.push({ kind: isAvailable(page, lang, index.policy) ? 'page' : 'unavailable', lang, slug: page.slug });
  }
  return specs;
}

/** Site path of a page (with the root's base), trailing slash only on homes. */
export function hrefOf(root: SiteRoot, spec: PageSpec): string {
  const path = pathOf(spec);
  const isHome = spec.kind === 'home' && spec.page === 1;
  return `${root.base}/${path}${isHome && path ? '/' : ''}`;
}

export const sitePath = (url: string) => new URL(url).pathname;

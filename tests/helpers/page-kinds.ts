import { corpus } from './corpus.ts';
import { slugify } from '../../src/pipeline/load/slugify.ts';

/** One kind of page of the reader's site, at a path of the demo content. */
export interface PageKind {
  name: string;
  path: string;
  /** Not-found and unavailable-translation pages: 404 and noindex, by the contract. */
  notFound?: boolean;
}

/**
 * Every kind of page the site publishes or answers, read from the content itself: homes, the second page
 * of a list, posts (with images where there is one), a translation, category and tag lists, a standalone
 * page, search with and without results, /api, the not-found page and unavailable translations.
 */
export async function pageKinds(): Promise<PageKind[]> {
  const c = await corpus('content');
  const withImages = (lang: string) => {
    const available = c.availableIn(lang);
    return available.find((p) => p.english.featured_image) ?? available[0]!;
  };
  const unavailable = (lang: string) => c.posts.find((p) => c.stateOf(p.slug, lang) !== 'available')!.slug;
  const post = withImages('en');
  const translated = c.availableIn('es')[0]!.slug;
  const category = slugify(post.english.categories[0]!);
  const tag = slugify(post.english.tags[0]!);
  return [
    { name: 'en home', path: '/' },
    { name: 'ar home', path: '/ar/' },
    { name: 'ja home', path: '/ja/' },
    { name: 'en list, page 2', path: '/page/2' },
    { name: 'en post', path: `/${post.slug}` },
    { name: 'ar post', path: `/ar/${withImages('ar').slug}` },
    { name: 'ja post', path: `/ja/${withImages('ja').slug}` },
    { name: 'es translated post', path: `/es/${translated}` },
    { name: 'en category', path: `/category/${category}` },
    { name: 'ar category', path: `/ar/category/${category}` },
    { name: 'en tag', path: `/tag/${tag}` },
    { name: 'en page', path: '/about' },
    { name: 'ja page', path: '/ja/about' },
    { name: 'en search form', path: '/search' },
    { name: 'en search', path: '/search?q=tide' },
    { name: 'ar search', path: '/ar/search?q=%D8%A7%D9%84%D9%88%D9%8A%D8%A8' },
    { name: 'ja search', path: '/ja/search?q=%E6%99%82%E9%96%93' },
    { name: 'en search, no results', path: '/search?q=xylophonequux' },
    { name: 'api', path: '/api' },
    // English is never unavailable: its counterpart is the not-found page the others derive from.
    { name: 'en not found', path: '/no-such-page', notFound: true },
    { name: 'ar unavailable translation', path: `/ar/${unavailable('ar')}`, notFound: true },
    { name: 'ja unavailable translation', path: `/ja/${unavailable('ja')}`, notFound: true },
  ];
}

import { isAvailable } from '../core/availability.ts';
import { DEFAULT_LANGUAGE } from '../core/languages.ts';
import { termName } from '../core/term-names.ts';
import type { SiteRoot } from './data.ts';
import { hrefOf } from './page-specs.ts';

export interface MenuLink {
  href: string;
  label: string;
  /** The language the label and its target are in: the page's, or English when it has no such version. */
  lang: string;
  /** The link leads to the page being shown (aria-current). */
  current: boolean;
}

/**
 * The site menu (`menu:` of site.yaml) in a page's language: a standalone page by its title in that
 * language when it is available in it, else in English; a category by its name in that language,
 * linking to its list in that language when it has posts there, else to the English one.
 */
export function menuLinks(root: SiteRoot, lang: string, currentPath: string): MenuLink[] {
  const { index } = root.core;
  const here = currentPath.replace(/\.html$/, '').replace(/(.)\/$/, '$1');
  return index.catalog.menu.map((item) => {
    if (item.kind === 'page') {
      const page = index.pagesBySlug.get(item.slug)!;
      const shown = isAvailable(page, lang, index.policy) ? lang : DEFAULT_LANGUAGE;
      const href = hrefOf(root, { kind: 'page', lang: shown, slug: item.slug });
      return { href, label: page.entries[shown]!.title, lang: shown, current: here === href };
    }
    const { term, posts } = index.terms.categories.get(item.slug)!;
    const listed = posts.some((p) => isAvailable(p, lang, index.policy)) ? lang : DEFAULT_LANGUAGE;
    const href = hrefOf(root, { kind: 'term', taxonomy: 'categories', lang: listed, slug: item.slug, page: 1 });
    return { href, label: termName(index.catalog, 'categories', term, lang), lang, current: here === href || here.startsWith(`${href}/page/`) };
  });
}

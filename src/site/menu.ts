import { isAvailable } from '../core/availability.ts';
import { DEFAULT_LANGUAGE } from '../core/languages.ts';
import { termName } from '../core/term-names.ts';
import type { SiteRoot } from './site-root.ts';
import type { CatalogIndex } from '../core/catalog-index.ts';
import type { MenuItem } from '../core/types.ts';
import { hrefOf } from './page-specs.ts';

export interface MenuLink {
  href: string;
  label: string;
  /** The language the label is in: the page's, or English when the target has no such version and site.yaml names it in no other. */
  lang: string;
  /** The language the target is in, when it is not the label's (a page read in English, named in the page's language). */
  hreflang?: string;
  /** The link leads to the page being shown (aria-current). */
  current: boolean;
}

/**
 * Where each menu entry leads from a page in `lang`: the language of its target (a page in `lang` when
 * it is available there, else English; a category's list in `lang` when the language has posts, else
 * English). Only the root's scope decides it (src/pipeline/reuse/reuse.ts digests it with the scope).
 */
export function menuTargets(index: CatalogIndex, lang: string): { item: MenuItem; lang: string }[] {
  return index.catalog.menu.map((item) => {
    // A category's list in every language with posts is published even when empty there (page-specs.ts),
    // so that an edit to one post never moves the menu of every page.
    const available = item.kind === 'page' ? isAvailable(index.pagesBySlug.get(item.slug)!, lang, index.policy) : index.languagesWithPosts.includes(lang);
    return { item, lang: available ? lang : DEFAULT_LANGUAGE };
  });
}

/**
 * The site menu (`menu:` of site.yaml) in a page's language: a standalone page by its title in the
 * language it leads to, or by its `menu_names:` entry in the page's language when it leads to the English
 * page; a category by its name in the page's language.
 */
export function menuLinks(root: SiteRoot, lang: string, currentPath: string): MenuLink[] {
  const { index } = root.core;
  const here = currentPath.replace(/\.html$/, '').replace(/(.)\/$/, '$1');
  return menuTargets(index, lang).map(({ item, lang: shown }) => {
    if (item.kind === 'page') {
      const href = hrefOf(root, { kind: 'page', lang: shown, slug: item.slug });
      const named = shown !== lang ? item.names?.[lang] : undefined;
      if (named) return { href, label: named, lang, hreflang: shown, current: here === href };
      return { href, label: index.pagesBySlug.get(item.slug)!.entries[shown]!.title, lang: shown, current: here === href };
    }
    const href = hrefOf(root, { kind: 'term', taxonomy: 'categories', lang: shown, slug: item.slug, page: 1 });
    const { term } = index.terms.categories.get(item.slug)!;
    return { href, label: termName(index.catalog, 'categories', term, lang), lang, current: here === href || here.startsWith(`${href}/page/`) };
  });
}

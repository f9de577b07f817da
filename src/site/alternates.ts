import { DEFAULT_LANGUAGE, language } from '../core/languages.ts';
import { isAvailable } from '../core/availability.ts';
import type { TaxonomyKind } from '../core/catalog-index.ts';
import { hrefOf, PAGE_SIZE, type PageSpec } from './page-specs.ts';
import type { SiteRoot } from './site-root.ts';

/**
 * A page's versions in other languages: its hreflang links (and `x-default`, the English one) and
 * the language switcher's entries. A language a page does not exist in switches to that language's home.
 */
export interface Alternate {
  hreflang: string;
  href: string;
  label: string;
  /** The language code; '' for x-default (a link, not a switcher entry). */
  code: string;
}

export const alternate = (code: string, href: string): Alternate => ({ code, hreflang: language(code).hreflang, label: language(code).native_name, href });

/** The alternates of a page that exists in `codes`, plus x-default to its English version when it has one. */
export function alternatesOf(codes: readonly string[], href: (code: string) => string): Alternate[] {
  const all = codes.map((code) => alternate(code, href(code)));
  const english = all.find((a) => a.code === DEFAULT_LANGUAGE);
  return english ? [...all, { code: '', hreflang: 'x-default', label: '', href: english.href }] : all;
}

const pagesOf = (n: number) => Math.max(1, Math.ceil(n / PAGE_SIZE));

/** How many posts a term has in a language (0 for an unknown term). */
function termCount(root: SiteRoot, taxonomy: TaxonomyKind, slug: string, lang: string): number {
  const { index } = root.core;
  return index.terms[taxonomy].get(slug)?.posts.filter((p) => isAvailable(p, lang, index.policy)).length ?? 0;
}

/**
 * A list page's alternates: the same page (same term, same page number) in each language where it
 * has posts. A home's every language with posts has its page 1; a term's, the languages its posts are in.
 */
export function listAlternates(root: SiteRoot, spec: Extract<PageSpec, { kind: 'home' | 'term' }>): Alternate[] {
  const { index } = root.core;
  const count = (lang: string) =>
    spec.kind === 'home' ? index.catalog.posts.filter((p) => isAvailable(p, lang, index.policy)).length : termCount(root, spec.taxonomy, spec.slug, lang);
  const codes = index.languagesWithPosts.filter((lang) => {
    const n = count(lang);
    return n > 0 && spec.page <= pagesOf(n);
  });
  return alternatesOf(codes, (lang) => hrefOf(root, { ...spec, lang }));
}

/** The switcher of a list page: the same term in a language where it has posts, else that language's home. */
export function listSwitcher(root: SiteRoot, spec: Extract<PageSpec, { kind: 'home' | 'term' }>): Alternate[] {
  return root.core.index.languagesWithPosts.map((lang) => {
    const same = spec.kind === 'term' && termCount(root, spec.taxonomy, spec.slug, lang) > 0;
    return alternate(lang, hrefOf(root, same ? { ...spec, lang, page: 1 } : { kind: 'home', lang, page: 1 }));
  });
}

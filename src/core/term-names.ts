import type { Catalog, TaxonomyKind, Term } from './types.ts';

/**
 * A category's or tag's name in a language: the one content/taxonomies.yaml gives it there, else
 * its English name. Every surface that shows a term in a language (API, pages, feeds) asks here.
 */
export const termName = (catalog: Pick<Catalog, 'term_names'>, kind: TaxonomyKind, term: Term, lang: string): string =>
  catalog.term_names[kind][term.slug]?.[lang] ?? term.name;

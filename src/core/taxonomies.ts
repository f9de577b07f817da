import { isAvailable } from './availability.ts';
import type { CatalogIndex, TaxonomyKind, TermIndex } from './catalog-index.ts';
import { errors } from './errors.ts';
import { language } from './languages.ts';
import { readLang, readList, type Params } from './params.ts';
import { collection, type Collection } from './posts.ts';
import { termName } from './term-names.ts';
import type { PostRecord } from './types.ts';

export interface TermCount {
  slug: string;
  name: string;
  count: number;
}

export interface TaxonomyList {
  attribution: string;
  data: TermCount[];
}

const NOUN: Record<TaxonomyKind, string> = { categories: 'Category', tags: 'Tag' };

/**
 * Terms with the number of posts available in the language, named and ordered in it; terms with
 * none there are left out.
 */
export function listTerms(index: CatalogIndex, kind: TaxonomyKind, params: Params): TaxonomyList {
  const { lang } = readLang(params);
  const data: TermCount[] = [];
  for (const { term, posts } of index.terms[kind].values()) {
    const count = posts.filter((p) => isAvailable(p, lang, index.policy)).length;
    if (count > 0) data.push({ slug: term.slug, name: termName(index.catalog, kind, term, lang), count });
  }
  data.sort((a, b) => a.name.localeCompare(b.name, language(lang).locale));
  return { attribution: index.catalog.site.attribution, data };
}

function findTerm(index: CatalogIndex, kind: TaxonomyKind, slug: string): TermIndex {
  const found = index.terms[kind].get(slug);
  if (!found) throw errors.notFound(NOUN[kind], slug);
  return found;
}

export function termPosts(index: CatalogIndex, kind: TaxonomyKind, slug: string, params: Params): Collection {
  return collection(index, findTerm(index, kind, slug).posts, readList(params));
}

/** Term slugs a post list is narrowed to; a post must carry every one given. */
export type TermFilter = Partial<Record<TaxonomyKind, string>>;

/** The posts carrying every term of `filter`, in list order; an unknown term is NOT_FOUND. */
export function postsWithTerms(index: CatalogIndex, filter: TermFilter): readonly PostRecord[] {
  let posts: readonly PostRecord[] = index.catalog.posts;
  for (const kind of ['categories', 'tags'] as const) {
    const slug = filter[kind];
    if (slug === undefined) continue;
    const members = new Set(findTerm(index, kind, slug).posts);
    posts = posts.filter((p) => members.has(p));
  }
  return posts;
}

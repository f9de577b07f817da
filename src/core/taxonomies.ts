import { isAvailable } from './availability.ts';
import type { CatalogIndex, TaxonomyKind } from './catalog-index.ts';
import { errors } from './errors.ts';
import { readLang, readList, type Params } from './params.ts';
import { collection, type Collection } from './posts.ts';

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

/** Terms with the number of posts available in the language; terms with none there are left out. */
export function listTerms(index: CatalogIndex, kind: TaxonomyKind, params: Params): TaxonomyList {
  const { lang } = readLang(params);
  const data: TermCount[] = [];
  for (const { term, posts } of index.terms[kind].values()) {
    const count = posts.filter((p) => isAvailable(p, lang, index.policy)).length;
    if (count > 0) data.push({ slug: term.slug, name: term.name, count });
  }
  return { attribution: index.catalog.site.attribution, data };
}

export function termPosts(index: CatalogIndex, kind: TaxonomyKind, slug: string, params: Params): Collection {
  const found = index.terms[kind].get(slug);
  if (!found) throw errors.notFound(NOUN[kind], slug);
  return collection(index, found.posts, readList(params));
}

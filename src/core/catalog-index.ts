import { LANGUAGE_CODES } from './languages.ts';
import { availableLanguages, type Policy } from './availability.ts';
import type { Catalog, PageRecord, PostRecord, TaxonomyKind, Term } from './types.ts';

export type { TaxonomyKind } from './types.ts';

/** Lookups derived once from a catalog, so every answer is a walk over prepared lists. */
export interface TermIndex {
  term: Term;
  posts: PostRecord[];
}

export interface CatalogIndex {
  catalog: Catalog;
  policy: Policy;
  bySlug: Map<string, PostRecord>;
  available: Map<PostRecord, string[]>;
  /** Standalone pages, never among the posts. */
  pagesBySlug: Map<string, PageRecord>;
  pageLanguages: Map<PageRecord, string[]>;
  /** Languages with at least one available post. */
  languagesWithPosts: string[];
  terms: Record<TaxonomyKind, Map<string, TermIndex>>;
}

function indexTerms(posts: readonly PostRecord[], kind: TaxonomyKind): Map<string, TermIndex> {
  const map = new Map<string, TermIndex>();
  for (const post of posts) {
    for (const term of post[kind]) {
      const entry = map.get(term.slug) ?? { term, posts: [] };
      entry.posts.push(post);
      map.set(term.slug, entry);
    }
  }
  return new Map([...map].sort(([, a], [, b]) => a.term.name.localeCompare(b.term.name, 'en')));
}

export function indexCatalog(catalog: Catalog): CatalogIndex {
  const policy: Policy = { serveStale: catalog.site.serve_stale };
  // Posts share their lists of languages (most are in the same ones): each list held once, read only.
  const lists = new Map<string, string[]>();
  const shared = (langs: string[]) => lists.get(langs.join()) ?? (lists.set(langs.join(), langs), langs);
  const available = new Map(catalog.posts.map((p) => [p, shared(availableLanguages(p, policy))]));
  const withPosts = new Set([...available.values()].flat());
  return {
    catalog,
    policy,
    bySlug: new Map(catalog.posts.map((p) => [p.slug, p])),
    available,
    pagesBySlug: new Map(catalog.pages.map((p) => [p.slug, p])),
    pageLanguages: new Map(catalog.pages.map((p) => [p, availableLanguages(p, policy)])),
    languagesWithPosts: LANGUAGE_CODES.filter((c) => withPosts.has(c)),
    terms: { categories: indexTerms(catalog.posts, 'categories'), tags: indexTerms(catalog.posts, 'tags') },
  };
}

import { indexCatalog, type CatalogIndex, type TaxonomyKind } from './catalog-index.ts';
import { getPost, listing, listPosts } from './posts.ts';
import { getPage } from './pages.ts';
import { languages, product, siteInfo } from './site.ts';
import { listTerms, postsWithTerms, termPosts, type TermFilter } from './taxonomies.ts';
import { readContent, type Params } from './params.ts';
import type { Window } from './window.ts';
import type { BodyStore, Catalog, SearchSource, SearchView } from './types.ts';
import { runSearch, searchLanguages } from './search.ts';
import { ask, askLanguages, type AskInput } from './ask.ts';
import { citePost } from './cite.ts';

/**
 * The one core: every surface (static emitter, REST, negotiation, pages, and later batch,
 * GraphQL, MCP) answers through these functions. No I/O of its own: bodies come from the store.
 */
export function createCore(catalog: Catalog, bodies: BodyStore, search: SearchSource) {
  const index: CatalogIndex = indexCatalog(catalog);
  return {
    index,
    catalog,
    posts: {
      list: (params: Params) => listPosts(index, params),
      /** A window of the posts carrying every term of `filter` (for cursor surfaces). */
      window: (params: Params, window: Window, filter: TermFilter = {}) => listing(index, postsWithTerms(index, filter), readContent(params), window),
      get: (slug: string, params: Params) => getPost(index, bodies, slug, params),
      /** How to cite the post: CSL-JSON and the APA, MLA, Chicago and BibTeX forms. */
      cite: (slug: string, params: Params) => citePost(index, slug, params),
    },
    pages: {
      get: (slug: string, params: Params) => getPage(index, bodies, slug, params),
    },
    terms: {
      list: (kind: TaxonomyKind, params: Params) => listTerms(index, kind, params),
      posts: (kind: TaxonomyKind, slug: string, params: Params) => termPosts(index, kind, slug, params),
    },
    /** Search waits for the languages it reads (a host may read their indexes only now). */
    search: async (params: Params, window?: Window) => searched(await search.load(searchLanguages(params)), (view) => runSearch(index, view, params, window)),
    ask: async (input: AskInput) => searched(await search.load(askLanguages(input)), (view) => ask(index, view, input)),
    site: (params: Params) => siteInfo(index, params),
    languages: () => languages(index),
    product: () => product(index),
  };
}

export type Core = ReturnType<typeof createCore>;

/**
 * An answer made from a view that held every part of the index it read: a part found missing is
 * read and the answer made again. Each round holds what the last lacked, so it ends (a warm query:
 * one round; a cold one: two, three when a suggestion's words are in parts the query did not read).
 */
async function searched<T>(view: SearchView, answer: (view: SearchView) => T): Promise<T> {
  for (;;) {
    const out = answer(view);
    if (!(await view.readMissing())) return out;
  }
}

/** The one serialiser, so a static file and a runtime answer are the same bytes. */
export function toJson(body: unknown): string {
  return JSON.stringify(body);
}

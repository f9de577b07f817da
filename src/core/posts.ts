import { resolveEntry, resolveRecord } from './resolve-entry.ts';
import { isAvailable, mergeByLanguage, type Resolved } from './availability.ts';
import type { CatalogIndex } from './catalog-index.ts';
import { errors } from './errors.ts';
import { readList, SLUG_PATTERN, type ContentQuery, type ListQuery, type Params } from './params.ts';
import { detail, meta, pagination, summary, type Detail, type Pagination, type ResponseMeta, type Summary } from './shape.ts';
import { cut, pageWindow, type Window } from './window.ts';
import type { BodyStore, PostRecord } from './types.ts';

export interface Collection {
  attribution: string;
  data: Summary[];
  pagination: Pagination;
  meta: ResponseMeta;
}

export interface Single {
  attribution: string;
  data: Detail;
  meta: ResponseMeta;
}

export function summaries(index: CatalogIndex, resolved: readonly Resolved[]): Summary[] {
  return resolved.map((r) => summary(index.catalog, r, index.available.get(r.post)!));
}

/** A window of a list: the items, how many the whole list holds, and the meta of what is returned. */
export interface Listing {
  attribution: string;
  data: Summary[];
  total: number;
  meta: ResponseMeta;
}

/**
 * The posts of a list read in a language without fallback (those available in it), kept per index:
 * every page of a list cuts the same list. The posts only, resolved for the window an answer returns
 * (holding every post resolved in every language and list took some 3 KB a post).
 */
const inLanguage = new WeakMap<CatalogIndex, WeakMap<readonly PostRecord[], Map<string, readonly PostRecord[]>>>();

function postsIn(index: CatalogIndex, posts: readonly PostRecord[], lang: string, fallback: boolean): readonly PostRecord[] {
  // With the English fallback every post is in the list (in its language, else in English).
  if (fallback) return posts;
  let ofIndex = inLanguage.get(index);
  if (!ofIndex) inLanguage.set(index, (ofIndex = new WeakMap()));
  let ofList = ofIndex.get(posts);
  if (!ofList) ofIndex.set(posts, (ofList = new Map()));
  let hit = ofList.get(lang);
  if (!hit) ofList.set(lang, (hit = posts.filter((post) => isAvailable(post, lang, index.policy))));
  return hit;
}

/** A window of `posts` (already in list order) in the query's language. */
export function listing(index: CatalogIndex, posts: readonly PostRecord[], query: ContentQuery, window: Window): Listing {
  const list = postsIn(index, posts, query.lang, query.fallback);
  const data = summaries(index, mergeByLanguage(cut(list, window), query.lang, query.fallback, index.policy));
  return {
    attribution: index.catalog.site.attribution,
    data,
    total: list.length,
    meta: meta(query.lang, data, index.languagesWithPosts),
  };
}

/** A page of `posts`: the REST collection envelope. */
export function collection(index: CatalogIndex, posts: readonly PostRecord[], query: ListQuery): Collection {
  const found = listing(index, posts, query, pageWindow(query));
  return { attribution: found.attribution, data: found.data, pagination: pagination(query, found.total), meta: found.meta };
}

export function listPosts(index: CatalogIndex, params: Params): Collection {
  return collection(index, index.catalog.posts, readList(params));
}

export function findPost(index: CatalogIndex, slug: string): PostRecord {
  const post = SLUG_PATTERN.test(slug) ? index.bySlug.get(slug) : undefined;
  if (!post) throw errors.notFound('Post', slug);
  return post;
}

/**
 * A post resolved in the query's language, or the error its detail answers with (unknown slug,
 * unavailable translation, whose fallback_url is `endpoint` with fallback=en).
 */
export function resolvePost(index: CatalogIndex, slug: string, params: Params, endpoint = `/api/posts/${slug}`): { query: ContentQuery; resolved: Resolved } {
  const { query, r } = resolveRecord(index, findPost(index, slug), slug, params, endpoint);
  return { query, resolved: r };
}

export async function getPost(index: CatalogIndex, bodies: BodyStore, slug: string, params: Params): Promise<Single> {
  const post = findPost(index, slug);
  const { query, r, body } = await resolveEntry(index, bodies, post, slug, params, `/api/posts/${slug}`);
  const scope = index.catalog;
  const available = index.available.get(post)!;
  const data = detail(summary(scope, r, available), body);
  return { attribution: scope.site.attribution, data, meta: meta(query.lang, [data], available) };
}

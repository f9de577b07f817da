import { availableLanguages } from '../../core/availability.ts';
import { LANGUAGE_CODES } from '../../core/languages.ts';
import { markdownDocument } from '../../core/markdown-document.ts';
import { canonicalQuery, type QueryShape } from '../../core/params.ts';
import { paths } from '../../core/urls.ts';
import { ROUTES } from '../../../functions/routes.ts';
import type { Route } from '../../../functions/route.ts';
import type { Host, Root } from '../../../functions/context.ts';
import type { Publisher } from './publisher.ts';
import { cacheControlFor, type Made } from '../../../functions/http.ts';

/** What the build already took from the live build (reuse.ts): paths whose answers, and files, it holds. */
export interface TakenFromLive {
  answers: ReadonlySet<string>;
  files: ReadonlySet<string>;
}

/** The routes whose answers are a post's own (its detail, its citation): a function of the post, like its pages (reuse.ts). */
export const POST_ROUTES = ROUTES.filter((r) => r.path.startsWith('/api/posts/:slug'));

/** A post's own answers' paths in a root (POST_ROUTES filled). */
export const postAnswerPaths = (base: string, slug: string) => POST_ROUTES.map((r) => `${base}${fill(r.path, { slug })}`);

/** A post's detail answer, made just before its Markdown twins (they read the same bodies). */
const POST_DETAIL = POST_ROUTES.find((r) => r.path === '/api/posts/:slug')!;

/** The /api index, published as its JSON (its HTML reference page is a page of its own). */
const API_INDEX = ROUTES.find((r) => r.path === '/api')!;

/** Headers an answer's file keeps in the manifest; the rest are the server's policies. */
const OWN_HEADERS = new Set(['content-type', 'cache-control', 'vary', 'etag', 'content-length']);

/** The headers a made answer's file keeps, as a Response would name them (lower case, in order); none when it has none. */
function keptHeaders(headers: Made['headers']): Record<string, string> | undefined {
  const kept = Object.entries(headers ?? {})
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .filter(([k]) => !OWN_HEADERS.has(k))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/** The values a route's path parameters take in a root. */
function expand(route: Route, root: Root): Record<string, string>[] {
  const { index } = root.core;
  const names = route.path.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));
  if (names.length === 0) return [{}];
  if (names.length > 1) throw new Error(`publishing ${route.path}: one path parameter at most`);
  const values =
    names[0] === 'lang'
      ? LANGUAGE_CODES
      : route.path.startsWith('/api/posts/')
        ? index.catalog.posts.map((p) => p.slug)
        : route.path.startsWith('/api/pages/')
          ? index.catalog.pages.map((p) => p.slug)
        : route.path.startsWith('/api/categories/')
          ? [...index.terms.categories.keys()]
          : route.path.startsWith('/api/tags/')
            ? [...index.terms.tags.keys()]
            : [];
  return values.map((v) => ({ [names[0]!]: v })).filter((params) => !route.claims || route.claims(params, root));
}

const fill = (pattern: string, params: Record<string, string>) => pattern.replace(/:(\w+)/g, (_, name: string) => params[name]!);

/** The queries of a shape that can answer 200: every language, with and without fallback, every page. */
function* queries(shape: NonNullable<Route['query']>): Generator<URLSearchParams> {
  if (shape === 'none') return yield new URLSearchParams();
  for (const lang of LANGUAGE_CODES) {
    yield new URLSearchParams({ lang });
    if (shape !== 'lang') yield new URLSearchParams({ lang, fallback: 'en' });
  }
}

/** The routes in the order their answers are made: those that search last (they wait for the indexes). */
const IN_ORDER = [...ROUTES.filter((r) => !r.searches), ...ROUTES.filter((r) => r.searches)];

/**
 * Every answer that is a function of the path and the default per_page, made by the route's own
 * `make` (the function its handler sends: the bytes are the server's) without a Request or a
 * Response, and the Markdown twins of the posts. Only 200 answers are published. An answer that
 * searches waits for `searchable` (the search indexes written). `only` (a shard of a sharded build):
 * the post answers and Markdown twins of those posts, nothing else.
 */
export async function emitStaticApi(root: Root, host: Host, out: Publisher, taken?: TakenFromLive, searchable: Promise<unknown> = Promise.resolve(), only?: ReadonlySet<string>): Promise<void> {
  const { core } = root;
  const { base } = core.catalog;
  /** Publishes a route's answer to a canonical query if it is a 200, and returns it. */
  const publish = async (route: Route, path: string, params: Record<string, string>, query: string, shape: QueryShape): Promise<Made | undefined> => {
    if (!route.make) throw new Error(`publishing ${route.path}: a route with a query makes its answer (madeRoute)`);
    const made = await route.make({ root, params, query: new URLSearchParams(query), host });
    if (made.status !== 200) return undefined;
    const headers = keptHeaders(made.headers);
    await out.answer({ path: `${base}${path}`, query, shape, type: made.type, cacheControl: cacheControlFor(made.status), ...(headers && { headers }) }, made.body);
    return made;
  };
  /** A post's Markdown twins, in each language it is available in. */
  const twins = async (slug: string) => {
    const post = core.index.bySlug.get(slug)!;
    for (const lang of availableLanguages(post, core.index.policy)) {
      if (taken?.files.has(paths.markdown(core.catalog, slug, lang))) continue;
      const single = await core.posts.get(slug, new URLSearchParams({ lang }));
      await out.write(paths.markdown(core.catalog, slug, lang), markdownDocument(single));
    }
  };
  if (!only) await publish(API_INDEX, '/api', {}, '', 'none');
  for (const route of IN_ORDER) {
    if (!route.query || (route.method ?? 'GET') !== 'GET' || (only && !POST_ROUTES.includes(route))) continue;
    if (route.searches) await searchable;
    for (const params of expand(route, root)) {
      if (only && !only.has(params.slug!)) continue;
      const path = fill(route.path, params);
      if (!taken?.answers.has(`${base}${path}`)) await publishQueries(route, route.query, path, params);
      // Right after the detail answers, which read the post's bodies: the body store still holds them.
      if (route === POST_DETAIL) await twins(params.slug!);
    }
  }
  async function publishQueries(route: Route, shape: QueryShape, path: string, params: Record<string, string>) {
    const seen = new Set<string>();
    for (const q of queries(shape)) {
      // A list's first page says how many pages follow.
      let pages = 0;
      for (let page = 1; ; page++) {
        if (page > 1) q.set('page', String(page));
        const query = canonicalQuery(shape, q);
        if (seen.has(query)) break;
        seen.add(query);
        const made = await publish(route, path, params, query, shape);
        if (page === 1) pages = (made?.value as { pagination?: { total_pages: number } } | undefined)?.pagination?.total_pages ?? 0;
        if (shape !== 'list' || !made || page >= pages) break;
      }
    }
  }
  for (const page of only ? [] : core.catalog.pages) {
    for (const lang of availableLanguages(page, core.index.policy)) {
      await out.write(paths.markdown(core.catalog, page.slug, lang), markdownDocument(await core.pages.get(page.slug, new URLSearchParams({ lang }))));
    }
  }
}

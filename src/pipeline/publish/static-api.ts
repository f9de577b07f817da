import type { Core } from '../../core/index.ts';
import { availableLanguages } from '../../core/availability.ts';
import { LANGUAGE_CODES } from '../../core/languages.ts';
import { markdownDocument } from '../../core/markdown-document.ts';
import { canonicalQuery, type QueryShape } from '../../core/params.ts';
import { paths } from '../../core/urls.ts';
import { ROUTES, type FunctionLayer } from '../../../functions/routes.ts';
import type { Route } from '../../../functions/route.ts';
import type { Root } from '../../../functions/context.ts';
import type { Publisher } from './publisher.ts';
import { bodyText } from '../../../functions/http.ts';

/** What the build already took from the live build (reuse.ts): paths whose answers, and files, it holds. */
export interface TakenFromLive {
  answers: ReadonlySet<string>;
  files: ReadonlySet<string>;
}

/** The routes whose answers are a post's own (its detail, its citation): a function of the post, like its pages (reuse.ts). */
export const POST_ROUTES = ROUTES.filter((r) => r.path.startsWith('/api/posts/:slug'));

/** A post's own answers' paths in a root (POST_ROUTES filled). */
export const postAnswerPaths = (base: string, slug: string) => POST_ROUTES.map((r) => `${base}${fill(r.path, { slug })}`);

/** Headers an answer's file keeps in the manifest; the rest are the server's policies. */
const OWN_HEADERS = new Set(['content-type', 'cache-control', 'vary', 'etag', 'content-length']);

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
 * Every answer that is a function of the path and the default per_page, written by dispatching the
 * request through the same function layer the server runs (so the bytes are the server's), and
 * the Markdown twins of the posts. Only 200 answers are published. An answer that searches waits for
 * `searchable` (the search indexes written). `only` (a shard of a sharded build): the post answers
 * and Markdown twins of those posts, nothing else.
 */
export async function emitStaticApi(root: Root, functions: FunctionLayer, out: Publisher, taken?: TakenFromLive, searchable: Promise<unknown> = Promise.resolve(), only?: ReadonlySet<string>): Promise<void> {
  const { base } = root.core.catalog;
  /** Publishes an answer if it is a 200; `read` returns its JSON body too. */
  const publish = async (path: string, query: string, shape: QueryShape, read = false): Promise<unknown> => {
    const target = `${base}${path}${query ? `?${query}` : ''}`;
    const response = await functions(new Request(`http://folio.local${target}`), `${base}${path}`);
    if (!response || response.status !== 200) return undefined;
    const body = await bodyText(response);
    const headers = Object.fromEntries([...response.headers].filter(([k]) => !OWN_HEADERS.has(k)));
    await out.answer(
      { path: `${base}${path}`, query, shape, type: response.headers.get('content-type')!, cacheControl: response.headers.get('cache-control')!, ...(Object.keys(headers).length ? { headers } : {}) },
      body,
    );
    return read && response.headers.get('content-type')?.includes('json') ? JSON.parse(body) : true;
  };
  if (!only) await publish('/api', '', 'none');
  for (const route of IN_ORDER) {
    if (!route.query || (route.method ?? 'GET') !== 'GET' || (only && !POST_ROUTES.includes(route))) continue;
    if (route.searches) await searchable;
    for (const params of expand(route, root)) {
      if (only && !only.has(params.slug!)) continue;
      const path = fill(route.path, params);
      if (taken?.answers.has(`${base}${path}`)) continue;
      const seen = new Set<string>();
      for (const q of queries(route.query)) {
        // A list's first page says how many pages follow.
        let pages = 0;
        for (let page = 1; ; page++) {
          if (page > 1) q.set('page', String(page));
          const query = canonicalQuery(route.query, q);
          if (seen.has(query)) break;
          seen.add(query);
          const answered = await publish(path, query, route.query, page === 1 && route.query === 'list');
          if (page === 1) pages = (answered as { pagination?: { total_pages: number } } | undefined)?.pagination?.total_pages ?? 0;
          if (route.query !== 'list' || !answered || page >= pages) break;
        }
      }
    }
  }
  const { core } = root;
  for (const post of core.catalog.posts) {
    if (only && !only.has(post.slug)) continue;
    for (const lang of availableLanguages(post, core.index.policy)) {
      if (taken?.files.has(paths.markdown(core.catalog, post.slug, lang))) continue;
      const single = await core.posts.get(post.slug, new URLSearchParams({ lang }));
      await out.write(paths.markdown(core.catalog, post.slug, lang), markdownDocument(single));
    }
  }
  for (const page of only ? [] : core.catalog.pages) {
    for (const lang of availableLanguages(page, core.index.policy)) {
      await out.write(paths.markdown(core.catalog, page.slug, lang), markdownDocument(await core.pages.get(page.slug, new URLSearchParams({ lang }))));
    }
  }
}

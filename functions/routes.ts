import type { Capabilities, Dispatch, Handler, Host, RequestContext, Root } from './context.ts';
import type { Route } from './route.ts';
import { apiIndexRoute, apiRoutes } from './api.ts';
import { negotiatePost } from './negotiate-post.ts';
import { searchRoutes } from './search.ts';
import { searchPageRoutes } from './search-page.ts';
import { askRoutes } from './ask.ts';
import { batchRoutes } from './batch.ts';
import { mcpRoutes } from './mcp.ts';
import { discoveryRoutes } from './discovery.ts';
import { graphqlRoutes } from './graphql.ts';
import { contactRoutes } from './contact.ts';
import { json, notFoundJson, redirect, withVary } from './http.ts';
import { LANGUAGE_CODES } from '../src/core/languages.ts';
import { canonicalQuery } from '../src/core/params.ts';
import { routeIndex } from './route-index.ts';
import { answerCache } from './answer-cache.ts';


const isPost = (params: Record<string, string>, root: Root) =>
  (params.lang === undefined || LANGUAGE_CODES.includes(params.lang)) && (root.core.index.bySlug.has(params.slug ?? '') || root.core.index.pagesBySlug.has(params.slug ?? ''));

const redirectEnglish: Handler = (ctx) => {
  const rest = ctx.params.rest ?? '';
  return redirect(`${ctx.root.base}/${rest}`, ctx.url.search);
};

const routes: Route[] = [];
routes.push(
  apiIndexRoute(() => routes.filter((r) => !r.hidden)),
  ...apiRoutes,
  ...searchRoutes,
  ...askRoutes,
  ...batchRoutes,
  ...mcpRoutes,
  ...discoveryRoutes(() => routes),
  ...graphqlRoutes,
  ...contactRoutes,
  ...searchPageRoutes,
  { path: '/en', summary: 'English lives at the root', handler: redirectEnglish, hidden: true },
  { path: '/en/*rest', summary: 'English lives at the root', handler: redirectEnglish, hidden: true },
  { path: '/:slug', summary: 'A post or page, negotiated', handler: negotiatePost, hidden: true, claims: isPost, vary: 'Accept' },
  { path: '/:lang/:slug', summary: 'A translated post or page, negotiated', handler: negotiatePost, hidden: true, claims: isPost, vary: 'Accept' },
);

export const ROUTES: readonly Route[] = routes;

/** Paths whose errors and 404s are JSON (inside a root: '/sandbox' already stripped). */
const isApiPath = (path: string) => /^\/(api|mcp)(\/|$)/.test(path);

/** The Allow header for a set of route methods (a GET is also a HEAD; every path has OPTIONS). */
const allowHeader = (methods: Set<string>) => [...methods, ...(methods.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');

/** A method the path does not answer: 405 with Allow, in JSON on every path. */
export const methodNotAllowed = (method: string, allow: string) => json({ error: `Method ${method} not allowed; use ${allow}.` }, 405, { allow });

function rootFor(host: Host, pathname: string): { root: Root; path: string } {
  for (const root of host.roots) {
    if (root.base && (pathname === root.base || pathname.startsWith(`${root.base}/`))) {
      return { root, path: pathname.slice(root.base.length) || '/' };
    }
  }
  return { root: host.roots.find((r) => r.base === '')!, path: pathname };
}

/** The function layer, and what the front server asks of it before building a Web Request. */
export interface FunctionLayer extends Dispatch {
  /** Does a function answer this path (some method)? Otherwise it belongs to the static files. */
  owns(pathname: string): boolean;
  /** The Allow header of a function path; undefined when no function answers it. */
  allows(pathname: string): string | undefined;
}

/**
 * The function layer: `(Request) => Response`, or undefined when the path belongs to the
 * static files. Unknown API paths get the JSON 404 here; a known path with another method, 405.
 */
export function createFunctions(host: Host): FunctionLayer {
  const index = routeIndex(ROUTES);
  const cache = answerCache(host.answerCacheBytes ?? 64 * 1024 * 1024);
  /** The cache key of a GET whose answer depends only on path and query; none when the query is invalid. */
  const keyOf = (root: Root, path: string, route: Route, request: Request, url: URL) => {
    if ((!route.query && !route.cacheKey) || host.answerCacheBytes === 0) return undefined;
    try {
      const query = route.query ? canonicalQuery(route.query, url.searchParams) : route.cacheKey!(request, url);
      return query === undefined ? undefined : `${root.name}:${path}?${query}`;
    } catch {
      return undefined;
    }
  };
  const matches = (pathname: string) => {
    const { root, path } = rootFor(host, pathname);
    return { root, path, found: index.match(path, (route, params) => !route.claims || route.claims(params, root)) };
  };
  async function handle(request: Request, pathname: string, capabilities: Capabilities = {}, url = new URL(request.url)): Promise<Response | undefined> {
    const { root, path, found } = matches(pathname);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const allowed = new Set<string>();
    for (const { route, params } of found) {
      const routeMethod = route.method ?? 'GET';
      if (routeMethod !== method) {
        allowed.add(routeMethod);
        continue;
      }
      const key = keyOf(root, path, route, request, url);
      const hit = key && cache.get(key);
      if (hit) return hit;
      const ctx: RequestContext = { ...capabilities, request, url, root, path, params, host, dispatch: handle };
      const answered = await route.handler(ctx);
      const response = answered && route.vary ? withVary(answered, route.vary) : answered;
      if (response) return key ? cache.put(key, response) : response;
    }
    if (allowed.size > 0) return methodNotAllowed(request.method, allowHeader(allowed));
    if (isApiPath(path)) return notFoundJson();
    return undefined;
  }
  return Object.assign(handle, {
    owns(pathname: string) {
      const { path, found } = matches(pathname);
      return isApiPath(path) || found.length > 0;
    },
    allows(pathname: string) {
      const methods = new Set(matches(pathname).found.map(({ route }) => route.method ?? 'GET'));
      return methods.size ? allowHeader(methods) : undefined;
    },
  });
}

import type { Capabilities, Dispatch, Handler, Host, RequestContext, Root } from './context.ts';
import { apiIndexRoute, apiRoutes } from './api.ts';
import { negotiatePost } from './negotiate-post.ts';
import { searchRoutes } from './search.ts';
import { askRoutes } from './ask.ts';
import { batchRoutes } from './batch.ts';
import { mcpRoutes } from './mcp.ts';
import { discoveryRoutes } from './discovery.ts';
import { graphqlRoutes } from './graphql.ts';
import { contactRoutes } from './contact.ts';
import { json, notFoundJson, redirect } from './http.ts';
import { LANGUAGE_CODES } from '../src/core/languages.ts';

/** The flat route table (Ghost's routes.js): every function path, once, with what it does. */
export interface Route {
  method?: 'GET' | 'POST';
  path: string;
  summary: string;
  handler: Handler;
  /** Not listed in the API index (pages, redirects). */
  hidden?: boolean;
  /** For pattern routes that claim only some paths: is this one of them? */
  claims?: (params: Record<string, string>, root: Root) => boolean;
}

const isPost = (params: Record<string, string>, root: Root) =>
  (params.lang === undefined || LANGUAGE_CODES.includes(params.lang)) && root.core.index.bySlug.has(params.slug ?? '');

const redirectEnglish: Handler = (ctx) => {
  const rest = ctx.params.rest ?? '';
  return redirect(`${ctx.root.base}/${rest}${ctx.url.search}`);
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
  { path: '/en', summary: 'English lives at the root', handler: redirectEnglish, hidden: true },
  { path: '/en/*rest', summary: 'English lives at the root', handler: redirectEnglish, hidden: true },
  { path: '/:slug', summary: 'A post, negotiated', handler: negotiatePost, hidden: true, claims: isPost },
  { path: '/:lang/:slug', summary: 'A translated post, negotiated', handler: negotiatePost, hidden: true, claims: isPost },
);

export const ROUTES: readonly Route[] = routes;

function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').slice(1);
  const got = path.split('/').slice(1);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w.startsWith('*')) {
      params[w.slice(1)] = got.slice(i).join('/');
      return params;
    }
    const g = got[i];
    if (g === undefined) return undefined;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      params[w.slice(1)] = g;
    } else if (w !== g) return undefined;
  }
  return want.length === got.length ? params : undefined;
}

/** Paths whose errors and 404s are JSON (inside a root: '/sandbox' already stripped). */
const isApiPath = (path: string) => /^\/(api|mcp)(\/|$)/.test(path);

/** Non-API paths that still answer a wrong method in JSON. */
const JSON_FUNCTIONS = new Set(['/status', '/ask', '/graphql', '/contact/send']);

function rootFor(host: Host, pathname: string): { root: Root; path: string } {
  for (const root of host.roots) {
    if (root.base && (pathname === root.base || pathname.startsWith(`${root.base}/`))) {
      return { root, path: pathname.slice(root.base.length) || '/' };
    }
  }
  return { root: host.roots.find((r) => r.base === '')!, path: pathname };
}

/**
 * The function layer: `(Request) => Response`, or undefined when the path belongs to the
 * static files. Unknown API paths get the JSON 404 here; a known path with another method, 405.
 */
export function createFunctions(host: Host): Dispatch {
  return async function handle(request: Request, pathname: string, capabilities: Capabilities = {}): Promise<Response | undefined> {
    const url = new URL(request.url);
    const { root, path } = rootFor(host, pathname);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const allowed = new Set<string>();
    for (const route of ROUTES) {
      const params = match(route.path, path);
      if (!params || (route.claims && !route.claims(params, root))) continue;
      const routeMethod = route.method ?? 'GET';
      if (routeMethod !== method) {
        allowed.add(routeMethod);
        continue;
      }
      const ctx: RequestContext = { ...capabilities, request, url, root, path, params, host, dispatch: handle };
      const response = await route.handler(ctx);
      if (response) return response;
    }
    if (allowed.size > 0) {
      const allow = [...allowed, ...(allowed.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      return isApiPath(path) || JSON_FUNCTIONS.has(path)
        ? json({ error: `Method ${request.method} not allowed; use ${allow}.` }, 405, { allow })
        : new Response(`Method ${request.method} not allowed\n`, { status: 405, headers: { allow, 'content-type': 'text/plain; charset=utf-8' } });
    }
    if (isApiPath(path)) return notFoundJson();
    return undefined;
  };
}

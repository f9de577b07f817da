import { PRODUCT_SLUG } from '../src/core/site.ts';
import { FORMATS } from '../src/core/formats.ts';
import { negotiate } from '../src/core/negotiate.ts';
import type { RequestContext } from './context.ts';
import { answer, json } from './http.ts';
import type { Route } from './route.ts';

/** REST read endpoints: each is a mapping from the request to one core answer. */
const q = (ctx: RequestContext) => ctx.url.searchParams;

export const apiRoutes: Route[] = [
  { path: '/api/languages', query: 'none', summary: 'Supported languages, their homes, APIs and feeds', handler: (ctx) => answer(() => ctx.root.core.languages()) },
  { path: '/api/site', query: 'lang', summary: 'Site name, description, author, post count', handler: (ctx) => answer(() => ctx.root.core.site(q(ctx))) },
  { path: '/api/posts', query: 'list', summary: 'Post summaries, newest first (page, per_page, lang, fallback)', handler: (ctx) => answer(() => ctx.root.core.posts.list(q(ctx))) },
  { path: '/api/posts/:slug', query: 'content', summary: 'One post with its body (lang, fallback)', handler: (ctx) => answer(() => ctx.root.core.posts.get(ctx.params.slug!, q(ctx))) },
  { path: '/api/posts/:slug/cite', query: 'content', summary: 'How to cite a post: CSL-JSON, APA, MLA, Chicago and BibTeX (lang, fallback)', handler: (ctx) => answer(() => ctx.root.core.posts.cite(ctx.params.slug!, q(ctx))) },
  { path: '/api/pages/:slug', query: 'content', summary: 'One standalone page (About, Colophon) with its body (lang, fallback)', handler: (ctx) => answer(() => ctx.root.core.pages.get(ctx.params.slug!, q(ctx))) },
  { path: '/api/categories', query: 'lang', summary: 'Categories with post counts (lang)', handler: (ctx) => answer(() => ctx.root.core.terms.list('categories', q(ctx))) },
  { path: '/api/categories/:slug', query: 'list', summary: 'Posts in a category', handler: (ctx) => answer(() => ctx.root.core.terms.posts('categories', ctx.params.slug!, q(ctx))) },
  { path: '/api/tags', query: 'lang', summary: 'Tags with post counts (lang)', handler: (ctx) => answer(() => ctx.root.core.terms.list('tags', q(ctx))) },
  { path: '/api/tags/:slug', query: 'list', summary: 'Posts with a tag', handler: (ctx) => answer(() => ctx.root.core.terms.posts('tags', ctx.params.slug!, q(ctx))) },
  { path: `/api/products/${PRODUCT_SLUG}`, query: 'none', summary: 'The book: price, formats, links', handler: (ctx) => answer(() => ctx.root.core.product()) },
  { path: '/mcp/v1/posts', query: 'list', summary: 'Legacy alias of /api/posts', handler: (ctx) => answer(() => ctx.root.core.posts.list(q(ctx))) },
  {
    path: '/status',
    summary: 'Service health',
    handler: async (ctx) =>
      json(
        {
          status: 'ok',
          service: 'folio',
          timestamp: new Date().toISOString(),
          host: ctx.host.hostname,
          version: ctx.host.version,
          active_streams: await ctx.host.streams.count(),
          workers: ctx.host.worker.count,
          worker: ctx.host.worker.index,
          ...(ctx.host.store && { store: ctx.host.store() }),
        },
        200,
        { 'cache-control': 'no-store' },
      ),
  },
];

/** The /api index: JSON for programs, the HTML reference page for browsers. */
export function apiIndexRoute(all: () => Route[]): Route {
  return {
    path: '/api',
    summary: 'This index',
    vary: 'Accept',
    handler: async (ctx) => {
      if (negotiate(ctx.request.headers.get('accept'), [FORMATS.json, FORMATS.html]) === FORMATS.html) {
        const page = await ctx.host.assets.fetch(`${ctx.root.base}/api`, ctx.request);
        if (page) return page;
      }
      const { site, site_url } = ctx.root.core.catalog;
      return json({
        attribution: site.attribution,
        name: site.name,
        version: ctx.host.version,
        base_url: `${site_url}${ctx.root.base}`,
        endpoints: all().map((r) => ({ method: r.method ?? 'GET', path: `${ctx.root.base}${r.path}`, summary: r.summary })),
      });
    },
  };
}

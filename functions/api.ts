import { PRODUCT_SLUG } from '../src/core/site.ts';
import { FORMATS } from '../src/core/formats.ts';
import { negotiate } from '../src/core/negotiate.ts';
import { json, makeAnswer, madeJson, respond } from './http.ts';
import { madeRoute, makeFor, type Maker, type Route } from './route.ts';

/** REST read endpoints: each is a mapping from the path and query to one core answer. */
export const apiRoutes: Route[] = [
  madeRoute({ path: '/api/languages', query: 'none', summary: 'Supported languages, their homes, APIs and feeds', make: ({ root }) => makeAnswer(() => root.core.languages()) }),
  madeRoute({ path: '/api/site', query: 'lang', summary: 'Site name, description, author, post count', make: ({ root, query }) => makeAnswer(() => root.core.site(query)) }),
  madeRoute({ path: '/api/posts', query: 'list', summary: 'Post summaries, newest first (page, per_page, lang, fallback)', make: ({ root, query }) => makeAnswer(() => root.core.posts.list(query)) }),
  madeRoute({ path: '/api/posts/:slug', query: 'content', summary: 'One post with its body (lang, fallback)', make: ({ root, params, query }) => makeAnswer(() => root.core.posts.get(params.slug!, query)) }),
  madeRoute({ path: '/api/posts/:slug/cite', query: 'content', summary: 'How to cite a post: CSL-JSON, APA, MLA, Chicago and BibTeX (lang, fallback)', make: ({ root, params, query }) => makeAnswer(() => root.core.posts.cite(params.slug!, query)) }),
  madeRoute({ path: '/api/pages/:slug', query: 'content', summary: 'One standalone page (About, Colophon) with its body (lang, fallback)', make: ({ root, params, query }) => makeAnswer(() => root.core.pages.get(params.slug!, query)) }),
  madeRoute({ path: '/api/categories', query: 'lang', summary: 'Categories with post counts (lang)', make: ({ root, query }) => makeAnswer(() => root.core.terms.list('categories', query)) }),
  madeRoute({ path: '/api/categories/:slug', query: 'list', summary: 'Posts in a category', make: ({ root, params, query }) => makeAnswer(() => root.core.terms.posts('categories', params.slug!, query)) }),
  madeRoute({ path: '/api/tags', query: 'lang', summary: 'Tags with post counts (lang)', make: ({ root, query }) => makeAnswer(() => root.core.terms.list('tags', query)) }),
  madeRoute({ path: '/api/tags/:slug', query: 'list', summary: 'Posts with a tag', make: ({ root, params, query }) => makeAnswer(() => root.core.terms.posts('tags', params.slug!, query)) }),
  madeRoute({ path: `/api/products/${PRODUCT_SLUG}`, query: 'none', summary: 'The book: price, formats, links', make: ({ root }) => makeAnswer(() => root.core.product()) }),
  madeRoute({ path: '/mcp/v1/posts', query: 'list', summary: 'Legacy alias of /api/posts', make: ({ root, query }) => makeAnswer(() => root.core.posts.list(query)) }),
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
  const make: Maker = ({ root, host }) => {
    const { site, site_url } = root.core.catalog;
    return madeJson({
      attribution: site.attribution,
      name: site.name,
      version: host.version,
      base_url: `${site_url}${root.base}`,
      endpoints: all().map((r) => ({ method: r.method ?? 'GET', path: `${root.base}${r.path}`, summary: r.summary })),
    });
  };
  return {
    path: '/api',
    summary: 'This index',
    vary: 'Accept',
    // What the build publishes at /api (its JSON; the reference page is a page of its own).
    make,
    handler: async (ctx) => {
      if (negotiate(ctx.request.headers.get('accept'), [FORMATS.json, FORMATS.html]) === FORMATS.html) {
        const page = await ctx.host.assets.fetch(`${ctx.root.base}/api`, ctx.request);
        if (page) return page;
      }
      return respond(await makeFor(make, ctx));
    },
  };
}

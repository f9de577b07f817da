import { FolioError } from '../src/core/errors.ts';
import { DEFAULT_LANGUAGE } from '../src/core/languages.ts';
import { messages, format } from '../src/core/messages.ts';
import { QUERY_MAX_CHARS, readPage } from '../src/core/params.ts';
import { escapeHtml } from '../src/site/html.ts';
import { QUERY_SLOT, refusedHtml, RESULTS_SLOT, resultsHtml, SEARCH_PAGE_SIZE } from '../src/site/search-results.ts';
import type { Handler, Root } from './context.ts';
import type { Route } from './route.ts';

/**
 * `/search?q=` and `/{lang}/search?q=`: the published search page with the results of the core
 * search filled in on the server (the form alone, without a query, is the published file). The
 * language is the page's; posts not available in it are searched in English, as the API's
 * `fallback=en` does. A refused query (too long, a bad page) is the page with its message, 400.
 */
const searchPage: Handler = async (ctx) => {
  const lang = ctx.params.lang ?? DEFAULT_LANGUAGE;
  const pagePath = `${ctx.root.base}${ctx.path}`;
  const form = await ctx.host.assets.fetch(pagePath, ctx.request);
  if (!form) return undefined;
  const params = ctx.url.searchParams;
  const q = params.get('q') ?? params.get('query') ?? '';
  if (q.trim() === '') return form;
  let status = 200;
  let results: string;
  try {
    const { page } = readPage(params);
    const run = await ctx.root.core.search(new URLSearchParams({ q, lang, fallback: 'en', page: String(page), per_page: String(SEARCH_PAGE_SIZE) }));
    const href = (n: number) => `${pagePath}?${new URLSearchParams({ q: run.body.query, ...(n > 1 ? { page: String(n) } : {}) })}`;
    results = resultsHtml({ lang, body: run.body, page, offset: run.offset, href, searchHref: (query) => `${pagePath}?${new URLSearchParams({ q: query })}` });
  } catch (e) {
    if (!(e instanceof FolioError)) throw e;
    status = e.status;
    results = refusedHtml(refusal(lang, q) ?? e.message);
  }
  const html = (await form.text()).replace(RESULTS_SLOT, () => results).replace(QUERY_SLOT, () => `value="${escapeHtml(q)}"`);
  const headers = new Headers(form.headers);
  headers.delete('etag');
  if (status !== 200) headers.set('cache-control', 'no-store');
  return new Response(html, { status, headers });
};

/**
 * A refusal in the page's language (the English page keeps the API's words). The search refuses a
 * query only for its length or its page number, so which one it was is known from the request.
 */
function refusal(lang: string, q: string): string | undefined {
  if (lang === DEFAULT_LANGUAGE) return undefined;
  const m = messages(lang);
  return [...q].length > QUERY_MAX_CHARS ? format(m.searchTooLong, { max: QUERY_MAX_CHARS }) : m.searchBadPage;
}

/** Only languages with a search page of their own (those with posts) get one here. */
const hasSearchPage = (params: Record<string, string>, root: Root) =>
  params.lang !== DEFAULT_LANGUAGE && root.core.index.languagesWithPosts.includes(params.lang ?? '');

export const searchPageRoutes: Route[] = [
  { path: '/search', summary: 'The search page; with q (and page) its results are rendered on the server', handler: searchPage, hidden: true },
  { path: '/:lang/search', summary: 'The search page of a language; with q (and page) its results are rendered on the server', handler: searchPage, hidden: true, claims: hasSearchPage },
];

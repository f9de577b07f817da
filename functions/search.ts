import { FolioError } from '../src/core/errors.ts';
import { FORMATS } from '../src/core/formats.ts';
import { negotiate } from '../src/core/negotiate.ts';
import { canonicalSearchQuery } from '../src/core/params.ts';
import type { RequestContext } from './context.ts';
import { answer, errorJson } from './http.ts';
import type { Route } from './route.ts';
import { sseResponse } from './sse.ts';

/** Search as JSON, and as an event stream of the same page of results. */
async function streamSearch(ctx: RequestContext): Promise<Response> {
  const started = performance.now();
  let run;
  try {
    run = await ctx.root.core.search(ctx.url.searchParams);
  } catch (e) {
    if (e instanceof FolioError) return errorJson(e);
    throw e;
  }
  const { body, offset } = run;
  return sseResponse(ctx.request, ctx.root.signingSecret, ctx.host.streams, async (out) => {
    await out.send('status', { phase: 'searching', query: body.query, language: body.meta.language });
    let rank = offset;
    for (const item of body.data) await out.send('result', { ...item, rank: ++rank });
    await out.send('done', { total: body.total, returned: body.data.length, suggestion: body.suggestion, took_ms: Math.round(performance.now() - started) });
  }, body.data.length + 2);
}

const wantsStream = (request: Request) => negotiate(request.headers.get('accept'), [FORMATS.json, FORMATS.eventStream]) === FORMATS.eventStream;

/** Repeated searches are answered from the function layer's bounded cache (with their ETag), streams never. */
const cacheKey = (request: Request, url: URL) => (wantsStream(request) ? undefined : canonicalSearchQuery(url.searchParams));

export const searchRoutes: Route[] = [
  {
    path: '/api/search',
    summary: 'Search posts (q or query, lang, fallback, page, per_page); Accept: text/event-stream streams results',
    cacheKey,
    vary: 'Accept',
    handler: (ctx) => (wantsStream(ctx.request) ? streamSearch(ctx) : answer(async () => (await ctx.root.core.search(ctx.url.searchParams)).body)),
  },
  { path: '/mcp/v1/search', summary: 'Legacy alias of /api/search', cacheKey, handler: (ctx) => answer(async () => (await ctx.root.core.search(ctx.url.searchParams)).body) },
  { path: '/api/stream/search', summary: 'Search results as signed Server-Sent Events (status, result, done, error)', handler: streamSearch },
];

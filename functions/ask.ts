import type { AskInput } from '../src/core/ask.ts';
import { FolioError } from '../src/core/errors.ts';
import type { RequestContext } from './context.ts';
import { json, readJson } from './http.ts';
import type { Route } from './route.ts';
import { sseResponse } from './sse.ts';

/** NLWeb-compatible /ask: flat `{query, site, streaming}` or nested `{query: {text, site}, prefer: {streaming}}`. */
interface AskRequest extends AskInput {
  streaming: boolean;
}

/** What `?streaming=` may say (the parameter's enum in OpenAPI). */
const STREAMING_VALUES = new Set(['true', 'false', '1', '0']);

const fail = (error: string) => json({ status: 'error', error }, 400);

function fromBody(body: unknown): AskRequest | string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'The body must be a JSON object with "query".';
  const b = body as Record<string, unknown>;
  const nested = b.query && typeof b.query === 'object' && !Array.isArray(b.query) ? (b.query as Record<string, unknown>) : undefined;
  const prefer = b.prefer && typeof b.prefer === 'object' ? (b.prefer as Record<string, unknown>) : {};
  const streaming = b.streaming ?? prefer.streaming ?? false;
  if (typeof streaming !== 'boolean') return '"streaming" must be true or false.';
  return { query: nested ? nested.text : b.query, site: nested ? nested.site ?? b.site : b.site, streaming };
}

async function readAsk(ctx: RequestContext): Promise<AskRequest | string> {
  if (ctx.request.method === 'POST') {
    const body = await readJson(ctx.request);
    return body ? fromBody(body.value) : 'The body is not valid JSON.';
  }
  const p = ctx.url.searchParams;
  const streaming = p.get('streaming') ?? 'false';
  if (!STREAMING_VALUES.has(streaming)) return '"streaming" must be true, false, 1 or 0.';
  return { query: p.get('query') ?? p.get('q') ?? undefined, site: p.get('site') ?? undefined, streaming: streaming === 'true' || streaming === '1' };
}

async function handleAsk(ctx: RequestContext): Promise<Response> {
  const request = await readAsk(ctx);
  if (typeof request === 'string') return fail(request);
  let answer;
  try {
    answer = await ctx.root.core.ask(request);
  } catch (e) {
    if (e instanceof FolioError) return fail(e.message);
    throw e;
  }
  if (!request.streaming) return json(answer, 200, { 'cache-control': 'no-store' });
  return sseResponse(ctx.request, ctx.root.signingSecret, ctx.host.streams, async (out) => {
    await out.send('start', { query: answer.query, site: answer.site, language: answer.language });
    for (const item of answer.response) await out.send('result', { ...item });
    await out.send('complete', { total: answer.response.length });
  }, answer.response.length + 2);
}

export const askRoutes: Route[] = [
  { method: 'POST', path: '/ask', summary: 'Natural-language query (NLWeb): {query, site?, streaming?}', handler: handleAsk },
  { path: '/ask', summary: 'Natural-language query: ?query=&streaming=', handler: handleAsk },
];

import { errors } from '../src/core/errors.ts';
import type { RequestContext } from './context.ts';
import { errorJson, json, readJson } from './http.ts';
import { safePath, wellEncodedQuery } from './request-path.ts';
import type { Route } from './route.ts';
import { BATCH_MAX } from '../src/core/limits.ts';

/**
 * POST /api/batch: up to 20 GETs of /api/ paths, answered concurrently in-process by the same
 * function layer as a standalone request, so each item's body is what that GET returns alone
 * (at most BATCH_MAX).
 */

interface Item {
  path: string;
  method?: unknown;
}

function readBatch(body: unknown): Item[] | string {
  const requests = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).requests : undefined;
  if (!Array.isArray(requests)) return 'The body must be a JSON object {"requests": [{"path": "/api/..."}]}.';
  if (requests.length === 0 || requests.length > BATCH_MAX) return `"requests" must hold 1 to ${BATCH_MAX} items; got ${requests.length}.`;
  const bad = requests.findIndex((r) => !r || typeof r !== 'object' || typeof (r as Record<string, unknown>).path !== 'string');
  if (bad !== -1) return `requests[${bad}] needs a string "path".`;
  return requests as Item[];
}

const itemError = (path: string, status: number, error: string) => ({ path, status, body: { error } });

/** Why an item cannot run, as its status and message; undefined when it can. */
function refuse(item: Item): [number, string] | undefined {
  const method = item.method === undefined ? 'GET' : item.method;
  const pathname = safePath(item.path);
  if (pathname === undefined || !pathname.startsWith('/api/')) return [400, `"${item.path}" is not an /api/ path.`];
  if (!wellEncodedQuery(item.path.split('?').slice(1).join('?'))) return [400, `"${item.path}" has invalid percent-encoding in its query.`];
  if (pathname === '/api/batch' || pathname.startsWith('/api/stream/')) return [400, `"${item.path}" cannot run inside a batch (batches and streams are not nested).`];
  if (typeof method !== 'string' || method.toUpperCase() !== 'GET') return [405, `Only GET runs inside a batch; got ${JSON.stringify(method)}.`];
  return undefined;
}

async function runItem(ctx: RequestContext, item: Item) {
  const refused = refuse(item);
  if (refused) return itemError(item.path, ...refused);
  if (ctx.charge && !(await ctx.charge(1))) return itemError(item.path, 429, 'Rate limit exceeded: this sub-request was not run.');
  const url = new URL(`${ctx.root.base}${item.path}`, ctx.url);
  const request = new Request(url, { headers: { accept: 'application/json' }, signal: ctx.request.signal });
  const response = await ctx.dispatch(request, safePath(url.pathname)!);
  if (!response) return itemError(item.path, 404, 'Not found');
  return { path: item.path, status: response.status, body: JSON.parse(await response.text()) as unknown };
}

async function handleBatch(ctx: RequestContext): Promise<Response> {
  const body = await readJson(ctx.request);
  const items = body ? readBatch(body.value) : 'The body is not valid JSON.';
  if (typeof items === 'string') return errorJson(errors.invalidRequest(`Invalid batch: ${items}`));
  const results = await Promise.all(items.map((item) => runItem(ctx, item)));
  return json({ results }, 200, { 'cache-control': 'no-store' });
}

export const batchRoutes: Route[] = [{ method: 'POST', path: '/api/batch', summary: `Up to ${BATCH_MAX} GET /api/ requests in one: {requests: [{path, method?}]}`, handler: handleBatch }];

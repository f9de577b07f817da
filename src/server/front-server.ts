import type { IncomingMessage, ServerResponse } from 'node:http';
import { createFunctions } from '../../functions/routes.ts';
import type { Capabilities, Host } from '../../functions/context.ts';
import { BodyTooLarge, toWebRequest, webHeaders, writeResponse } from './node-bridge.ts';
import { CORS_HEADERS, preflight } from './policies/cors.ts';
import { rejectBearer } from './policies/bearer.ts';
import { etagOf, matchesIfNoneMatch, RETAINED_304_HEADERS } from './policies/etag.ts';
import { rateHeaders, tooManyRequests, type RateDecision, type RateLimiter } from './policies/rate-limit.ts';
import { safePath } from '../../functions/request-path.ts';
import type { ServerConfig } from './config.ts';
import type { staticFiles } from './static-files.ts';

/** Astro's Node handler; called without `next`, an unmatched path renders the 404 route. */
type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => unknown;

export interface FrontServerDeps {
  config: ServerConfig;
  host: Host;
  files: ReturnType<typeof staticFiles>;
  limiter: RateLimiter | undefined;
  /** Astro's on-demand pages (the 404 page). */
  pages: NodeMiddleware;
  siteUrl: string;
  log?: (message: string) => void;
}

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

const jsonError = (status: number, error: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

const isJson = (response: Response) => /[/+]json\b/.test(response.headers.get('content-type') ?? '');

function clientKey(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * The one Node entry: global policies on every response (CORS, bearer 401, rate limit,
 * body limit, ETag/304), then functions, then static files, then Astro's 404 page.
 */
export function createFrontServer(deps: FrontServerDeps) {
  const functions = createFunctions(deps.host);
  const log = deps.log ?? ((m: string) => console.error(m));

  async function route(req: IncomingMessage, headers: Headers, path: string, signal: AbortSignal, rate: RateDecision | undefined, capabilities: Capabilities): Promise<Response | 'pages'> {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return preflight();
    const bearer = rejectBearer(headers.get('authorization'), deps.siteUrl);
    if (bearer) return bearer;
    if (rate && !rate.allowed) return tooManyRequests(rate, Math.floor(Date.now() / 1000));
    let request: Request;
    try {
      request = await toWebRequest(req, headers, deps.config.bodyLimit, signal);
    } catch (e) {
      if (e instanceof BodyTooLarge) return jsonError(413, `Request body too large: the limit is ${deps.config.bodyLimit} bytes.`);
      throw e;
    }
    const answered = await functions(request, path, capabilities);
    if (answered) return answered;
    const file = await deps.files.serve(path, new URL(request.url).search);
    if (file && (method === 'GET' || method === 'HEAD')) return file;
    if (file) return new Response(`Method ${method} not allowed\n`, { status: 405, headers: { allow: 'GET, HEAD, OPTIONS', 'content-type': 'text/plain; charset=utf-8' } });
    // API paths never get here: the function layer answers their 404 as JSON.
    return 'pages';
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    const method = req.method ?? 'GET';
    const headOnly = method === 'HEAD';
    const limiter = method === 'OPTIONS' ? undefined : deps.limiter;
    const key = clientKey(req, deps.config.trustProxy);
    let rate = limiter?.hit(key);
    // A batch counts each of its sub-requests too; the headers report the window after them.
    const capabilities: Capabilities = limiter ? { charge: (cost) => (rate = limiter.hit(key, cost)).allowed } : {};
    for (const [k, v] of Object.entries({ ...CORS_HEADERS, ...SECURITY_HEADERS })) res.setHeader(k, v);
    let response: Response | 'pages';
    try {
      const path = safePath(req.url ?? '/');
      const headers = webHeaders(req);
      response = path === undefined ? jsonError(400, 'Bad request path: invalid percent-encoding or a dot segment.') : await route(req, headers, path, controller.signal, rate, capabilities);
      if (response === 'pages') {
        res.setHeader('vary', 'Accept');
        res.setHeader('cache-control', 'no-store');
        await new Promise<void>((resolve) => {
          res.once('finish', resolve);
          res.once('close', resolve);
          Promise.resolve(deps.pages(req, res)).catch((e: unknown) => {
            log(`404 page failed: ${String(e)}`);
            if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
          });
        });
        return;
      }
    } catch (e) {
      log(`error on ${method} ${req.url}: ${(e as Error).stack ?? String(e)}`);
      response = jsonError(500, 'Internal error; the request was not processed.');
    }
    await finish(req, res, response, headOnly, rate);
  };

  async function finish(req: IncomingMessage, res: ServerResponse, response: Response, headOnly: boolean, rate: RateDecision | undefined) {
    if (rate && isJson(response)) for (const [k, v] of Object.entries(rateHeaders(rate))) response.headers.set(k, v);
    const streaming = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const cacheable = response.status === 200 && (req.method === 'GET' || req.method === 'HEAD') && !streaming && !/no-store/.test(response.headers.get('cache-control') ?? '');
    if (!cacheable) return writeResponse(res, response, headOnly);
    const body = new Uint8Array(await response.arrayBuffer());
    const etag = response.headers.get('etag') ?? etagOf(body);
    response.headers.set('etag', etag);
    if (matchesIfNoneMatch(req.headers['if-none-match'] ?? null, etag)) {
      const kept = new Headers();
      for (const name of [...RETAINED_304_HEADERS, ...(rate ? Object.keys(rateHeaders(rate)) : [])]) {
        const v = response.headers.get(name);
        if (v !== null) kept.set(name, v);
      }
      return writeResponse(res, new Response(null, { status: 304, headers: kept }), true);
    }
    response.headers.set('content-length', String(body.byteLength));
    return writeResponse(res, response, headOnly, body);
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Capabilities } from '../../functions/context.ts';
import { BodyTooLarge, toWebRequest, webHeaders, writeResponse } from './node-bridge.ts';
import { CORS_HEADERS, preflight } from './policies/cors.ts';
import { rejectBearer } from './policies/bearer.ts';
import { SECURITY_HEADERS } from './policies/security.ts';
import { etagOf, matchesIfNoneMatch, RETAINED_304_HEADERS } from './policies/etag.ts';
import { rateHeaders, tooManyRequests, type RateDecision, type RateLimiter } from './policies/rate-limit.ts';
import { safePath } from '../../functions/request-path.ts';
import { serveFile } from './fast-path.ts';
import { compressAnswer } from './compress.ts';
import type { Found } from './published.ts';
import type { Generation } from './generation.ts';
import type { ServerConfig } from './config.ts';

export interface FrontServerDeps {
  config: ServerConfig;
  /** The build live now; each request keeps the one it started with. */
  live: () => Generation;
  limiter: RateLimiter | undefined;
  log?: (message: string) => void;
}

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
 * The published form of a page URL written with or without its trailing slash, if it differs (the
 * manifest keys homes with the slash and every other page without).
 */
function canonicalPage(gen: Generation, path: string): string | undefined {
  const trimmed = path.replace(/\/+$/, '');
  if (path.endsWith('/') && trimmed && gen.files.page(trimmed)) return trimmed;
  if (!path.endsWith('/') && gen.files.page(`${trimmed}/`)) return `${trimmed}/`;
  return undefined;
}

type Routed = Response | { file: Found } | 'pages';

/**
 * The one Node entry. A GET or HEAD for a published answer takes the fast path: one manifest
 * lookup and the file written with precomputed headers (the policies still apply: CORS, security
 * headers, bearer 401, rate limit). Everything else: policies, functions, published files,
 * canonical redirects, then Astro's 404 page.
 */
export function createFrontServer(deps: FrontServerDeps) {
  const log = deps.log ?? ((m: string) => console.error(m));
  // A shared store that is away does not stop reads: requests go uncounted (and without the
  // headers) until it is back. Said once per outage, not per request.
  let storeAway = false;
  const storeDown = (e: unknown): undefined => {
    if (!storeAway) log(`rate limit store unreachable, requests are not counted until it returns: ${(e as Error).message}`);
    storeAway = true;
    setTimeout(() => (storeAway = false), 10_000).unref();
    return undefined;
  };

  async function route(gen: Generation, req: IncomingMessage, path: string, url: URL, rate: RateDecision | undefined, capabilities: Capabilities, signal: () => AbortSignal): Promise<Routed> {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return preflight();
    const authorization = req.headers.authorization;
    const bearer = authorization === undefined ? undefined : rejectBearer(authorization, gen.siteUrl);
    if (bearer) return bearer;
    if (rate && !rate.allowed) return tooManyRequests(rate, Math.floor(Date.now() / 1000));
    const owned = gen.functions.owns(path);
    if (owned) {
      let request: Request;
      try {
        request = await toWebRequest(req, webHeaders(req), url, deps.config.bodyLimit, signal());
      } catch (e) {
        if (e instanceof BodyTooLarge) return jsonError(413, `Request body too large: the limit is ${deps.config.bodyLimit} bytes.`);
        throw e;
      }
      const answered = await gen.functions(request, path, capabilities, url);
      if (answered) return answered;
    }
    const found = gen.files.find(path, url.search.slice(1), req.headers.accept);
    if (found && (method === 'GET' || method === 'HEAD')) return { file: found };
    if (found) return new Response(`Method ${method} not allowed\n`, { status: 405, headers: { allow: 'GET, HEAD, OPTIONS', 'content-type': 'text/plain; charset=utf-8' } });
    const canonical = canonicalPage(gen, path);
    if (canonical) return new Response(null, { status: 301, headers: { location: `${canonical}${url.search}` } });
    // API paths never get here: the function layer answers their 404 as JSON. A post URL whose
    // translation is unavailable (a function route claimed it) gets its page rendered; any other
    // path, the published not-found page of its language.
    const notFound = owned ? undefined : gen.files.notFound(path);
    return notFound ? { file: { file: notFound, negotiated: false, status: 404 } } : 'pages';
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const gen = deps.live();
    const method = req.method ?? 'GET';
    const limiter = method === 'OPTIONS' ? undefined : deps.limiter;
    const key = limiter ? clientKey(req, deps.config.trustProxy) : '';
    const decided = limiter?.hit(key);
    let rate = decided instanceof Promise ? await decided.catch(storeDown) : decided;
    const target = req.url ?? '/';
    try {
      if (deps.config.fastPath && (method === 'GET' || method === 'HEAD') && req.headers.authorization === undefined && rate?.allowed !== false) {
        const q = target.indexOf('?');
        const path = safePath(target);
        const found = path === undefined ? undefined : gen.files.find(path, q < 0 ? '' : target.slice(q + 1), req.headers.accept);
        if (found) return await serveFile(req, res, found, gen.files, rate);
      }
    } catch (e) {
      log(`error on ${method} ${target}: ${(e as Error).stack ?? String(e)}`);
      if (!res.headersSent) res.writeHead(500, { ...CORS_HEADERS, ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ error: 'Internal error; the request was not processed.' }));
      return;
    }

    // A stream learns that its client left through this signal; only function answers need one.
    let controller: AbortController | undefined;
    const signal = () => {
      if (!controller) {
        const c = (controller = new AbortController());
        res.once('close', () => c.abort());
      }
      return controller.signal;
    };
    // A batch counts each of its sub-requests too; the headers report the window after them.
    const capabilities: Capabilities = limiter
      ? {
          charge: async (cost) => {
            rate = await Promise.resolve(limiter.hit(key, cost)).catch(storeDown);
            return rate?.allowed ?? true;
          },
        }
      : {};
    for (const [k, v] of Object.entries({ ...CORS_HEADERS, ...SECURITY_HEADERS })) res.setHeader(k, v);
    let response: Routed;
    try {
      const path = safePath(target);
      response = path === undefined ? jsonError(400, 'Bad request path: invalid percent-encoding or a dot segment.') : await route(gen, req, path, new URL(target, 'http://folio.local'), rate, capabilities, signal);
      if (response === 'pages') {
        res.setHeader('vary', 'Accept');
        res.setHeader('cache-control', 'no-store');
        await new Promise<void>((resolve) => {
          res.once('finish', resolve);
          res.once('close', resolve);
          Promise.resolve(gen.pages(req, res, undefined, { folioRoots: gen.roots })).catch((e: unknown) => {
            log(`404 page failed: ${String(e)}`);
            if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
          });
        });
        return;
      }
      if ('file' in response) return await serveFile(req, res, response.file, gen.files, rate);
    } catch (e) {
      log(`error on ${method} ${target}: ${(e as Error).stack ?? String(e)}`);
      response = jsonError(500, 'Internal error; the request was not processed.');
    }
    await finish(req, res, response, method === 'HEAD', rate);
  };

  async function finish(req: IncomingMessage, res: ServerResponse, response: Response, headOnly: boolean, rate: RateDecision | undefined) {
    if (rate && isJson(response)) for (const [k, v] of Object.entries(rateHeaders(rate))) response.headers.set(k, v);
    const streaming = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const cacheable = response.status === 200 && (req.method === 'GET' || req.method === 'HEAD') && !streaming && !/no-store/.test(response.headers.get('cache-control') ?? '');
    if (!cacheable) return writeResponse(res, response, headOnly);
    const identity = new Uint8Array(await response.arrayBuffer());
    if (!response.headers.has('etag')) response.headers.set('etag', etagOf(identity));
    const body = compressAnswer(identity, response.headers, req.headers['accept-encoding']);
    if (matchesIfNoneMatch(req.headers['if-none-match'] ?? null, response.headers.get('etag')!)) {
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

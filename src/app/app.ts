import type { Capabilities } from '../../functions/context.ts';
import { methodNotAllowed, type FunctionLayer } from '../../functions/routes.ts';
import { safePath, wellEncodedQuery } from '../../functions/request-path.ts';
import { etagOf } from '../../functions/etag.ts';
import { bytesResponse, heldAs, madeFrom, redirect, setHeaders } from '../../functions/http.ts';
import { nestedTooDeep, tooDeepMessage } from '../core/json-depth.ts';
import { bodyBytes, fileAnswer, type FileAnswer } from './file-answer.ts';
import type { Found, PublishedFiles } from './published.ts';
import { CORS_HEADERS, preflight } from './policies/cors.ts';
import { SECURITY_HEADERS } from './policies/security.ts';
import { rejectBearer } from './policies/bearer.ts';
import { matchesIfNoneMatch, RETAINED_304_HEADERS } from './policies/etag.ts';
import { StoreAway } from '../state/store-circuit.ts';
import { isJson, rateHeaders, retryAfter, tooManyRequests, type RateDecision, type RateLimiter } from './policies/rate-limit.ts';

/** One published build as the app serves it: its files and the functions over its content. */
export interface Build {
  files: PublishedFiles;
  functions: FunctionLayer;
  siteUrl: string;
}

/** What differs per host; everything else is the app's. */
export interface AppHost<Env> {
  /** The build live now (a request keeps the one it started with). */
  live(env: Env): Build | Promise<Build>;
  /** The client a request counts against (the socket's address on Node, CF-Connecting-IP on Workers). */
  clientKey(request: Request, env: Env): string;
  /** The request target's path as the client sent it (URL parsing folds dot segments the app refuses). */
  rawPath?(request: Request, env: Env): string;
  /** The method as the client sent it, where the Web Request could not carry it (Node: TRACE, TRACK). */
  rawMethod?(request: Request, env: Env): string;
  limiter?: RateLimiter;
  bodyLimit: number;
  /** Answer every function path by code, published or not (FAST_PATH=0: for checking the files). */
  computeAll?: boolean;
  /** Whether the host has already looked this request up among the published files and found none (Node's fast path): the router does not look again. */
  unpublished?(env: Env): boolean;
  /** Codes a computed answer for the client (Node); absent where the host's edge compresses (Workers). */
  compress?: (identity: Uint8Array, headers: Headers, acceptEncoding: string | undefined) => Uint8Array;
  log?: (message: string) => void;
}

/** The Web-standard app every host runs: `fetch(request, env, ctx)`, as a Worker exports it. */
export interface App<Env> {
  fetch(request: Request, env: Env, ctx?: unknown): Promise<Response>;
  /** Counts a request against the client's limit (undefined: no limit, or its store is away). */
  count(key: string): RateDecision | undefined | Promise<RateDecision | undefined>;
  /** For an adapter that has already counted the request (Node's fast path found it over the limit). */
  handle(request: Request, env: Env, counted?: RateDecision): Promise<Response>;
}

interface Context<Env> {
  request: Request;
  env: Env;
  url: URL;
  /** The decoded path; undefined when the request target is malformed. */
  path: string | undefined;
  build: Build;
  rate?: RateDecision;
  counted?: RateDecision;
  capabilities: Capabilities;
}

const UTF8 = new TextEncoder();

type Next = () => Promise<Response>;
type Middleware<Env> = (c: Context<Env>, next: Next) => Promise<Response>;

const jsonError = (status: number, error: string) =>
  new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });

/** A body sent as a GraphQL document (application/graphql), the one kind not read as JSON. */
const isGraphqlDocument = (type: string | null) => (type ?? '').split(';')[0]!.trim().toLowerCase() === 'application/graphql';

/** Every response's policy headers, merged once. */
const POLICY_HEADERS: Record<string, string> = { ...CORS_HEADERS, ...SECURITY_HEADERS };

/** What a published file (or any path no function answers) allows. */
const STATIC_ALLOW = 'GET, HEAD, OPTIONS';

/** The Allow header of a path in a build: its functions' methods, else a static file's. */
const allowFor = (build: Build, path: string) => build.functions.allows(path) ?? STATIC_ALLOW;

/** A published file as a Web Response (the same answer Node's fast path writes). */
async function fileResponse(files: PublishedFiles, stored: Found, request: Request, rate: RateDecision | undefined): Promise<Response> {
  const h = request.headers;
  const opt = (name: string) => h.get(name) ?? undefined;
  const found = { ...stored, file: await files.coded(stored.file, opt('accept-encoding')) };
  const answer: FileAnswer = fileAnswer(found, { method: request.method, acceptEncoding: opt('accept-encoding'), ifNoneMatch: opt('if-none-match'), range: opt('range'), ifRange: opt('if-range') }, rate);
  const { body } = answer;
  const bytes = !body ? null : 'text' in body ? body.text : await bodyBytes(body, files.body);
  // Coded bytes go as they are: Workers would otherwise code the body again (Node ignores the option).
  return new Response(bytes as BodyInit | null, { status: answer.status, headers: answer.headers, encodeBody: 'manual' } as ResponseInit);
}

/** A request body read up to the limit; undefined when it is larger. */
async function boundedBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return undefined;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Left to the host rather than cancelled: cancelling a Node request's body resets its
      // connection before the 413 is written (the Node server drops the rest itself).
      reader.releaseLock();
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

/**
 * What a path no function answered and no file holds gets: a redirect to the published form of a
 * page URL written with or without its trailing slash (the manifest keys homes with the slash and
 * every other page without), else its not-found page (404).
 */
export async function pageFallback(files: PublishedFiles, path: string): Promise<{ redirect: string } | Found | undefined> {
  const trimmed = path.replace(/\/+$/, '');
  if (path.endsWith('/') && trimmed && (await files.page(trimmed))) return { redirect: trimmed };
  if (!path.endsWith('/') && (await files.page(`${trimmed}/`))) return { redirect: `${trimmed}/` };
  return files.notFound(path);
}

/**
 * The app: the global policies as middleware (CORS and security headers, errors, the build, HEAD,
 * preflight, rate limit, bearer 401, request path), then the router: the published files first,
 * the function layer (body limit, ETag/304 and coding of computed answers), canonical redirects,
 * the not-found pages.
 */
export function createApp<Env>(host: AppHost<Env>): App<Env> {
  const log = host.log ?? ((m: string) => console.error(m));
  // A shared store that is away does not stop reads: requests go uncounted (and without the
  // headers) until it is back. Said once per outage, not per request (a store behind a circuit,
  // store-circuit.ts, says it there).
  let quietUntil = 0;
  const storeDown = (e: unknown): undefined => {
    if (Date.now() >= quietUntil && !(e instanceof StoreAway)) log(`rate limit store unreachable, requests are not counted until it returns: ${(e as Error).message}`);
    quietUntil = Date.now() + 10_000;
    return undefined;
  };

  /** The limiter's decision; a store that throws or rejects lets the request through uncounted. */
  const count = (key: string, cost?: number): RateDecision | undefined | Promise<RateDecision | undefined> => {
    if (!host.limiter) return undefined;
    try {
      const decided = host.limiter.hit(key, cost);
      return decided instanceof Promise ? decided.catch(storeDown) : decided;
    } catch (e) {
      return storeDown(e);
    }
  };

  const internalError: Middleware<Env> = async (c, next) => {
    try {
      return await next();
    } catch (e) {
      log(`error on ${c.request.method} ${c.url.pathname}: ${(e as Error).stack ?? String(e)}`);
      return jsonError(500, 'Internal error; the request was not processed.');
    }
  };

  const policyHeaders: Middleware<Env> = async (_c, next) => setHeaders(await next(), POLICY_HEADERS);

  /** HEAD is answered as GET, then sent without its body. */
  const head: Middleware<Env> = async (c, next) => {
    const response = await next();
    if (c.request.method !== 'HEAD' || !response.body) return response;
    await response.body.cancel().catch(() => {});
    return new Response(null, { status: response.status, headers: response.headers });
  };

  const requestPath: Middleware<Env> = (c, next) => {
    // RFC 9112 3.2: a request with more than one Host (the Fetch API joins them with a comma, which no host name holds) is a 400.
    if (c.request.headers.get('host')?.includes(',')) return Promise.resolve(jsonError(400, 'Bad request: more than one Host header.'));
    if (c.path === undefined) return Promise.resolve(jsonError(400, 'Bad request path: invalid percent-encoding or a dot segment.'));
    if (!wellEncodedQuery(c.url.search)) return Promise.resolve(jsonError(400, 'Bad query string: invalid percent-encoding.'));
    return next();
  };

  /** A method the Fetch API cannot carry (the host passed it on as a bodyless GET): 405 like any other. */
  const unrepresentable: Middleware<Env> = (c, next) => {
    const method = host.rawMethod?.(c.request, c.env);
    return method && method !== c.request.method ? Promise.resolve(methodNotAllowed(method, allowFor(c.build, c.path!))) : next();
  };

  const cors: Middleware<Env> = (c, next) => (c.request.method === 'OPTIONS' ? Promise.resolve(preflight()) : next());

  const bearer: Middleware<Env> = (c, next) => Promise.resolve(rejectBearer(c.request.headers.get('authorization'), c.build.siteUrl) ?? next());

  const rateLimit: Middleware<Env> = async (c, next) => {
    if (!host.limiter) return next();
    const key = c.capabilities.client!;
    c.rate = c.counted ?? (await count(key));
    // A batch counts each of its sub-requests too; the headers report the window after them.
    c.capabilities.charge = async (cost) => {
      c.rate = await count(key, cost);
      return c.rate?.allowed ?? true;
    };
    let response = c.rate && !c.rate.allowed ? tooManyRequests(c.rate, Math.floor(Date.now() / 1000)) : await next();
    // A function that refused work its charge did not cover (an MCP batch) says when to retry as the app does.
    if (response.status === 429 && c.rate && !response.headers.has('retry-after')) response = setHeaders(response, { 'retry-after': String(retryAfter(c.rate, Math.floor(Date.now() / 1000))) });
    return c.rate && isJson(response.headers.get('content-type')) && !response.headers.has('x-ratelimit-limit') ? setHeaders(response, rateHeaders(c.rate)) : response;
  };

  /** ETag, 304 and coding for a computed 200 (published files carry theirs from the build). */
  async function conditional(c: Context<Env>, response: Response): Promise<Response> {
    const { request } = c;
    const streaming = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const cacheable = response.status === 200 && (request.method === 'GET' || request.method === 'HEAD') && !streaming && !/no-store/.test(response.headers.get('cache-control') ?? '');
    if (!cacheable) return response;
    if (c.rate && isJson(response.headers.get('content-type'))) response = setHeaders(response, rateHeaders(c.rate));
    // The bytes of one of our answers are at hand: its Web stream is not read (issue 39).
    const made = madeFrom(response);
    const identity = made === undefined ? new Uint8Array(await response.arrayBuffer()) : typeof made === 'string' ? UTF8.encode(made) : made;
    // One of ours (made by this app: its headers can be set) keeps its Response when it goes as it
    // is: a second one would copy the bytes and make another stream (issue 39).
    const headers = made === undefined ? new Headers(response.headers) : response.headers;
    if (!headers.has('etag')) headers.set('etag', await etagOf(identity));
    const body = host.compress ? host.compress(identity, headers, request.headers.get('accept-encoding') ?? undefined) : identity;
    if (matchesIfNoneMatch(request.headers.get('if-none-match'), headers.get('etag')!)) {
      const kept = new Headers();
      for (const name of [...RETAINED_304_HEADERS, ...(c.rate ? Object.keys(rateHeaders(c.rate)) : [])]) {
        const v = headers.get(name);
        if (v !== null) kept.set(name, v);
      }
      return new Response(null, { status: 304, headers: kept });
    }
    headers.set('content-length', String(body.byteLength));
    return made !== undefined && body === identity ? heldAs(response, identity) : bytesResponse(body, { status: 200, headers });
  }

  async function router(c: Context<Env>): Promise<Response> {
    const { request, url, build } = c;
    const path = c.path!;
    const method = request.method;
    const read = method === 'GET' || method === 'HEAD';
    const accept = request.headers.get('accept') ?? undefined;
    // Static first: a published answer is served as it is, never recomputed.
    const published = host.computeAll || host.unpublished?.(c.env) ? undefined : read ? await build.files.find(path, url.search.slice(1), accept) : undefined;
    if (published) return fileResponse(build.files, published, request, c.rate);
    if (build.functions.owns(path)) {
      let forwarded = request;
      if (method !== 'GET' && method !== 'HEAD') {
        const body = await boundedBody(request, host.bodyLimit);
        if (!body) return jsonError(413, `Request body too large: the limit is ${host.bodyLimit} bytes.`);
        // Every body but a GraphQL document is read as JSON somewhere; none is parsed this deep.
        if (!isGraphqlDocument(request.headers.get('content-type')) && nestedTooDeep(body)) return jsonError(413, tooDeepMessage());
        forwarded = new Request(url, { method, headers: request.headers, body: body as Uint8Array<ArrayBuffer>, signal: request.signal });
      }
      const answered = await build.functions(forwarded, path, c.capabilities, url);
      if (answered) return conditional(c, answered);
    }
    const found = await build.files.find(path, url.search.slice(1), accept);
    if (found && read) return fileResponse(build.files, found, request, c.rate);
    if (found) return methodNotAllowed(method, STATIC_ALLOW);
    // API paths never get here: the function layer answers their 404 as JSON.
    const fallback = await pageFallback(build.files, path);
    if (fallback && 'redirect' in fallback) return redirect(fallback.redirect, url.search);
    if (fallback) return fileResponse(build.files, fallback, request, c.rate);
    return new Response('Not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  }

  /** The build this request is answered from, all the way (a host may load it on first use). */
  const liveBuild: Middleware<Env> = async (c, next) => {
    try {
      c.build = await host.live(c.env);
    } catch (e) {
      log(`the build could not be loaded: ${(e as Error).message}`);
      return jsonError(503, 'Service unavailable: the build could not be loaded; the operator will find why in the logs.');
    }
    return next();
  };

  // The bearer refusal and the path checks come after the rate limit: such a request counts, and
  // its JSON 401, 400 or 405 carries the rate-limit headers like every JSON answer.
  const chain: Middleware<Env>[] = [policyHeaders, internalError, liveBuild, head, cors, rateLimit, bearer, requestPath, unrepresentable];
  const run = (c: Context<Env>, i: number): Promise<Response> => (i < chain.length ? chain[i]!(c, () => run(c, i + 1)) : router(c));

  async function handle(request: Request, env: Env, counted?: RateDecision): Promise<Response> {
    const url = new URL(request.url);
    // The path is decoded (and checked) once, here.
    const path = safePath(host.rawPath?.(request, env) ?? url.pathname);
    return run({ request, env, url, path, counted, capabilities: { client: host.clientKey(request, env) } } as Context<Env>, 0);
  }

  return { fetch: (request, env) => handle(request, env), count, handle };
}

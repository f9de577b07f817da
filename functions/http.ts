import { FolioError } from '../src/core/errors.ts';
import { FORMATS } from '../src/core/formats.ts';
import { toJson } from '../src/core/index.ts';

/**
 * Public reads: browsers keep an answer a minute; shared caches (CDNs) five minutes, and may serve
 * it stale for a day while they refetch (a new build changes the ETag, so revalidation is cheap).
 */
export const CACHE_PUBLIC = 'public, max-age=60, s-maxage=300, stale-while-revalidate=86400';

/**
 * The text or bytes each answer was made from, by its response: read without a trip through its
 * body stream (a Web stream read costs more than most answers take to compute: issue 39).
 */
const madeOf = new WeakMap<Response, string | Uint8Array>();

/** What a response of ours was made from, while its body is unread; undefined for any other (a host then reads its stream). */
export const madeFrom = (response: Response): string | Uint8Array | undefined => (response.bodyUsed ? undefined : madeOf.get(response));

/** How an answer of this status may be kept: a 200 is a public read, anything else is not kept. */
export const cacheControlFor = (status: number) => (status === 200 ? CACHE_PUBLIC : 'no-store');

/**
 * Records that a response of ours, its body unread, holds `bytes` (its text as UTF-8): a host then
 * writes them and never encodes the text again nor builds a second Response to carry them (issue 39).
 */
export function heldAs(response: Response, bytes: Uint8Array): Response {
  if (madeFrom(response) === undefined) throw new Error('heldAs: not a response of ours, or its body was read');
  madeOf.set(response, bytes);
  return response;
}

/** A response of `bytes`, remembered as made from them (madeFrom). */
export function bytesResponse(bytes: Uint8Array, init: ResponseInit): Response {
  const response = new Response(bytes as Uint8Array<ArrayBuffer>, init);
  madeOf.set(response, bytes);
  return response;
}

export function text(body: string, contentType: string, status = 200, headers: HeadersInit = {}): Response {
  const response = new Response(body, {
    status,
    headers: { 'content-type': contentType, 'cache-control': cacheControlFor(status), ...headers },
  });
  madeOf.set(response, body);
  return response;
}

/**
 * An answer as made, before it is a Response: what a route that answers by path and query makes
 * (route.ts, `made`), sent by its handler and written as a file by the build (static-api.ts)
 * without a Request or a Response (some 40,000 of them at 1,000 x 14). `value` is the JSON body's
 * value, for the build to read what it holds (a list's page count, a post's Markdown twin).
 */
export interface Made {
  status: number;
  body: string;
  type: string;
  /** Headers besides type and caching (the API catalog's Link). */
  headers?: Record<string, string>;
  value?: unknown;
}

export const madeText = (body: string, type: string, status = 200, headers?: Record<string, string>): Made => ({ status, body, type, ...(headers && { headers }) });

export const madeJson = (value: unknown, status = 200): Made => ({ ...madeText(toJson(value), FORMATS.json.contentType, status), value });

/** A made answer as the Response a handler sends. */
export const respond = (made: Made): Response => text(made.body, made.type, made.status, made.headers);

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return text(toJson(body), FORMATS.json.contentType, status, headers);
}

export function errorJson(error: FolioError, headers: HeadersInit = {}): Response {
  return json(error.body(), error.status, headers);
}

export const notFoundJson = () => json({ error: 'Not found' }, 404);

/** Sets headers on a response, copying it first when its headers are immutable (a fetched one). */
export function setHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
    return copy;
  }
}

/** The response with `header` first in its Vary (the order published files send: Accept, Accept-Encoding). */
export function withVary(response: Response, header: string): Response {
  const vary = response.headers.get('vary');
  if (vary?.split(',').some((h) => h.trim().toLowerCase() === header.toLowerCase())) return response;
  return setHeaders(response, { vary: vary ? `${header}, ${vary}` : header });
}

/** Characters a path segment may hold as they are (RFC 3986 pchar), kept readable in a Location. */
const SEGMENT_SAFE = /%(24|26|2B|2C|3B|3D|3A|40)/g;

/**
 * A decoded path as a Location on this origin: every segment percent-encoded again, so control
 * characters, spaces, `?`, `#`, `\` and anything above U+007F travel as escapes (browsers strip
 * a raw tab and read `/\t/host` as `//host`). Undefined when it still would not stay on the
 * origin (not one leading slash).
 */
export function sameOriginLocation(path: string): string | undefined {
  const encoded = path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(SEGMENT_SAFE, (escape) => decodeURIComponent(escape)))
    .join('/');
  return /^\/(?!\/)/.test(encoded) ? encoded : undefined;
}

/**
 * A permanent redirect to a decoded path on this origin (and a query string as the URL parser
 * encoded it), or a 400 for a path that cannot be one.
 */
export function redirect(path: string, search = '', status = 301): Response {
  const location = sameOriginLocation(path);
  if (location === undefined) return json({ error: 'Bad request path: it cannot be redirected.' }, 400);
  return new Response(null, { status, headers: { location: `${location}${search}`, 'cache-control': 'public, max-age=3600' } });
}

/** Makes an answer; a FolioError becomes its JSON error, anything else propagates. */
export async function makeAnswer(compute: () => unknown | Promise<unknown>): Promise<Made> {
  try {
    return madeJson(await compute());
  } catch (e) {
    if (e instanceof FolioError) return madeJson(e.body(), e.status);
    throw e;
  }
}

/** Runs an answer; a FolioError becomes its JSON error response, anything else propagates. */
export async function answer(compute: () => unknown | Promise<unknown>): Promise<Response> {
  return respond(await makeAnswer(compute));
}

/**
 * A request's JSON body, or undefined when it is not JSON (the caller words the 400). An empty
 * body is no value rather than malformed, so each surface can say which fields it is missing.
 */
export async function readJson(request: Request): Promise<{ value: unknown } | undefined> {
  const raw = await request.text();
  if (raw.trim() === '') return { value: undefined };
  try {
    return { value: JSON.parse(raw) };
  } catch {
    return undefined;
  }
}

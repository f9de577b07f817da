import { FolioError } from '../src/core/errors.ts';
import { FORMATS } from '../src/core/formats.ts';
import { toJson } from '../src/core/index.ts';

/**
 * Public reads: browsers keep an answer a minute; shared caches (CDNs) five minutes, and may serve
 * it stale for a day while they refetch (a new build changes the ETag, so revalidation is cheap).
 */
export const CACHE_PUBLIC = 'public, max-age=60, s-maxage=300, stale-while-revalidate=86400';

/** The text each answer was made from, by its response: read without a trip through its body stream. */
const texts = new WeakMap<Response, string>();

/** A response's body as text: the text it was made from when it is one of ours (the build reads about 40,000). */
export const bodyText = (response: Response): Promise<string> => {
  const made = texts.get(response);
  return made === undefined ? response.text() : Promise.resolve(made);
};

export function text(body: string, contentType: string, status = 200, headers: HeadersInit = {}): Response {
  const response = new Response(body, {
    status,
    headers: { 'content-type': contentType, 'cache-control': status === 200 ? CACHE_PUBLIC : 'no-store', ...headers },
  });
  texts.set(response, body);
  return response;
}

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return text(toJson(body), FORMATS.json.contentType, status, headers);
}

export function errorJson(error: FolioError, headers: HeadersInit = {}): Response {
  return json(error.body(), error.status, headers);
}

export const notFoundJson = () => json({ error: 'Not found' }, 404);

export function redirect(location: string, status = 301): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'public, max-age=3600' } });
}

/** Runs an answer; a FolioError becomes its JSON error response, anything else propagates. */
export async function answer(compute: () => unknown | Promise<unknown>): Promise<Response> {
  try {
    return json(await compute());
  } catch (e) {
    if (e instanceof FolioError) return errorJson(e);
    throw e;
  }
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

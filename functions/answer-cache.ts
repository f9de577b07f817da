/**
 * A bounded cache of function answers keyed by root, path and canonical query. The bundle never
 * changes while a build is live (a new build gets a new function layer and so a new cache), so an
 * entry never goes stale.
 */
import { boundedCache } from './bounded-cache.ts';
import { etagOf } from './etag.ts';
import { bytesResponse, madeFrom } from './http.ts';

const UTF8 = new TextEncoder();

export interface CachedAnswer {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

export function answerCache(maxBytes: number) {
  const entries = boundedCache<CachedAnswer>(maxBytes, (a) => a.body.byteLength);
  return {
    get(key: string): Response | undefined {
      const hit = entries.get(key);
      return hit && bytesResponse(hit.body, { status: hit.status, headers: hit.headers });
    },
    /** Stores a copy of the answer and returns one to send; streams pass through. */
    async put(key: string, response: Response): Promise<Response> {
      if (!response.body || response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
      // One of our answers is read from what it was made of, not through its Web stream (issue 39).
      const made = madeFrom(response);
      const body = made === undefined ? new Uint8Array(await response.arrayBuffer()) : typeof made === 'string' ? UTF8.encode(made) : made;
      const headers = new Headers(response.headers);
      // Hashed once here rather than by the front server at every hit.
      if (response.status === 200 && !headers.has('etag')) headers.set('etag', await etagOf(body));
      const cached: CachedAnswer = { status: response.status, headers: [...headers], body };
      entries.set(key, cached);
      return bytesResponse(body, { status: cached.status, headers: cached.headers });
    },
  };
}

import { compressAnswer } from '../../server/compress.ts';
import { matchesIfNoneMatch, RETAINED_304_HEADERS } from '../../app/policies/etag.ts';

/**
 * An answer of the worker in the coding its client prefers. The Workers artefact carries no
 * precompressed copies (a third of the files each), and Cloudflare's edge compresses only some
 * types (not feeds, Markdown or linksets), so the worker codes what it sends as Node codes its
 * computed answers (src/server/compress.ts: the same threshold, brotli at quality 1, the coding's
 * own ETag `"<hash>-br"` and `Vary: Accept-Encoding`), published files and computed answers alike;
 * the edge passes a coded answer on as it is. A 304 for the coding's ETag is answered here: the
 * app compared the request with the identity's.
 */
export async function coded(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || request.method !== 'GET' || !response.body || response.headers.has('content-encoding') || !response.headers.has('etag') || type.startsWith('text/event-stream')) return response;
  const identity = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  const body = compressAnswer(identity, headers, request.headers.get('accept-encoding') ?? undefined);
  if (body !== identity && matchesIfNoneMatch(request.headers.get('if-none-match'), headers.get('etag')!)) {
    const kept = new Headers();
    for (const [name, value] of headers) if (RETAINED_304_HEADERS.includes(name) || name.startsWith('x-ratelimit-')) kept.set(name, value);
    return new Response(null, { status: 304, headers: kept });
  }
  headers.set('content-length', String(body.byteLength));
  // The coded bytes go as they are (workerd would otherwise code a body with Content-Encoding again).
  return new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers, encodeBody: 'manual' } as ResponseInit);
}

import type { IncomingMessage, ServerResponse } from 'node:http';

/** Node's request and response, as Web Request and Response (the only Node-typed edge). */
export class BodyTooLarge extends Error {}

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      // A header value the Fetch API refuses is dropped rather than failing the request.
    }
  }
  return headers;
}

async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export async function toWebRequest(req: IncomingMessage, headers: Headers, url: URL, limit: number, signal: AbortSignal): Promise<Request> {
  const method = req.method ?? 'GET';
  const body = BODYLESS.has(method) ? undefined : await readBody(req, limit);
  return new Request(url, { method, headers, body: body as Uint8Array<ArrayBuffer> | undefined, signal });
}

/** Writes a Web Response; a streamed body stops when the client goes away. */
export async function writeResponse(res: ServerResponse, response: Response, headOnly: boolean, body?: Uint8Array): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (headOnly || response.status === 204 || response.status === 304) {
    res.end();
    await response.body?.cancel().catch(() => {});
    return;
  }
  if (body) {
    res.end(body);
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = () => reader.cancel().catch(() => {});
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } catch {
    // The client left mid-stream: nothing to answer.
  } finally {
    res.off('close', stop);
    res.end();
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { FLOW_LIMITS } from '../core/limits.ts';
import { madeFrom } from '../../functions/http.ts';

/** Node's request and response, as Web Request and Response (the only Node-typed edge). */
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Methods the Fetch API refuses to build a Request with; they reach the app as a bodyless GET. */
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The method a Web Request can carry for this one (the app reads the real one from the host). */
const webMethod = (method: string) => (FORBIDDEN.has(method) ? 'GET' : method);

function webHeaders(req: IncomingMessage): Headers {
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

/**
 * The body streams as it arrives: the app reads it up to its limit. No signal follows the socket:
 * a Request made to follow one is held through a WeakRef and a FinalizationRegistry, which V8's
 * young-generation collector keeps alive, so every request's objects were promoted (8 MB a
 * scavenge at 16,000 req/s, 10 ms pauses, p99 40 ms). A stream learns that its client left when
 * `writeResponse` cancels its body instead.
 */
export function toWebRequest(req: IncomingMessage, target: string): Request {
  const method = webMethod(req.method ?? 'GET');
  // Concatenated, not resolved: a target such as `//api` is a path here, not a host.
  let url: URL;
  try {
    url = new URL(`http://folio.local${target.startsWith('/') ? target : '/'}`);
  } catch {
    url = new URL('http://folio.local/');
  }
  const body = BODYLESS.has(method) ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  return new Request(url, { method, headers: webHeaders(req), body, ...(body ? { duplex: 'half' } : {}) } as RequestInit);
}

/** Resolves true when the socket takes more, false when the client read nothing for `stalledMs` (or left). */
function drained(res: ServerResponse, stalledMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), stalledMs);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/**
 * Writes a Web Response; a streamed body stops when the client goes away, and a client that stops
 * reading is dropped after `stalledMs` rather than holding the stream (and its work) open.
 */
export async function writeResponse(res: ServerResponse, response: Response, stalledMs = FLOW_LIMITS.stalledMs): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // An answer of ours whose bytes are at hand goes in one write, its stream unread (issue 39).
  const made = madeFrom(response);
  if (made !== undefined) {
    res.end(made);
    return;
  }
  const reader = response.body.getReader();
  const stop = () => reader.cancel().catch(() => {});
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value) && !(await drained(res, stalledMs))) {
        res.destroy();
        void stop();
        break;
      }
    }
  } catch {
    // The client left mid-stream: nothing to answer.
  } finally {
    res.off('close', stop);
    res.end();
  }
}

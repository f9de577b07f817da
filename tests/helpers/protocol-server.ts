import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a provider's server received it: what the tests assert a client sent. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ProtocolServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A JSON-over-HTTP server on 127.0.0.1 (a random port) that records every request before answering it. */
export async function startJsonServer(handle: (request: Received) => Answer | Promise<Answer>): Promise<ProtocolServer> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let body: unknown = raw;
    if (/^application\/json/i.test(req.headers['content-type'] ?? '')) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const request = { method: req.method!, path: req.url!, headers: req.headers, body };
    received.push(request);
    const answer = await Promise.resolve()
      .then(() => handle(request))
      .catch((e: Error): Answer => ({ status: 500, body: { error: e.message } }));
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    // Held requests (a hanging engine) are cut: close() would wait for them.
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/**
 * Faults a test scripts, taken in order by the requests that translate: each is used `times`
 * times (once by default) before the next; `pass` lets a request through untouched.
 */
export class FaultQueue<F extends { kind: string; times?: number }> {
  readonly queue: F[] = [];
  add(...faults: F[]): void {
    this.queue.push(...faults);
  }
  next(): F | undefined {
    const fault = this.queue[0];
    if (!fault) return undefined;
    const left = (fault.times ?? 1) - 1;
    if (left <= 0) this.queue.shift();
    else fault.times = left;
    return fault.kind === 'pass' ? undefined : fault;
  }
}

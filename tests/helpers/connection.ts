import { request, type IncomingHttpHeaders } from 'node:http';
import { createParser } from 'eventsource-parser';

/**
 * Requests on connections of their own (no keep-alive pool), so the kernel spreads them over a
 * server's workers, and a raw target is sent as written.
 */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function call(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** An event stream on a connection of its own: its events as they come, and how to close it. */
export function openStream(base: string, path: string, headers: Record<string, string> = {}) {
  const u = new URL(base);
  const events: { event?: string; data: string }[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const state = { status: 0, ended: false };
  const req = request({ host: u.hostname, port: u.port, path, agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
    state.status = res.statusCode!;
    res.setEncoding('utf8');
    res.on('data', (c: string) => parser.feed(c));
    res.on('end', () => (state.ended = true));
    res.on('close', () => (state.ended = true));
  });
  req.on('error', () => {});
  req.end();
  return {
    events,
    /** The answer's status (0 until it arrives) and whether the server has ended the stream. */
    state,
    async until(ok: () => boolean, ms = 5000) {
      const end = Date.now() + ms;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`stream ${path}: timed out with ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => req.destroy(),
  };
}

import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { retryAfterMs } from '../retry-after.ts';

/**
 * The Retry-After of DeepL's latest 429. deepl-node keeps only a response's status and body, and
 * its own retries ignore the header; Node's HTTP client reports every response it receives on the
 * `http.client.response.finish` diagnostics channel, headers included, so the wait DeepL asks for
 * is read there. A provider's requests go one at a time, so the latest 429 from DeepL's host after
 * a request began is that request's.
 */
export function deeplRetryAfter(serverUrl: string): { mark(): number; since(mark: number): number | undefined } {
  const host = new URL(serverUrl).host;
  let count = 0;
  let latest: number | undefined;
  subscribe('http.client.response.finish', (message) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    if (response.statusCode !== 429 || request.getHeader('host') !== host) return;
    count++;
    const value = response.headers['retry-after'];
    latest = value === undefined ? undefined : retryAfterMs(new Headers({ 'retry-after': value }));
  });
  return { mark: () => count, since: (mark) => (count > mark ? latest : undefined) };
}

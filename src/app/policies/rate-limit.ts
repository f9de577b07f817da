/**
 * Fixed-window rate limiting per client; the store is an interface (src/state/ has the shared one)
 * and may answer later, for stores across machines.
 */
export interface RateDecision {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
  allowed: boolean;
}

export interface RateLimiter {
  hit(key: string, cost?: number): RateDecision | Promise<RateDecision>;
}

/** The decision after `count` requests in fixed window number `window` (windows of `windowMs` from the epoch). */
export function windowDecision(count: number, window: number, limit: number, windowMs: number): RateDecision {
  return decisionAt(count, limit, (window + 1) * windowMs);
}

/** The decision after `count` requests in the window that ends at `endMs` (epoch milliseconds). */
export function decisionAt(count: number, limit: number, endMs: number): RateDecision {
  return { limit, remaining: Math.max(0, limit - count), reset: Math.ceil(endMs / 1000), allowed: count <= limit };
}

export function rateHeaders(d: RateDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(d.reset),
  };
}

/** Seconds until the window resets (at least one). */
export const retryAfter = (d: RateDecision, nowSeconds: number) => Math.max(1, d.reset - nowSeconds);

export function tooManyRequests(d: RateDecision, nowSeconds: number): Response {
  const retry = retryAfter(d, nowSeconds);
  return new Response(JSON.stringify({ error: `Rate limit of ${d.limit} requests per window exceeded. Retry after ${retry} seconds.` }), {
    status: 429,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'retry-after': String(retry) },
  });
}

/** The rate-limit headers go on JSON answers (a page or an image has no client reading them). */
export const isJson = (type: string | null) => /[/+]json\b/.test(type ?? '');

/**
 * Which proxies in front of the host are trusted to append the client to X-Forwarded-For
 * (TRUST_PROXY): a number of hops, or the proxies' own addresses. Absent: none, the address the
 * host saw is the client.
 */
export type TrustProxy = { hops: number } | { proxies: ReadonlySet<string> } | undefined;

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
export const plainAddress = (a: string) => a.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').toLowerCase();

/**
 * The client a request counts against, read from the right of the chain `X-Forwarded-For,
 * address` (each proxy appends the peer it saw, so only entries added by trusted proxies can be
 * believed; whatever the client wrote itself sits to their left): with `hops` trusted proxies,
 * the entry that many places left of the address; with a list of proxies, the rightmost entry
 * that is not one of them. Without trust, the address the host saw (the socket's,
 * CF-Connecting-IP...).
 */
export function clientKey(trust: TrustProxy, forwarded: string | string[] | null | undefined, address: string | null | undefined): string {
  const seen = address ? plainAddress(address) : 'unknown';
  if (!trust || !forwarded) return seen;
  const chain = [...(Array.isArray(forwarded) ? forwarded.join(',') : forwarded).split(',').map(plainAddress).filter(Boolean), seen];
  if ('hops' in trust) return chain[Math.max(0, chain.length - 1 - trust.hops)]!;
  for (let i = chain.length - 1; i > 0; i--) if (!trust.proxies.has(chain[i]!)) return chain[i]!;
  return chain[0]!;
}

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
  return { limit, remaining: Math.max(0, limit - count), reset: Math.ceil(((window + 1) * windowMs) / 1000), allowed: count <= limit };
}

export function rateHeaders(d: RateDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(d.reset),
  };
}

export function tooManyRequests(d: RateDecision, nowSeconds: number): Response {
  const retry = Math.max(1, d.reset - nowSeconds);
  return new Response(JSON.stringify({ error: `Rate limit of ${d.limit} requests per window exceeded. Retry after ${retry} seconds.` }), {
    status: 429,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'retry-after': String(retry) },
  });
}

/** The rate-limit headers go on JSON answers (a page or an image has no client reading them). */
export const isJson = (type: string | null) => /[/+]json\b/.test(type ?? '');

/**
 * The client a request counts against: the first X-Forwarded-For entry when a trusted proxy sets it
 * (TRUST_PROXY), else the address the host saw (the socket's, CF-Connecting-IP...).
 */
export function clientKey(trustProxy: boolean, forwarded: string | string[] | null | undefined, address: string | null | undefined): string {
  const first = trustProxy ? (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() : undefined;
  return first || address || 'unknown';
}

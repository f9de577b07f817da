/** Fixed-window rate limiting per client; the store is an interface so a shared one can replace it. */
export interface RateDecision {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
  allowed: boolean;
}

export interface RateLimiter {
  hit(key: string, cost?: number): RateDecision;
}

export function memoryRateLimiter(limit: number, windowSeconds: number, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const windowMs = windowSeconds * 1000;
  return {
    hit(key, cost = 1) {
      const t = now();
      const start = Math.floor(t / windowMs) * windowMs;
      let w = windows.get(key);
      if (!w || w.start !== start) {
        if (windows.size > 100_000) windows.clear();
        w = { start, count: 0 };
        windows.set(key, w);
      }
      w.count += cost;
      return {
        limit,
        remaining: Math.max(0, limit - w.count),
        reset: Math.ceil((start + windowMs) / 1000),
        allowed: w.count <= limit,
      };
    },
  };
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

// Netlify Edge Function on the API's paths, emitted only when the build has an Upstash Redis
// (UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, the names Upstash's SDK reads): Netlify
// Blobs has no atomic increment, so an exact count across every edge location needs a store that
// has one. The window and the limit are the build's (RATE_LIMIT, RATE_LIMIT_WINDOW, as the
// discovery documents state them); the headers and the 429 are the app's, so a client sees on
// Netlify what it sees on Node. It runs before Netlify's rewrites, so a computed answer is counted
// here once too, and the function counts nothing (it has no REDIS_URL beside this store).
import { Redis } from '@upstash/redis';
import { isJson, rateHeaders, tooManyRequests, windowDecision, type RateDecision } from '../../../app/policies/rate-limit.ts';
import { withPolicies } from './policies.ts';

/** The part of Netlify's edge `context` this function reads. */
export interface EdgeContext {
  ip: string;
  next(): Promise<Response>;
}

type Lookup = (name: string) => string | undefined;

/** Counts a client's request in its fixed window: one round trip (INCR, and the key's end on the first). */
async function hit(redis: Redis, client: string, limit: number, windowMs: number): Promise<RateDecision> {
  const window = Math.floor(Date.now() / windowMs);
  const key = `folio:rate:${window}:${client}`;
  const [count] = await redis.pipeline().incr(key).pexpireat(key, (window + 1) * windowMs).exec<[number, number]>();
  return windowDecision(count, window, limit, windowMs);
}

export interface Limits {
  rateLimit: number;
  rateWindowSeconds: number;
}

/** The handler for these limits and the store's settings; a store that fails lets the request through uncounted, as the app does. */
export function rateLimitEdge({ rateLimit: limit, rateWindowSeconds }: Limits, setting: Lookup, log: (m: string) => void = console.error) {
  const url = setting('UPSTASH_REDIS_REST_URL');
  const token = setting('UPSTASH_REDIS_REST_TOKEN');
  const windowMs = rateWindowSeconds * 1000;
  const redis = url && token && limit > 0 ? new Redis({ url, token, retry: false, enableTelemetry: false }) : undefined;
  return async (request: Request, context: EdgeContext): Promise<Response> => {
    if (!redis || request.method === 'OPTIONS') return context.next();
    const decision = await hit(redis, context.ip, limit, windowMs).catch((e: Error) => {
      log(`rate limit store unreachable, the request is not counted: ${e.message}`);
      return undefined;
    });
    if (decision && !decision.allowed) return withPolicies(tooManyRequests(decision, Math.floor(Date.now() / 1000)));
    const response = await context.next();
    if (!decision || !isJson(response.headers.get('content-type'))) return response;
    const counted = new Response(response.body, response);
    for (const [k, v] of Object.entries(rateHeaders(decision))) counted.headers.set(k, v);
    return counted;
  };
}

declare const Netlify: { env: { get(name: string): string | undefined } };
/** The build's limits, written in by the build. */
declare const FOLIO_LIMITS: Limits;

let handler: ReturnType<typeof rateLimitEdge> | undefined;
export default (request: Request, context: EdgeContext): Promise<Response> => (handler ??= rateLimitEdge(FOLIO_LIMITS, (name) => Netlify.env.get(name)))(request, context);

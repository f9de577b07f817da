import { Redis } from 'ioredis';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StreamCounter } from '../../functions/sse.ts';
import { decisionAt, type RateDecision, type RateLimiter } from '../app/policies/rate-limit.ts';
import type { LegacySession, SessionBus } from './session-bus.ts';
import type { KeyedQueue } from '../contact/keyed-queue.ts';
import { leasedLock } from './leased-lock.ts';
import { leaseBook } from './rate-lease.ts';
import { redisStreamCounter } from './redis-streams.ts';

/**
 * State on Redis or Valkey (REDIS_URL), so separate processes and machines behave as one: rate
 * windows, the open-stream count and legacy MCP sessions. Keys are prefixed `folio:`.
 */
export interface RedisState {
  limiter(limit: number, windowSeconds: number): RateLimiter;
  /** Work that must not interleave across processes (a payer's payments, a relayer's nonces). */
  lock: KeyedQueue;
  streams: StreamCounter;
  sessions: SessionBus;
  /**
   * Resolves true once both connections are up, false after `ms`: a server waits for it before it
   * listens, so its first requests are counted (commands sent before the connection fail at once,
   * and a failed count lets the request through).
   */
  ready(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

// One window's count: created with its expiry, so a window never outlives itself.
const HIT = `local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if n == tonumber(ARGV[1]) then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
return n`;

const SESSION_TTL_SECONDS = 60;

/** How long a starting server waits for the store before it listens anyway. */
export const REDIS_WAIT_MS = 5_000;

const windowEnd = (windowMs: number) => (Math.floor(Date.now() / windowMs) + 1) * windowMs;

// Released and extended only by its holder; a holder that dies lets it go when it expires.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

export function redisState(url: string, log: (m: string) => void, node = crypto.randomUUID()): RedisState {
  // Commands fail at once while the store is away (no queue that grows, no request that hangs).
  const options = { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false };
  // Commands of one tick go out in one write (the rate limit is one per request).
  const redis = new Redis(url, { ...options, enableAutoPipelining: true });
  // Sent by its SHA after the first time.
  redis.defineCommand('folioHit', { numberOfKeys: 1, lua: HIT });
  const hit = (key: string, cost: number, end: number) => (redis as unknown as { folioHit(k: string, c: number, e: number): Promise<number> }).folioHit(key, cost, end);
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
  let warned = false;
  for (const client of [redis, subscriber]) {
    client.on('error', (e: Error) => {
      if (!warned) log(`redis: ${e.message} (retrying)`);
      warned = true;
    });
    client.on('ready', () => (warned = false));
  }
  const sessions = new Map<string, LegacySession>();
  const inbox = `folio:mcp:node:${node}`;
  void subscriber.subscribe(inbox).catch(() => undefined);
  subscriber.on('message', (_channel: string, raw: string) => {
    const { id, message } = JSON.parse(raw) as { id: string; message: JSONRPCMessage };
    sessions.get(id)?.deliver(message);
  });
  // Sessions this node holds are re-announced while open, so a crashed node's expire.
  const refresh = setInterval(() => {
    for (const id of sessions.keys()) void redis.set(`folio:mcp:session:${id}`, node, 'EX', SESSION_TTL_SECONDS).catch(() => undefined);
  }, (SESSION_TTL_SECONDS / 3) * 1000);
  refresh.unref();

  const streams = redisStreamCounter(redis, node);
  const lock = leasedLock(
    {
      take: async (key, token, ttl) => (await redis.set(`folio:lock:${key}`, token, 'PX', ttl, 'NX')) !== null,
      extend: (key, token, ttl) => redis.eval(EXTEND, 1, `folio:lock:${key}`, token, ttl),
      release: (key, token) => redis.eval(RELEASE, 1, `folio:lock:${key}`, token),
    },
    'the shared lock store',
  );
  const up = (client: Redis) => (client.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => client.once('ready', () => resolve())));
  return {
    lock,
    ready: (ms) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
      return Promise.race([Promise.all([up(redis), up(subscriber)]).then(() => true), late]).finally(() => clearTimeout(timer));
    },
    limiter(limit, windowSeconds) {
      const windowMs = windowSeconds * 1000;
      const book = leaseBook(limit);
      // The hits of one turn of the event loop that the lease book cannot answer are sent as one
      // increment per client: the store's total after it orders them, so each still gets its
      // exact count (a load from one address costs one command per turn, not one per request).
      type Waiter = { cost: number; resolve: (d: RateDecision) => void; reject: (e: unknown) => void };
      let batch = new Map<string, Waiter[]>();
      const flush = () => {
        const now = batch;
        batch = new Map();
        const end = windowEnd(windowMs);
        for (const [key, waiters] of now) {
          const total = waiters.reduce((sum, w) => sum + w.cost, 0);
          const extra = book.extra(key, end);
          hit(`folio:rate:${end}:${key}`, total + extra, end).then(
            (reply) => {
              const after = Number(reply);
              book.record(key, end, after, extra);
              let count = after - extra - total;
              for (const w of waiters) {
                count += w.cost;
                w.resolve(decisionAt(count, limit, end));
              }
            },
            (e: unknown) => waiters.forEach((w) => w.reject(e)),
          );
        }
      };
      return {
        hit(key, cost = 1): RateDecision | Promise<RateDecision> {
          const known = book.local(key, cost, windowEnd(windowMs));
          if (known) return known;
          return new Promise((resolve, reject) => {
            if (batch.size === 0) setImmediate(flush);
            const waiters = batch.get(key);
            if (waiters) waiters.push({ cost, resolve, reject });
            else batch.set(key, [{ cost, resolve, reject }]);
          });
        },
      };
    },
    streams,
    sessions: {
      held: () => sessions.size,
      open(id, session) {
        sessions.set(id, session);
        void redis.set(`folio:mcp:session:${id}`, node, 'EX', SESSION_TTL_SECONDS).catch(() => undefined);
      },
      close(id) {
        sessions.delete(id);
        void redis.del(`folio:mcp:session:${id}`).catch(() => undefined);
      },
      async deliver(id, message) {
        const local = sessions.get(id);
        if (local) {
          if (message) local.deliver(message);
          return true;
        }
        const holder = await redis.get(`folio:mcp:session:${id}`);
        if (!holder) return false;
        if (message) await redis.publish(`folio:mcp:node:${holder}`, JSON.stringify({ id, message }));
        return true;
      },
    },
    async close() {
      clearInterval(refresh);
      await streams.close();
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}

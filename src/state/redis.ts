import { Redis } from 'ioredis';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StreamCounter } from '../../functions/sse.ts';
import { decisionAt, type RateDecision, type RateLimiter } from '../app/policies/rate-limit.ts';
import type { LegacySession, SessionBus } from './session-bus.ts';
import type { KeyedQueue } from '../contact/keyed-queue.ts';
import { leasedLock } from './leased-lock.ts';
import { IDLE_MS, LEASE_SHARE, leaseBook, takeCounts, type LeaseBook, type Run } from './rate-lease.ts';
import { redisStreamCounter } from './redis-streams.ts';
import { STORE_BOUNDS, storeCircuit, type StoreHealth } from './store-circuit.ts';

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
  /** The circuit's state and counts, for `/status`. */
  health(): StoreHealth;
  close(): Promise<void>;
}

// Counts of one window, as runs (first, last, first, last, ...): first those given back by a
// process (KEYS[2], a list of 'first:last'), then new ones from the window's count, created with
// its expiry so a window never outlives itself.
const HIT = `local want = tonumber(ARGV[1])
local runs = {}
while want > 0 do
  local run = redis.call('LPOP', KEYS[2])
  if not run then break end
  local first, last = string.match(run, '(%d+):(%d+)')
  first, last = tonumber(first), tonumber(last)
  local take = math.min(want, last - first + 1)
  runs[#runs + 1] = first
  runs[#runs + 1] = first + take - 1
  if first + take <= last then redis.call('LPUSH', KEYS[2], (first + take) .. ':' .. last) end
  want = want - take
end
if want > 0 then
  local n = redis.call('INCRBY', KEYS[1], want)
  if n == want then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
  runs[#runs + 1] = n - want + 1
  runs[#runs + 1] = n
end
return runs`;

// Leased counts a process gives back: taken off the window's count when they are its last ones,
// else listed for the next hits (counts stay unique either way).
const GIVE_BACK = `if tonumber(redis.call('GET', KEYS[1]) or '-1') == tonumber(ARGV[2]) then
  redis.call('DECRBY', KEYS[1], ARGV[2] - ARGV[1] + 1)
else
  redis.call('RPUSH', KEYS[2], ARGV[1] .. ':' .. ARGV[2])
  redis.call('PEXPIREAT', KEYS[2], ARGV[3])
end
return 0`;

const SESSION_TTL_SECONDS = 60;

/** How long a starting server waits for the store before it listens anyway. */
export const REDIS_WAIT_MS = 5_000;

const windowEnd = (windowMs: number) => (Math.floor(Date.now() / windowMs) + 1) * windowMs;

// Released and extended only by its holder; a holder that dies lets it go when it expires.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

export interface RedisOptions {
  /** This process's name in the store (its session inbox, its stream share). */
  node?: string;
  /** Each store call's bound in ms (tests may be more patient). */
  bounds?: Record<keyof typeof STORE_BOUNDS, number>;
  /**
   * Worker threads of this process, each with its own lease book: they share the 1/LEASE_SHARE a
   * process may hold, so a process killed loses at most that, however many threads it has.
   */
  workers?: number;
}

export function redisState(url: string, log: (m: string) => void, { node = crypto.randomUUID(), bounds = STORE_BOUNDS, workers = 1 }: RedisOptions = {}): RedisState {
  // Commands fail at once while the store is away (no queue that grows, no request that hangs).
  const options = { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false };
  // Commands of one tick go out in one write (the rate limit is one per request).
  const redis = new Redis(url, { ...options, enableAutoPipelining: true });
  // Sent by its SHA after the first time.
  redis.defineCommand('folioHit', { numberOfKeys: 2, lua: HIT });
  redis.defineCommand('folioGiveBack', { numberOfKeys: 2, lua: GIVE_BACK });
  // Every call is bounded and skipped while the store is away (store-circuit.ts).
  const circuit = storeCircuit(() => redis.ping(), log);
  const call = circuit.call;
  const scripts = redis as unknown as {
    folioHit(count: string, back: string, n: number, end: number): Promise<number[]>;
    folioGiveBack(count: string, back: string, first: number, last: number, end: number): Promise<number>;
  };
  const windowKeys = (key: string, end: number) => [`folio:rate:${end}:${key}`, `folio:rate:${end}:${key}:back`] as const;
  const runsOf = (flat: number[]): Run[] => Array.from({ length: flat.length / 2 }, (_, i) => ({ first: Number(flat[2 * i]), last: Number(flat[2 * i + 1]) }));
  const giveBack = (key: string, end: number, run: Run) => call(() => scripts.folioGiveBack(...windowKeys(key, end), run.first, run.last, end), bounds.background).catch(() => undefined);
  // Counts that arrive after the bound go back: their hits went through uncounted, and a lease
  // among them would otherwise be lost to every process.
  const hit = (key: string, n: number, end: number): Promise<Run[]> =>
    call(() => scripts.folioHit(...windowKeys(key, end), n, end), bounds.rate, (flat) => runsOf(flat).forEach((run) => void giveBack(key, end, run))).then(runsOf);
  const limiters: LeaseBook[] = [];
  // Leased counts a process stopped using go back to the store, for the other processes.
  const sweep = setInterval(() => {
    for (const book of limiters) for (const { key, end, runs } of book.idle(Date.now())) for (const run of runs) void giveBack(key, end, run);
  }, IDLE_MS / 2);
  sweep.unref();
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
  const announce = (id: string) => call(() => redis.set(`folio:mcp:session:${id}`, node, 'EX', SESSION_TTL_SECONDS), bounds.background).catch(() => undefined);
  const refresh = setInterval(() => {
    for (const id of sessions.keys()) void announce(id);
  }, (SESSION_TTL_SECONDS / 3) * 1000);
  refresh.unref();

  const streams = redisStreamCounter(redis, node, call);
  const lock = leasedLock(
    {
      take: async (key, token, ttl) => (await call(() => redis.set(`folio:lock:${key}`, token, 'PX', ttl, 'NX'), bounds.lock)) !== null,
      extend: (key, token, ttl) => call(() => redis.eval(EXTEND, 1, `folio:lock:${key}`, token, ttl), bounds.lock),
      release: (key, token) => call(() => redis.eval(RELEASE, 1, `folio:lock:${key}`, token), bounds.lock),
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
      const book = leaseBook(limit, LEASE_SHARE * workers);
      limiters.push(book);
      // The hits of one turn of the event loop that the lease book cannot answer are sent as one
      // request per client: the store hands out that many counts at once, so each still gets its
      // own (a load from one address costs one command per turn, not one per request).
      type Waiter = { cost: number; resolve: (d: RateDecision) => void; reject: (e: unknown) => void };
      let batch = new Map<string, Waiter[]>();
      const flush = () => {
        const now = batch;
        batch = new Map();
        const end = windowEnd(windowMs);
        for (const [key, waiters] of now) {
          const total = waiters.reduce((sum, w) => sum + w.cost, 0);
          const extra = book.extra(key, end);
          hit(key, total + extra, end).then(
            (runs) => {
              const top = Math.max(0, ...runs.map((r) => r.last));
              let refused = false;
              for (const w of waiters) {
                const d = decisionAt(takeCounts(runs, w.cost)!, limit, end);
                refused ||= !d.allowed;
                w.resolve(d);
              }
              book.record(key, end, { left: runs, top, refused }, extra);
            },
            (e: unknown) => {
              book.failed(key, extra);
              waiters.forEach((w) => w.reject(e));
            },
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
    health: circuit.health,
    sessions: {
      held: () => sessions.size,
      open(id, session) {
        sessions.set(id, session);
        void announce(id);
      },
      close(id) {
        sessions.delete(id);
        void call(() => redis.del(`folio:mcp:session:${id}`), bounds.background).catch(() => undefined);
      },
      async deliver(id, message) {
        const local = sessions.get(id);
        if (local) {
          if (message) local.deliver(message);
          return true;
        }
        const key = `folio:mcp:session:${id}`;
        const holder = await call(() => redis.get(key), bounds.sessions);
        if (!holder) return false;
        // The holder's subscription is its liveness: a process that died (kill -9 closes its
        // socket) has none, so its sessions are gone at once, not when their key expires.
        const inbox = `folio:mcp:node:${holder}`;
        const listening = message
          ? await call(() => redis.publish(inbox, JSON.stringify({ id, message })), bounds.sessions)
          : Number(((await call(() => redis.pubsub('NUMSUB', inbox), bounds.sessions)) as [string, number])[1]);
        if (listening > 0) return true;
        void call(() => redis.del(key), bounds.sessions).catch(() => undefined);
        return false;
      },
    },
    async close() {
      clearInterval(refresh);
      clearInterval(sweep);
      circuit.stop();
      // What this process leased and did not use is the others' (the window may go on).
      await Promise.all(limiters.flatMap((book) => book.idle(Date.now(), 0).flatMap(({ key, end, runs }) => runs.map((run) => giveBack(key, end, run)))));
      await streams.close();
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}

import type { Redis } from 'ioredis';
import type { StreamCounter } from '../../functions/sse.ts';
import { STORE_BOUNDS, type StoreCircuit } from './store-circuit.ts';

/**
 * How long a process's share of the open-stream count outlives its last refresh: the streams of a
 * process that dies without closing them (kill -9, a crash, a lost machine) stop being counted
 * within this. Each live process refreshes its share three times as often.
 */
export const STREAM_SHARE_TTL_MS = 6_000;

const NODES = 'folio:streams:nodes';
const SHARE = 'folio:streams:node:';

// The total of the shares still there; a process whose share expired is forgotten with it.
const SUM = `local total = 0
for _, node in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local n = redis.call('GET', ARGV[1] .. node)
  if n then total = total + tonumber(n) else redis.call('SREM', KEYS[1], node) end
end
return total`;

/**
 * The open-stream count across processes: each process writes its own count (not an increment of a
 * shared one) under a key that expires unless refreshed, so a dead process's streams vanish with it
 * and a write lost while the store was away is made good by the next.
 */
export function redisStreamCounter(redis: Redis, node: string, call: StoreCircuit['call']): StreamCounter & { close(): Promise<void> } {
  let active = 0;
  const publish = () => {
    const n = active;
    const write = () => (n > 0 ? redis.multi().set(SHARE + node, n, 'PX', STREAM_SHARE_TTL_MS).sadd(NODES, node) : redis.multi().del(SHARE + node).srem(NODES, node)).exec();
    return call(write, STORE_BOUNDS.background).catch(() => undefined);
  };
  const refresh = setInterval(() => void (active > 0 && publish()), STREAM_SHARE_TTL_MS / 3);
  refresh.unref();
  return {
    opened: () => void (active++, publish()),
    closed: () => void (active--, publish()),
    // This process's own count when the store is away.
    count: () => call(() => redis.eval(SUM, 1, NODES, SHARE) as Promise<number>, STORE_BOUNDS.streams).then((n) => Math.max(0, Number(n)), () => active),
    async close() {
      clearInterval(refresh);
      active = 0;
      await publish();
    },
  };
}

import { keyedQueue, type KeyedQueue } from '../contact/keyed-queue.ts';
import { StoreUnavailable } from '../contact/store-unavailable.ts';

/** A store of leases: held by a token until released or expired (Redis, a Durable Object...). */
export interface LeaseStore {
  /** True when the lease was free (or expired) and is now this token's for `ttlMs`. */
  take(name: string, token: string, ttlMs: number): Promise<boolean>;
  extend(name: string, token: string, ttlMs: number): Promise<unknown>;
  release(name: string, token: string): Promise<unknown>;
}

/** A held lock is extended every third of this; a crashed holder's is free again within it. */
export const LOCK_TTL_MS = 10_000;
/** Longer than a settlement takes (two transactions and their receipts). */
export const LOCK_WAIT_MS = 150_000;

/**
 * A keyed queue across processes: in arrival order within this one first, then one holder at a
 * time through the store's lease, extended while the task runs. A store that cannot be reached is
 * StoreUnavailable (the caller's 503), never a wait without end.
 */
export function leasedLock(store: LeaseStore, what: string): KeyedQueue {
  const local = keyedQueue();
  return (key, task) =>
    local(key, async () => {
      const token = crypto.randomUUID();
      const until = Date.now() + LOCK_WAIT_MS;
      for (;;) {
        let taken: boolean;
        try {
          taken = await store.take(key, token, LOCK_TTL_MS);
        } catch (e) {
          throw new StoreUnavailable(`${what} is unreachable: ${(e as Error).message}`);
        }
        if (taken) break;
        if (Date.now() > until) throw new StoreUnavailable(`waited ${LOCK_WAIT_MS} ms for ${key}`);
        await new Promise((r) => setTimeout(r, 15));
      }
      const extend = setInterval(() => void store.extend(key, token, LOCK_TTL_MS).catch(() => undefined), LOCK_TTL_MS / 3);
      try {
        return await task();
      } finally {
        clearInterval(extend);
        await store.release(key, token).catch(() => undefined);
      }
    });
}

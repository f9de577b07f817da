import { windowDecision, type RateDecision, type RateLimiter } from '../app/policies/rate-limit.ts';
import { hashKey, RATE_SLOTS, SLOT_INTS } from './shared-memory.ts';

// Slot layout: lock, key hash (two ints), window number, count.
const LOCK = 0;
const HI = 1;
const LO = 2;
const WINDOW = 3;
const COUNT = 4;
const PROBES = 32;

/** Shared memory answers at once. */
export interface SharedRateLimiter extends RateLimiter {
  hit(key: string, cost?: number): RateDecision;
}

/**
 * Fixed windows per client in shared memory: exact across the worker threads of one server, with
 * no I/O, in fixed memory. Each slot has its own spin lock, held for a few instructions. A key's
 * slot is found by linear probing from its hash; a slot whose window has passed is reused (eviction
 * by expiry). When every probed slot is live, the key shares the last one: it can only be limited
 * sooner, and no other client's window is ever reset.
 */
export function sharedRateLimiter(table: SharedArrayBuffer, limit: number, windowSeconds: number, now: () => number = Date.now): SharedRateLimiter {
  const ints = new Int32Array(table);
  const windowMs = windowSeconds * 1000;
  const lock = (slot: number) => {
    while (Atomics.compareExchange(ints, slot + LOCK, 0, 1) !== 0);
  };
  const unlock = (slot: number) => Atomics.store(ints, slot + LOCK, 0);
  return {
    hit(key, cost = 1): RateDecision {
      const window = Math.floor(now() / windowMs);
      const [hi, lo] = hashKey(key);
      const start = lo & (RATE_SLOTS - 1);
      const slotAt = (probe: number) => ((start + probe) & (RATE_SLOTS - 1)) * SLOT_INTS;
      // The key's own slot wherever it is among the probes, else the first free one (empty or
      // expired), else the last probed (shared with its holder, whose window is kept).
      let chosen = slotAt(PROBES - 1);
      let free: number | undefined;
      for (let probe = 0; probe < PROBES; probe++) {
        const slot = slotAt(probe);
        lock(slot);
        const mine = ints[slot + HI] === hi && ints[slot + LO] === lo;
        const expired = (ints[slot + HI] === 0 && ints[slot + LO] === 0) || ints[slot + WINDOW]! < window;
        unlock(slot);
        if (mine) {
          chosen = slot;
          free = undefined;
          break;
        }
        if (expired && free === undefined) free = slot;
      }
      if (free !== undefined) chosen = free;
      lock(chosen);
      const expired = (ints[chosen + HI] === 0 && ints[chosen + LO] === 0) || ints[chosen + WINDOW]! < window;
      // Taken over when free (another thread may have claimed it meanwhile: then it is shared).
      if (expired) {
        ints[chosen + HI] = hi;
        ints[chosen + LO] = lo;
        ints[chosen + WINDOW] = window;
        ints[chosen + COUNT] = 0;
      }
      const count = ints[chosen + COUNT]! + cost;
      ints[chosen + COUNT] = count;
      unlock(chosen);
      return windowDecision(count, window, limit, windowMs);
    },
  };
}

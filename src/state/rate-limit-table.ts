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
 * no I/O. Each slot has its own spin lock, held for a few instructions. A key's slot is found by
 * linear probing from its hash; a slot whose window has passed is reused.
 */
export function sharedRateLimiter(table: SharedArrayBuffer, limit: number, windowSeconds: number, now: () => number = Date.now): SharedRateLimiter {
  const ints = new Int32Array(table);
  const windowMs = windowSeconds * 1000;
  return {
    hit(key, cost = 1): RateDecision {
      const t = now();
      const window = Math.floor(t / windowMs);
      const [hi, lo] = hashKey(key);
      let count = 0;
      const start = lo & (RATE_SLOTS - 1);
      for (let probe = 0; probe <= PROBES; probe++) {
        // Past the probes every slot is live: the last one is shared (it can only limit sooner).
        const slot = ((start + Math.min(probe, PROBES - 1)) & (RATE_SLOTS - 1)) * SLOT_INTS;
        while (Atomics.compareExchange(ints, slot + LOCK, 0, 1) !== 0);
        const mine = ints[slot + HI] === hi && ints[slot + LO] === lo;
        const free = (ints[slot + HI] === 0 && ints[slot + LO] === 0) || ints[slot + WINDOW]! < window;
        if (mine || free || probe === PROBES) {
          if (!mine || ints[slot + WINDOW] !== window) {
            ints[slot + HI] = hi;
            ints[slot + LO] = lo;
            ints[slot + WINDOW] = window;
            ints[slot + COUNT] = 0;
          }
          count = ints[slot + COUNT]! + cost;
          ints[slot + COUNT] = count;
          Atomics.store(ints, slot + LOCK, 0);
          break;
        }
        Atomics.store(ints, slot + LOCK, 0);
      }
      return windowDecision(count, window, limit, windowMs);
    },
  };
}

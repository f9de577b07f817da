import { decisionAt, type RateDecision } from '../app/policies/rate-limit.ts';

/**
 * What one process knows of a client's window on a shared store, so most hits need no round trip
 * and exactly the limit is allowed across processes:
 * - far below the limit, the process takes a run of counts at once (a lease) and hands them out
 *   one by one. Every hit still gets its own count of the window, so X-RateLimit-Remaining stays
 *   unique across processes. A lease is at most 1/share of what remains (LEASE_SHARE times the
 *   process's worker threads, so a whole process holds at most 1/LEASE_SHARE) and at most
 *   MAX_LEASE, so with the default limit (1000) there is no lease at all and every hit is counted
 *   by the store;
 * - one lease request at a time per client, and a lease that arrives while counts of the last are
 *   unused is added to them (not put in their place), so no leased count is dropped;
 * - counts unused for IDLE_MS are given back to the store (`idle`), where the next hits take them
 *   first: a process whose traffic stops does not keep part of the limit from the others;
 * - a window the store said is over the limit is refused here for RECHECK_MS, then asked again
 *   (given-back counts may have made room).
 */
export const MAX_LEASE = 256;
export const LEASE_SHARE = 1024;
export const IDLE_MS = 500;
export const RECHECK_MS = 1_000;
/** Clients remembered per process; past this, hits are counted by the store one by one. */
const MAX_LEASES = 10_000;

/** Counts `first`..`last` of a window. */
export interface Run {
  first: number;
  last: number;
}

interface Lease {
  end: number;
  /** Leased counts not handed out yet, oldest first. */
  runs: Run[];
  asking: boolean;
  /** The highest count of the window the store has answered this process. */
  known: number;
  /** When a count was last handed out or leased. */
  used: number;
  /** When the store last answered a count over the limit. */
  over?: number;
}

export function leaseSize(limit: number, known: number, share = LEASE_SHARE): number {
  return Math.max(0, Math.min(MAX_LEASE, Math.floor((limit - known) / share)));
}

/** Takes `n` counts off the front of `runs`: the last one taken (undefined if they ran out first). */
export function takeCounts(runs: Run[], n: number): number | undefined {
  let last: number | undefined;
  while (n > 0 && runs.length > 0) {
    const run = runs[0]!;
    const k = Math.min(n, run.last - run.first + 1);
    last = run.first + k - 1;
    run.first += k;
    n -= k;
    if (run.first > run.last) runs.shift();
  }
  return n === 0 ? last : undefined;
}

const size = (runs: Run[]) => runs.reduce((n, r) => n + r.last - r.first + 1, 0);

export interface LeaseBook {
  /** The decision without the store, or undefined when the store must count. */
  local(key: string, cost: number, end: number): RateDecision | undefined;
  /** How many counts beyond the hits themselves to ask the store for (a lease request, if any, is then on its way). */
  extra(key: string, end: number): number;
  /**
   * The store's answer to a request with `extra` counts: the counts left after the hits took theirs
   * (the lease), the highest count it gave, and whether a hit was refused.
   */
  record(key: string, end: number, answer: { left: Run[]; top: number; refused: boolean }, extra: number): void;
  /** The store did not answer a request for `extra` counts. */
  failed(key: string, extra: number): void;
  /** Takes out the leased counts unused for `idleMs` in windows not yet over, to give back to the store. */
  idle(now: number, idleMs?: number): { key: string; end: number; runs: Run[] }[];
}

export function leaseBook(limit: number, share = LEASE_SHARE, now = Date.now): LeaseBook {
  const leases = new Map<string, Lease>();
  const current = (key: string, end: number) => {
    const lease = leases.get(key);
    return lease?.end === end ? lease : undefined;
  };
  return {
    local(key, cost, end) {
      const lease = current(key, end);
      if (!lease) return undefined;
      if (size(lease.runs) >= cost) {
        lease.used = now();
        return decisionAt(takeCounts(lease.runs, cost)!, limit, end);
      }
      if (lease.over !== undefined && now() - lease.over < RECHECK_MS) return decisionAt(limit + 1, limit, end);
      return undefined;
    },
    extra(key, end) {
      const lease = current(key, end);
      if (lease?.asking || (!lease && leases.size >= MAX_LEASES)) return 0;
      const n = leaseSize(limit, lease?.known ?? 0, share);
      if (n > 0) leases.set(key, { ...(lease ?? { end, runs: [], known: 0, used: now() }), asking: true });
      return n;
    },
    record(key, end, { left, top, refused }, extra) {
      let lease = current(key, end);
      if (!lease) {
        if (leases.size >= MAX_LEASES) for (const [k, l] of leases) if (l.end < end) leases.delete(k);
        // Nothing leased is lost here: extra() asks for none once the book is full.
        if (leases.size >= MAX_LEASES) return;
        lease = { end, runs: [], asking: false, known: 0, used: now() };
        leases.set(key, lease);
      }
      if (extra > 0) lease.asking = false;
      // Counts over the limit are refusals, not a lease.
      const kept = left.filter((r) => r.first <= limit).map((r) => ({ first: r.first, last: Math.min(r.last, limit) }));
      if (refused || size(kept) < size(left)) lease.over = now();
      lease.runs.push(...kept);
      lease.known = Math.max(lease.known, top);
      lease.used = now();
    },
    failed(key, extra) {
      const lease = leases.get(key);
      if (lease && extra > 0) lease.asking = false;
    },
    idle(at, idleMs = IDLE_MS) {
      const out: { key: string; end: number; runs: Run[] }[] = [];
      for (const [key, lease] of leases) {
        if (lease.end <= at) leases.delete(key);
        else if (lease.runs.length > 0 && at - lease.used >= idleMs) out.push({ key, end: lease.end, runs: lease.runs.splice(0) });
      }
      return out;
    },
  };
}

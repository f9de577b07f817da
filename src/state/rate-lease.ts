import { decisionAt, type RateDecision } from '../app/policies/rate-limit.ts';

/**
 * What one process knows of a client's window on a shared store, so most hits need no round trip
 * and the limit stays exact where it matters:
 * - a window already over the limit stays over (counts only grow within a window): later hits are
 *   refused here;
 * - far below the limit, the process takes a run of counts at once (a lease) and hands them out
 *   one by one. Every hit still gets its own count of the window, so X-RateLimit-Remaining stays
 *   unique and consistent across processes. A lease is at most 1/LEASE_SHARE of what remains and
 *   at most MAX_LEASE, so with the default limit (1000) there is no lease at all and every hit is
 *   counted by the store; the counts a process leaves unused when its traffic stops are at most
 *   one lease per window, which can only make the limit trip sooner.
 */
export const MAX_LEASE = 256;
export const LEASE_SHARE = 1024;
/** Clients remembered per process; past this, hits are counted by the store one by one. */
const MAX_LEASES = 10_000;

interface Lease {
  end: number;
  /** The next count to hand out, and the last one leased. */
  next: number;
  last: number;
}

export function leaseSize(limit: number, known: number): number {
  return Math.max(0, Math.min(MAX_LEASE, Math.floor((limit - known) / LEASE_SHARE)));
}

export interface LeaseBook {
  /** The decision without the store, or undefined when the store must count. */
  local(key: string, cost: number, end: number): RateDecision | undefined;
  /** How many counts beyond the hits themselves to ask the store for. */
  extra(key: string, end: number): number;
  /** The store's total after a request of `hits` + `extra` counts: keeps the leased run. */
  record(key: string, end: number, after: number, extra: number): void;
}

export function leaseBook(limit: number): LeaseBook {
  const leases = new Map<string, Lease>();
  return {
    local(key, cost, end) {
      const lease = leases.get(key);
      if (!lease || lease.end !== end) return undefined;
      if (lease.next > limit) return decisionAt(lease.next, limit, end);
      if (lease.next + cost - 1 > lease.last) return undefined;
      lease.next += cost;
      return decisionAt(lease.next - 1, limit, end);
    },
    extra(key, end) {
      const lease = leases.get(key);
      return leaseSize(limit, lease?.end === end ? lease.last : 0);
    },
    record(key, end, after, extra) {
      if (!leases.has(key) && leases.size >= MAX_LEASES) {
        for (const [k, l] of leases) if (l.end < end) leases.delete(k);
        if (leases.size >= MAX_LEASES) return;
      }
      // Over the limit, the next hit is refused whatever is leased.
      leases.set(key, after > limit ? { end, next: after + 1, last: after } : { end, next: after - extra + 1, last: after });
    },
  };
}

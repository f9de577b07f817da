/**
 * Every call to the shared store (Redis) goes through one circuit, so a store that stops answering
 * (frozen: SIGSTOP, a partition with the socket still open) costs a request at most one bound, and
 * then nothing: the store is not asked again until a probe finds it back.
 *
 * - each call has a bound (STORE_BOUNDS); a call past it, or one that fails, rejects with
 *   StoreAway and the caller answers without the store (fails open);
 * - such a failure when the store has answered nothing for QUIET_MS opens the circuit (a store that
 *   is slow under load but answering is not taken for gone): calls then reject at once, unsent;
 * - while open, a PING (bounded by PROBE_BOUND_MS) is sent every PROBE_MS; the first one answered
 *   closes the circuit.
 * Opening and closing are one log line each; the counts are in `/status` (`store`).
 */
export const STORE_BOUNDS = {
  /** A rate-limit count: past it the request goes through uncounted. */
  rate: 50,
  /** The open-stream count in `/status`: past it, this process's own count. */
  streams: 50,
  /** Finding and reaching a legacy MCP session's holder: past it, 503. */
  sessions: 250,
  /** Paid-contact locks: past it, 503 (nothing charged). */
  lock: 1_000,
  /** Writes no request waits for (stream shares, session announcements, given-back counts). */
  background: 2_000,
} as const;
export const QUIET_MS = 500;
export const PROBE_MS = 1_000;
export const PROBE_BOUND_MS = 500;

export class StoreAway extends Error {}

/** What `/status` says of the store. */
export interface StoreHealth {
  /** 'up', or 'away' while the circuit is open (calls answered without the store). */
  state: 'up' | 'away';
  /** Calls that failed or ran past their bound since start. */
  failed: number;
  /** Calls answered without asking the store, while it was away. */
  skipped: number;
}

export interface StoreCircuit {
  /**
   * `op` bounded by `ms`; rejects with StoreAway past it, on failure, or at once while the store is
   * away. `late` gets an answer that came after the bound (to undo what it took).
   */
  call<T>(op: () => Promise<T>, ms: number, late?: (v: T) => void): Promise<T>;
  health(): StoreHealth;
  stop(): void;
}

export function storeCircuit(ping: () => Promise<unknown>, log: (m: string) => void): StoreCircuit {
  let answered = Date.now();
  let open = false;
  let failed = 0;
  let skipped = 0;
  let probe: ReturnType<typeof setInterval> | undefined;
  const close = () => {
    if (!open) return;
    open = false;
    answered = Date.now();
    clearInterval(probe);
    probe = undefined;
    log('redis: answering again; counting and sharing resume');
  };
  const bounded = <T>(op: () => Promise<T>, ms: number, late?: (v: T) => void) =>
    new Promise<T>((resolve, reject) => {
      let past = false;
      const timer = setTimeout(() => ((past = true), reject(new StoreAway(`no answer within ${ms} ms`))), ms);
      op().then(
        (v) => {
          clearTimeout(timer);
          // A late answer still shows the store is there.
          answered = Date.now();
          if (past) late?.(v);
          else resolve(v);
        },
        (e: unknown) => (clearTimeout(timer), reject(new StoreAway((e as Error).message))),
      );
    });
  const trip = (e: StoreAway) => {
    failed++;
    if (open || Date.now() - answered < QUIET_MS) return;
    open = true;
    log(`redis: ${e.message}; not asked again until it answers (requests go uncounted, see /status store)`);
    probe = setInterval(() => void bounded(ping, PROBE_BOUND_MS).then(close, () => undefined), PROBE_MS);
    probe.unref();
  };
  return {
    call(op, ms, late) {
      if (open) {
        skipped++;
        return Promise.reject(new StoreAway('the store is away'));
      }
      return bounded(op, ms, late).catch((e: StoreAway) => {
        trip(e);
        throw e;
      });
    },
    health: () => ({ state: open ? 'away' : 'up', failed, skipped }),
    stop: () => clearInterval(probe),
  };
}

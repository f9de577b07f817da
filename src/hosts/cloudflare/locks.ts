import { DurableObject } from 'cloudflare:workers';
import type { KeyedQueue } from '../../contact/keyed-queue.ts';
import { leasedLock } from '../../state/leased-lock.ts';

/**
 * One lock (a payer's settlements, a relayer's nonces) across every isolate: a Durable Object per
 * key holds the lease. Its holder extends it while it works; a holder that dies lets it expire.
 */
export class Locks extends DurableObject {
  private holder: { token: string; until: number } | undefined;

  take(token: string, ttlMs: number): boolean {
    const now = Date.now();
    if (this.holder && this.holder.until > now && this.holder.token !== token) return false;
    this.holder = { token, until: now + ttlMs };
    return true;
  }

  extend(token: string, ttlMs: number): boolean {
    if (this.holder?.token !== token) return false;
    this.holder.until = Date.now() + ttlMs;
    return true;
  }

  release(token: string): void {
    if (this.holder?.token === token) this.holder = undefined;
  }
}

export function durableLock(namespace: DurableObjectNamespace<Locks>): KeyedQueue {
  const lock = (key: string) => namespace.get(namespace.idFromName(key));
  return leasedLock({ take: (key, token, ttl) => lock(key).take(token, ttl), extend: (key, token, ttl) => lock(key).extend(token, ttl), release: (key, token) => lock(key).release(token) }, 'the lock Durable Object');
}

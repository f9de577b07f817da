import type { ContactConfig, ContactSettings } from './config.ts';
import { paymentChain } from './chain.ts';
import type { Outbox } from './delivery.ts';
import type { Inbox } from './inbox.ts';
import { keyedQueue, type KeyedQueue } from './keyed-queue.ts';
import { createRelayer, type Relayer } from './relayer.ts';
import { contactService, type ContactService } from './service.ts';

type RootName = 'main' | 'sandbox';

export interface OpenContact {
  /** The root's paid contact, or undefined when it is switched off or not configured. */
  serviceFor(root: RootName, resourceUrl: string): ContactService | undefined;
  close(): void;
}

/** Where a host keeps each root's messages, and how (whether) it delivers them. */
export interface ContactStores {
  inbox(root: RootName, settings: ContactSettings): Inbox;
  outbox?(root: RootName, inbox: Inbox): Outbox | undefined;
}

/**
 * How often a long-running server looks for paid messages left pending after their transfer (a
 * process killed right after settlement): at start, then this often (a transfer still unmined at
 * start is found by a later look).
 */
export const RECONCILE_EVERY_MS = 60_000;

/**
 * Wires each configured root: its inbox, its token on its chain, and the relayer, which is shared
 * when two roots use the same key on the same chain so that its nonces stay in one queue.
 */
export function wireContact(config: ContactConfig, hooks: { crash: () => void; lock?: KeyedQueue; reconcile?: boolean }, stores: ContactStores): OpenContact {
  const relayers = new Map<string, Relayer>();
  // With a lock other processes share, one payer's payments and one relayer's nonces are serialised across them.
  const perPayer = hooks.lock ?? keyedQueue();
  const inboxes: Inbox[] = [];
  const outboxes: Outbox[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  const reconcileNow = (root: RootName, service: ContactService) =>
    void service.reconcile?.().then(
      (n) => n > 0 && console.error(`contact (${root}): completed ${n} paid message${n > 1 ? 's' : ''} left pending after settlement`),
      (e: unknown) => console.error(`contact (${root}): pending messages not reconciled yet: ${(e as Error).message}`),
    );
  return {
    serviceFor(root, resourceUrl) {
      const s = config[root];
      if (!s) return undefined;
      // One account on one chain has one nonce sequence, whatever RPC URL reaches it.
      const relayerId = `${s.chainId}|${s.relayerKey}`;
      const relayer = relayers.get(relayerId) ?? createRelayer(s.rpcUrl, s.chainId, s.relayerKey, hooks.lock);
      relayers.set(relayerId, relayer);
      const inbox = stores.inbox(root, s);
      inboxes.push(inbox);
      const outbox = stores.outbox?.(root, inbox);
      if (outbox) outboxes.push(outbox);
      const service = contactService({
        chain: paymentChain(relayer, s.asset, s.payTo),
        inbox,
        terms: { chainId: s.chainId, asset: s.asset, payTo: s.payTo, price: s.price },
        perPayer,
        resource: { url: resourceUrl, description: 'Send a paid message to the site owner', mimeType: 'application/json' },
        onStored: outbox && (() => void outbox.kick()),
        afterSettle: config.crashAfter === 'settle' ? hooks.crash : undefined,
      });
      if (hooks.reconcile) {
        reconcileNow(root, service);
        const timer = setInterval(() => reconcileNow(root, service), RECONCILE_EVERY_MS);
        timer.unref();
        timers.push(timer);
      }
      return service;
    },
    close() {
      for (const t of timers) clearInterval(t);
      for (const o of outboxes) o.stop();
      for (const i of inboxes) void i.close();
    },
  };
}

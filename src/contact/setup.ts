import type { ContactConfig } from './config.ts';
import { paymentChain } from './chain.ts';
import { ownerMail, smtpSender, startOutbox, type MailSettings, type Outbox } from './delivery.ts';
import { sqliteInbox, type Inbox } from './inbox.ts';
import { pgInbox } from './pg-inbox.ts';
import { keyedQueue, type KeyedQueue } from './keyed-queue.ts';
import { createRelayer, type Relayer } from './relayer.ts';
import { contactService, type ContactService } from './service.ts';

function mailOutbox(inbox: Inbox, mail: MailSettings): Outbox {
  const send = smtpSender(mail);
  return startOutbox(inbox, (m) => send(ownerMail(m, mail)));
}

export interface OpenContact {
  /** The root's paid contact, or undefined when it is switched off or not configured. */
  serviceFor(root: 'main' | 'sandbox', resourceUrl: string): ContactService | undefined;
  close(): void;
}

/**
 * Wires each configured root: its inbox, its token on its chain, and the relayer, which is shared
 * when two roots use the same key on the same chain so that its nonces stay in one queue.
 */
export function openContact(config: ContactConfig, hooks: { crash: () => void; lock?: KeyedQueue }): OpenContact {
  const relayers = new Map<string, Relayer>();
  // With a lock other processes share, one payer's payments and one relayer's nonces are serialised across them.
  const perPayer = hooks.lock ?? keyedQueue();
  const inboxes: Inbox[] = [];
  const outboxes: Outbox[] = [];
  return {
    serviceFor(root, resourceUrl) {
      const s = config[root];
      if (!s) return undefined;
      // One account on one chain has one nonce sequence, whatever RPC URL reaches it.
      const relayerId = `${s.chainId}|${s.relayerKey}`;
      const relayer = relayers.get(relayerId) ?? createRelayer(s.rpcUrl, s.chainId, s.relayerKey, hooks.lock);
      relayers.set(relayerId, relayer);
      const inbox = config.databaseUrl ? pgInbox(config.databaseUrl, `folio_messages_${root}`) : sqliteInbox(s.database);
      inboxes.push(inbox);
      const outbox = root === 'main' && config.mail ? mailOutbox(inbox, config.mail) : undefined;
      if (outbox) outboxes.push(outbox);
      return contactService({
        chain: paymentChain(relayer, s.asset, s.payTo),
        inbox,
        terms: { chainId: s.chainId, asset: s.asset, payTo: s.payTo, price: s.price },
        perPayer,
        resource: { url: resourceUrl, description: 'Send a paid message to the site owner', mimeType: 'application/json' },
        onStored: outbox && (() => void outbox.kick()),
        afterSettle: config.crashAfter === 'settle' ? hooks.crash : undefined,
      });
    },
    close() {
      for (const o of outboxes) o.stop();
      for (const i of inboxes) void i.close();
    },
  };
}

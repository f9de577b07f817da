import type { ContactConfig } from './config.ts';
import { ownerMail, smtpSender, startOutbox } from './delivery.ts';
import { sqliteInbox } from './inbox.ts';
import { pgInbox } from './pg-inbox.ts';
import type { KeyedQueue } from './keyed-queue.ts';
import { wireContact, type OpenContact } from './wiring.ts';

export type { OpenContact } from './wiring.ts';

/**
 * Paid contact on Node: each root's inbox in its SQLite file, or every root's in PostgreSQL
 * (DATABASE_URL); the site's messages e-mailed to the owner over SMTP.
 */
export function openContact(config: ContactConfig, hooks: { crash: () => void; lock?: KeyedQueue }): OpenContact {
  const { mail, databaseUrl } = config;
  // A server runs for long: it completes what a killed process left (wiring.ts RECONCILE_EVERY_MS).
  return wireContact(config, { ...hooks, reconcile: true }, {
    inbox: (root, s) => (databaseUrl ? pgInbox(databaseUrl, `folio_messages_${root}`) : sqliteInbox(s.database)),
    outbox(root, inbox) {
      if (root !== 'main' || !mail) return undefined;
      const send = smtpSender(mail);
      return startOutbox(inbox, (m) => send(ownerMail(m, mail)));
    },
  });
}

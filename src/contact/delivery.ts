import nodemailer from 'nodemailer';
import type { Inbox, StoredMessage } from './inbox.ts';

/** Optional delivery of stored messages to the site owner by e-mail. The inbox stays the record. */
export interface MailSettings {
  /** A nodemailer connection URL: smtp://user:pass@host:587 or smtps://... */
  smtpUrl: string;
  to: string;
  from: string;
}

export interface OwnerMail {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  /** Stable per message, so a resend after a crash is recognised as the same mail. */
  messageId: string;
}

export function ownerMail(m: StoredMessage, settings: Pick<MailSettings, 'from' | 'to'>): OwnerMail {
  const lines = [
    m.message.body,
    '',
    '--',
    `From: ${m.message.sender}`,
    ...(m.message.reply_to ? [`Reply to: ${m.message.reply_to}`] : []),
    ...(m.message.callback ? [`Callback: ${m.message.callback}`] : []),
    `Paid: ${m.permit.value} atomic units of ${m.asset} on ${m.network} by ${m.permit.owner}`,
    ...(m.answer ? [`Transaction: ${m.answer.body.txHash}`] : []),
    `Message ${m.id}, received ${m.createdAt}`,
  ];
  return {
    from: settings.from,
    to: settings.to,
    ...(m.message.reply_to && { replyTo: m.message.reply_to }),
    subject: `Paid message from ${m.message.sender.slice(0, 80)}`,
    text: lines.join('\n'),
    messageId: `<folio-contact-${m.id}-${m.key.replace(/[^a-z0-9]/g, '').slice(-24)}@folio>`,
  };
}

export function smtpSender(settings: MailSettings): (mail: OwnerMail) => Promise<void> {
  const transport = nodemailer.createTransport(settings.smtpUrl);
  return async (mail) => {
    await transport.sendMail(mail);
  };
}

export interface Outbox {
  /** Runs a delivery pass now (or after the running one) and resolves when it is done. */
  kick(): Promise<void>;
  stop(): void;
}

const BATCH = 20;
/** How long a claimed batch is this sender's: longer than sending it takes. */
export const LEASE_MS = 5 * 60_000;
const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** attempts, 3_600_000);

/**
 * Delivers settled messages one at a time, marking each delivered only after the mail was taken:
 * a failure is retried later with backoff, a crash mid-send resends (with the same Message-ID).
 */
export function startOutbox(
  inbox: Inbox,
  deliver: (m: StoredMessage) => Promise<void>,
  options: { intervalMs?: number; now?: () => Date; log?: (m: string) => void } = {},
): Outbox {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((m: string) => console.error(m));
  let running: Promise<void> | undefined;
  let again = false;

  async function pass(): Promise<void> {
    do {
      again = false;
      const due = await inbox.claimForDelivery(now(), BATCH, LEASE_MS);
      if (due.length === BATCH) again = true;
      for (const m of due) {
        try {
          await deliver(m);
          await inbox.markDelivered(m.id, now());
        } catch (e) {
          const next = new Date(now().getTime() + backoffMs(m.delivery.attempts));
          await inbox.markDeliveryFailed(m.id, (e as Error).message, next);
          log(`contact: delivery of message ${m.id} failed (${(e as Error).message}); next attempt ${next.toISOString()}`);
        }
      }
    } while (again);
  }

  function kick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    // A pass runs in the background: a store that went away (its failure to record a failure too)
    // ends it with a line in the log, never the process; the messages' leases lapse and the next
    // pass takes them again.
    running = pass()
      .catch((e: unknown) => log(`contact: delivery pass stopped (${(e as Error).message}); the next pass tries again`))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  const timer = setInterval(() => void kick(), options.intervalMs ?? 60_000);
  timer.unref();
  void kick();
  return { kick, stop: () => clearInterval(timer) };
}

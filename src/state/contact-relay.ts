import type { ContactOutcome, ContactService } from '../contact/service.ts';

type Root = 'main' | 'sandbox';
interface Ask {
  kind: 'ask';
  ask: string;
  root: Root;
  request: Parameters<ContactService['send']>[0];
}
interface Answer {
  kind: 'answer';
  ask: string;
  outcome?: ContactOutcome;
  error?: string;
}

const CHANNEL = 'folio-contact';
const RELAY_TIMEOUT_MS = 120_000;

/**
 * Paid contact lives in one worker (its inbox, the per-payer queue, the relayer's nonces), so a
 * payment is serialised as in one process; the other workers pass requests to it and its
 * outcomes back.
 */
export function holdContact(serviceFor: (root: Root) => ContactService | undefined): { stop(): void } {
  const channel = new BroadcastChannel(CHANNEL);
  (channel as BroadcastChannel & { unref?: () => void }).unref?.();
  channel.onmessage = async (event: MessageEvent<Ask | Answer>) => {
    const m = event.data;
    if (m.kind !== 'ask') return;
    try {
      const service = serviceFor(m.root);
      if (!service) throw new Error('paid contact is not configured for this root');
      channel.postMessage({ kind: 'answer', ask: m.ask, outcome: await service.send(m.request) } satisfies Answer);
    } catch (e) {
      channel.postMessage({ kind: 'answer', ask: m.ask, error: (e as Error).message } satisfies Answer);
    }
  };
  return { stop: () => channel.close() };
}

/** A worker's paid contact for a root: the holder's, through the channel. */
export function relayedContact(root: Root): ContactService & { stop(): void } {
  const channel = new BroadcastChannel(CHANNEL);
  (channel as BroadcastChannel & { unref?: () => void }).unref?.();
  const waiting = new Map<string, (a: Answer) => void>();
  channel.onmessage = (event: MessageEvent<Ask | Answer>) => {
    if (event.data.kind === 'answer') waiting.get(event.data.ask)?.(event.data);
  };
  return {
    send(request) {
      const ask = crypto.randomUUID();
      return new Promise<ContactOutcome>((resolve, reject) => {
        // Longer than any settlement: a holder that never answers is reported, not waited on forever.
        const timer = setTimeout(() => {
          waiting.delete(ask);
          resolve({ kind: 'unavailable', error: 'Paid contact did not answer in time; retry with the same payment (it is never charged twice).' });
        }, RELAY_TIMEOUT_MS);
        waiting.set(ask, (a) => {
          clearTimeout(timer);
          waiting.delete(ask);
          if (a.outcome) resolve(a.outcome);
          else reject(new Error(`paid contact failed in its worker: ${a.error}`));
        });
        channel.postMessage({ kind: 'ask', ask, root, request } satisfies Ask);
      });
    },
    stop: () => channel.close(),
  };
}

import type { PaymentRequired, ResourceInfo, SettleResponse } from '@x402/core/types';
import type { Address } from 'viem';
import { ChainUnavailable, Reverted, type PaymentChain, type TxOutcome } from './chain.ts';
import { messageDigest, validateMessage, type ContactMessage } from './fields.ts';
import type { Inbox, StoredMessage } from './inbox.ts';
import type { KeyedQueue } from './keyed-queue.ts';
import { StoreUnavailable } from './store-unavailable.ts';
import { buildOffer, paymentRequired, paymentRequiredBody, type Offer } from './offer.ts';
import { parsePayment, paymentKey, permitOf, samePermit, signedPermit, verifyPayment, type ParsedPayment } from './payment.ts';
import { refusalForRevert, refusals, type Refusal } from './refusals.ts';
import { sentAnswer, type SentAnswer } from './sent.ts';

/** What a paid send comes to; functions/contact.ts maps each kind to its HTTP status and headers. */
export type ContactOutcome =
  | { kind: 'invalid'; error: string }
  | { kind: 'payment_required'; required: PaymentRequired; body: ReturnType<typeof paymentRequiredBody>; settlement?: SettleResponse }
  | { kind: 'conflict'; error: string }
  | { kind: 'unavailable'; error: string }
  | { kind: 'sent'; answer: SentAnswer };

export interface ContactService {
  /** `payment` is the PAYMENT-SIGNATURE header, null when absent. */
  send(request: { body: unknown; payment: string | null }): Promise<ContactOutcome>;
  /**
   * Completes the messages whose transfer the chain has but whose process died before storing the
   * answer (a crash right after settlement), without waiting for the payer to retry: how many.
   */
  reconcile?(): Promise<number>;
}

export interface ContactServiceDeps {
  chain: PaymentChain;
  inbox: Inbox;
  terms: { chainId: number; asset: Address; payTo: Address; price: string };
  resource: ResourceInfo;
  /** Where one payer's payments wait for each other; shared by the roots of a process. */
  perPayer: KeyedQueue;
  /** Called when a message is stored as paid (the delivery outbox listens). */
  onStored?: () => void;
  /** Test-only crash point: right after the transfer's receipt, before the message is completed. */
  afterSettle?: () => void;
  log?: (message: string) => void;
}

/**
 * Verify -> reserve (the message written ahead, keyed by asset, owner and nonce) -> settle
 * (permit, transferFrom, receipts) -> complete. A payer's requests run one at a time, so duplicates
 * find the first one's stored answer; a pending row left by a crash is finished by the retry.
 */
export function contactService(deps: ContactServiceDeps): ContactService {
  const { chain, inbox } = deps;
  const log = deps.log ?? ((m: string) => console.error(m));

  async function currentOffer(): Promise<Offer> {
    return buildOffer({ ...deps.terms, spender: chain.spender, token: await chain.tokenInfo() });
  }

  /** A 402; `payer` marks a refusal after settlement began, which also answers PAYMENT-RESPONSE. */
  function paymentRequiredOutcome(offer: Offer, refusal?: Refusal, payer?: Address): ContactOutcome {
    return {
      kind: 'payment_required',
      required: paymentRequired(deps.resource, offer, refusal),
      body: paymentRequiredBody(offer, refusal),
      ...(refusal && payer && { settlement: { success: false, errorReason: refusal.reason, transaction: '', network: offer.requirements.network, payer } }),
    };
  }

  function unavailable(e: unknown): ContactOutcome {
    log(`contact: cannot take payments: ${(e as Error).message}`);
    return {
      kind: 'unavailable',
      error: `Paid contact cannot take payments right now (${e instanceof StoreUnavailable ? 'its shared store is unreachable' : 'the payment network is unreachable or misconfigured'}). Retry the same request (same PAYMENT-SIGNATURE) later: it finishes what was started and never charges twice.`,
    };
  }

  async function complete(row: StoredMessage, transfer: TxOutcome): Promise<ContactOutcome> {
    const answer = sentAnswer(
      { messageId: row.id, network: row.network, asset: row.asset, payer: row.permit.owner, payTo: row.payTo, amount: row.permit.value },
      transfer,
    );
    await inbox.complete(row.key, answer, new Date());
    deps.onStored?.();
    return { kind: 'sent', answer };
  }

  async function settle(row: StoredMessage, offer: Offer): Promise<ContactOutcome> {
    const permit = permitOf(row.permit);
    const refuse = (refusal: Refusal) => paymentRequiredOutcome(offer, refusal, permit.owner);
    // A transfer sent before a crash or a timeout decides everything.
    if (row.transferTx) {
      const sent = await chain.outcome(row.transferTx);
      if (sent?.success) return complete(row, sent);
    }
    if (row.permitTx) await chain.outcome(row.permitTx);
    let state = await chain.state(permit.owner);
    let permitFailure: Refusal | undefined;
    if (state.nonce === permit.nonce) {
      try {
        const sent = await chain.permit(permit, row.permit.signature, (hash) => inbox.recordTransaction(row.key, 'permit', hash));
        if (!sent.success) permitFailure = refusals.failed('the permit transaction reverted');
      } catch (e) {
        if (!(e instanceof Reverted)) throw e;
        permitFailure = refusalForRevert(e.errorName);
      }
      state = await chain.state(permit.owner);
    }
    // Our permit or a front-runner's copy of it: either way the allowance is the relayer's to spend.
    if (state.nonce <= permit.nonce || state.allowance < permit.value) {
      // No transfer of ours went through (checked above), so nothing was charged.
      await inbox.discard(row.key);
      return refuse(permitFailure ?? refusals.alreadyUsed());
    }
    let transfer: TxOutcome;
    try {
      transfer = await chain.transfer(permit.owner, permit.value, (hash) => inbox.recordTransaction(row.key, 'transfer', hash));
    } catch (e) {
      if (!(e instanceof Reverted)) throw e;
      // The permit is spent but the transfer cannot run (the balance fell): the row stays so a retry can finish it.
      return refuse(refusalForRevert(e.errorName));
    }
    if (!transfer.success) return refuse(refusals.failed('the transfer reverted'));
    deps.afterSettle?.();
    return complete(row, transfer);
  }

  /** The queue key of one payer's payments (their permits share one allowance). */
  const payerKey = (asset: string, owner: string) => `${chain.spender}:${asset}:${owner}`.toLowerCase();

  async function pay(message: ContactMessage, payment: ParsedPayment, offer: Offer): Promise<ContactOutcome> {
    const key = paymentKey(offer, payment.permit);
    const digest = messageDigest(message);
    const signed = signedPermit(payment);
    const stored = await inbox.find(key);
    if (stored) {
      if (!samePermit(stored.permit, signed)) return paymentRequiredOutcome(offer, refusals.alreadyUsed());
      if (stored.digest !== digest) {
        return { kind: 'conflict', error: 'This permit already paid for a different message. One payment carries one message: sign a new permit to send another.' };
      }
      if (stored.answer) return { kind: 'sent', answer: stored.answer };
      return settle(stored, offer);
    }
    const refusal = await verifyPayment(payment, offer, await chain.state(payment.permit.owner));
    if (refusal) return paymentRequiredOutcome(offer, refusal);
    const { asset, payTo } = deps.terms;
    const row = await inbox.reserve({ key, message, digest, network: offer.requirements.network, asset, payTo, permit: signed });
    return settle(row, offer);
  }

  return {
    async send({ body, payment }) {
      const checked = validateMessage(body);
      if ('error' in checked) return { kind: 'invalid', error: checked.error };
      let offer: Offer;
      try {
        offer = await currentOffer();
      } catch (e) {
        // The token cannot be read, or the price does not fit its decimals: nothing can be offered.
        return unavailable(e);
      }
      try {
        if (payment === null) return paymentRequiredOutcome(offer);
        const parsed = parsePayment(payment);
        if ('reason' in parsed) return paymentRequiredOutcome(offer, parsed);
        // One payer's permits to one relayer share its allowance, so they settle one at a time.
        return await deps.perPayer(payerKey(offer.requirements.asset, parsed.permit.owner), () => pay(checked.message, parsed, offer));
      } catch (e) {
        // A read that reverts means the token is not what the configuration says.
        if (e instanceof ChainUnavailable || e instanceof Reverted || e instanceof StoreUnavailable) return unavailable(e);
        throw e;
      }
    },
    async reconcile() {
      let completed = 0;
      for (const found of await inbox.unfinished()) {
        // In the payer's queue, as a retry would be: a settlement under way (here or, with a shared
        // lock, elsewhere) finishes first, and the row is read again after it. Only a transfer the
        // chain has as a success completes a row (once: complete() takes pending rows only); any
        // other is left to the payer's retry, which decides from the chain's state.
        await deps.perPayer(payerKey(found.asset, found.permit.owner), async () => {
          const row = await inbox.find(found.key);
          if (!row || row.answer || !row.transferTx) return;
          const sent = await chain.outcome(row.transferTx);
          if (!sent?.success) return;
          await complete(row, sent);
          completed++;
        });
      }
      return completed;
    },
  };
}

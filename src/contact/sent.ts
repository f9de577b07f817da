import type { Network, SettleResponse } from '@x402/core/types';
import type { Address, Hex } from 'viem';
import type { TxOutcome } from './chain.ts';

export interface SentReceipt {
  messageId: number;
  network: Network;
  asset: Address;
  payer: Address;
  payTo: Address;
  amount: string;
  transaction: Hex;
  blockNumber: string;
  blockHash: Hex;
}

/** The 200 answer of a settled payment, stored once and replayed byte for byte on every retry. */
export interface SentAnswer {
  body: { status: 'sent'; txHash: Hex; receipt: SentReceipt };
  /** The PAYMENT-RESPONSE header's object. */
  settlement: SettleResponse;
}

/** What the stored message brings to the receipt; the transfer brings the rest. */
export type PaidMessage = Omit<SentReceipt, 'transaction' | 'blockNumber' | 'blockHash'>;

/** Built only from the stored message and the on-chain transfer, so a recovery after a crash answers the same. */
export function sentAnswer(paid: PaidMessage, transfer: Pick<TxOutcome, 'hash' | 'blockNumber' | 'blockHash'>): SentAnswer {
  return {
    body: {
      status: 'sent',
      txHash: transfer.hash,
      receipt: { ...paid, transaction: transfer.hash, blockNumber: transfer.blockNumber.toString(), blockHash: transfer.blockHash },
    },
    settlement: { success: true, transaction: transfer.hash, network: paid.network, payer: paid.payer },
  };
}

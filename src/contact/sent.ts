import type { Network, SettleResponse } from '@x402/core/types';
import type { Address, Hex } from 'viem';

/** The 200 answer of a settled payment, stored once and replayed byte for byte on every retry. */
export interface SentAnswer {
  body: {
    status: 'sent';
    txHash: Hex;
    receipt: {
      messageId: number;
      network: Network;
      asset: Address;
      payer: Address;
      payTo: Address;
      amount: string;
      transaction: Hex;
      blockNumber: string;
      blockHash: Hex;
    };
  };
  /** The PAYMENT-RESPONSE header's object. */
  settlement: SettleResponse;
}

export interface SettledTransfer {
  messageId: number;
  network: Network;
  asset: Address;
  payer: Address;
  payTo: Address;
  amount: string;
  hash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
}

/** Built only from the message id and the on-chain transfer, so a recovery after a crash answers the same. */
export function sentAnswer(t: SettledTransfer): SentAnswer {
  return {
    body: {
      status: 'sent',
      txHash: t.hash,
      receipt: {
        messageId: t.messageId,
        network: t.network,
        asset: t.asset,
        payer: t.payer,
        payTo: t.payTo,
        amount: t.amount,
        transaction: t.hash,
        blockNumber: t.blockNumber.toString(),
        blockHash: t.blockHash,
      },
    },
    settlement: { success: true, transaction: t.hash, network: t.network, payer: t.payer },
  };
}

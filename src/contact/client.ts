import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { Address, LocalAccount } from 'viem';
import { permitTypedData, type Permit } from './permit.ts';

/**
 * The payer's half of the permit scheme, as an x402 client does it: pick the ERC-2612 offer of a
 * 402, sign the permit, wrap it in a v2 payment payload. Used by `npm run pay` and the tests.
 */
export function permitOffer(required: PaymentRequired): PaymentRequirements {
  const offer = required.accepts.find((a) => a.scheme === 'exact' && a.extra?.assetTransferMethod === 'eip2612');
  if (!offer) throw new Error('The 402 offers no ERC-2612 permit payment.');
  return offer;
}

export const chainIdOf = (offer: PaymentRequirements) => Number(offer.network.split(':')[1]);

export async function signPermitPayment(
  account: LocalAccount,
  required: PaymentRequired,
  terms: { nonce: bigint; deadline: bigint },
): Promise<PaymentPayload> {
  const offer = permitOffer(required);
  const extra = offer.extra as { name: string; version: string; spender: Address };
  const permit: Permit = { owner: account.address, spender: extra.spender, value: BigInt(offer.amount), nonce: terms.nonce, deadline: terms.deadline };
  const domain = { name: extra.name, version: extra.version, chainId: chainIdOf(offer), verifyingContract: offer.asset as Address };
  const signature = await account.signTypedData(permitTypedData(domain, permit));
  return {
    x402Version: 2,
    resource: required.resource,
    accepted: offer,
    payload: {
      signature,
      permit: {
        owner: permit.owner,
        spender: permit.spender,
        value: permit.value.toString(),
        nonce: permit.nonce.toString(),
        deadline: permit.deadline.toString(),
      },
    },
  };
}

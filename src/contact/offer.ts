import { convertToTokenAmount } from '@x402/core/utils';
import type { PaymentRequired, PaymentRequirements, ResourceInfo } from '@x402/core/types';
import type { Address } from 'viem';
import { FIELDS } from './fields.ts';
import type { PermitDomain } from './permit.ts';
import type { Refusal } from './refusals.ts';

/** The token as its contract describes itself (EIP-712 domain and decimals). */
export interface TokenInfo {
  name: string;
  version: string;
  decimals: number;
}

export interface OfferTerms {
  chainId: number;
  asset: Address;
  payTo: Address;
  /** The relayer that calls `permit` and `transferFrom`. */
  spender: Address;
  /** In dollars, e.g. "0.10": the token is taken to be a USD stablecoin. */
  price: string;
  token: TokenInfo;
}

/** What the endpoint asks for: the x402 payment requirements and what verification needs beside them. */
export interface Offer {
  requirements: PaymentRequirements;
  amount: bigint;
  /** Human readable, e.g. "$0.10". */
  price: string;
  domain: PermitDomain;
}

/** How long a payer may take between the 402 and the settled answer. */
export const MAX_TIMEOUT_SECONDS = 300;

export function buildOffer(terms: OfferTerms): Offer {
  const fraction = terms.price.split('.')[1] ?? '';
  if (fraction.length > terms.token.decimals) throw new Error(`The price ${terms.price} has more decimals than the token (${terms.token.decimals}).`);
  const amount = convertToTokenAmount(terms.price, terms.token.decimals);
  const requirements: PaymentRequirements = {
    scheme: 'exact',
    network: `eip155:${terms.chainId}`,
    amount,
    asset: terms.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { name: terms.token.name, version: terms.token.version, assetTransferMethod: 'eip2612', spender: terms.spender },
  };
  return {
    requirements,
    amount: BigInt(amount),
    price: `$${terms.price}`,
    domain: { name: terms.token.name, version: terms.token.version, chainId: terms.chainId, verifyingContract: terms.asset },
  };
}

/** The PAYMENT-REQUIRED header's object. */
export function paymentRequired(resource: ResourceInfo, offer: Offer, refusal?: Refusal): PaymentRequired {
  return {
    x402Version: 2,
    error: refusal?.error ?? 'PAYMENT-SIGNATURE header is required',
    resource,
    accepts: [offer.requirements],
  };
}

/** The 402 body: `{message, price, accepts, fields}`, plus `error` and `errorReason` when a payment was refused. */
export function paymentRequiredBody(offer: Offer, refusal?: Refusal) {
  const { network } = offer.requirements;
  const token = offer.domain.name;
  return {
    ...(refusal && { error: refusal.error, errorReason: refusal.reason }),
    message:
      `Sending a message costs ${offer.price} (${offer.amount} atomic units of ${token} on ${network}). ` +
      'Sign an ERC-2612 permit for extra.spender with exactly that value, then repeat this request with the same body ' +
      'and the x402 payment payload, base64-encoded, in the PAYMENT-SIGNATURE header.',
    price: offer.price,
    accepts: [offer.requirements],
    fields: FIELDS,
  };
}

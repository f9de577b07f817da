import { decodePaymentSignatureHeader } from '@x402/core/http';
import { parsePaymentPayload, z } from '@x402/core/schemas';
import type { PaymentPayload } from '@x402/core/types';
import { getAddress, isAddress, isAddressEqual, recoverTypedDataAddress, type Address, type Hex } from 'viem';
import type { Offer } from './offer.ts';
import { isLowS, permitTypedData, type Permit } from './permit.ts';
import { MIN_SECONDS_LEFT, refusals, type Refusal } from './refusals.ts';

/** A PAYMENT-SIGNATURE that has the right shape: an x402 v2 payload carrying a signed permit. */
export interface ParsedPayment {
  payload: PaymentPayload;
  permit: Permit;
  signature: Hex;
}

/** What verification needs from the chain, read at the latest block. */
export interface ChainState {
  time: bigint;
  nonce: bigint;
  balance: bigint;
  allowance: bigint;
}

const address = z.string().refine((v) => isAddress(v, { strict: false }), 'must be a 0x-prefixed 20-byte address');
const DECIMAL = /^(0|[1-9][0-9]{0,77})$/;
// zod still runs a refinement after a failed regex, hence the guard before BigInt().
const uint256 = z
  .string()
  .regex(DECIMAL, 'must be a decimal string')
  .refine((v) => !DECIMAL.test(v) || BigInt(v) < 2n ** 256n, 'must fit in uint256');

const PermitPayloadSchema = z.object({
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte 0x-prefixed hex signature'),
  permit: z.object({ owner: address, spender: address, value: uint256, nonce: uint256, deadline: uint256 }),
});

function describe(error: z.ZodError, prefix = ''): string {
  return error.issues.map((i) => `${prefix}${i.path.join('.') || '(root)'} ${i.message}`).join('; ');
}

/** Decodes and shape-checks the header with @x402/core's codec and schema. */
export function parsePayment(header: string): ParsedPayment | Refusal {
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(header.trim());
  } catch {
    return refusals.malformed('it is not base64-encoded JSON');
  }
  const version = (decoded as { x402Version?: unknown } | null)?.x402Version;
  if (version !== undefined && version !== 2) return refusals.version(version);
  const parsed = parsePaymentPayload(decoded);
  if (!parsed.success) return refusals.malformed(describe(parsed.error));
  const inner = PermitPayloadSchema.safeParse(parsed.data.payload);
  if (!inner.success) return refusals.malformed(describe(inner.error, 'payload.'));
  const p = inner.data.permit;
  return {
    // The schema checked the network is CAIP-2; the library's type spells that as a template literal.
    payload: parsed.data as PaymentPayload,
    signature: inner.data.signature.toLowerCase() as Hex,
    permit: {
      owner: getAddress(p.owner),
      spender: getAddress(p.spender),
      value: BigInt(p.value),
      nonce: BigInt(p.nonce),
      deadline: BigInt(p.deadline),
    },
  };
}

const sameAddress = (a: unknown, b: string) => typeof a === 'string' && isAddress(a, { strict: false }) && isAddressEqual(a, b as Hex);

function offerMismatch(payload: PaymentPayload, offer: Offer): Refusal | undefined {
  const want = offer.requirements;
  const got = payload.accepted;
  for (const field of ['scheme', 'network', 'amount', 'maxTimeoutSeconds'] as const) {
    if (got[field] !== want[field]) return refusals.offerMismatch(field, want[field]);
  }
  for (const field of ['asset', 'payTo'] as const) {
    if (!sameAddress(got[field], want[field])) return refusals.offerMismatch(field, want[field]);
  }
  const wantExtra = want.extra ?? {};
  const gotExtra = got.extra ?? {};
  for (const field of ['name', 'version', 'assetTransferMethod'] as const) {
    if (gotExtra[field] !== wantExtra[field]) return refusals.offerMismatch(`extra.${field}`, wantExtra[field]);
  }
  if (!sameAddress(gotExtra.spender, wantExtra.spender as string)) return refusals.offerMismatch('extra.spender', wantExtra.spender);
  return undefined;
}

/**
 * Every check, in the order DECISIONS.md gives: accepted matches the offer, spender, value,
 * deadline by chain time, low-s, the EIP-712 signature recovers the owner, nonce, balance.
 */
export async function verifyPayment(payment: ParsedPayment, offer: Offer, state: Omit<ChainState, 'allowance'>): Promise<Refusal | undefined> {
  const { permit, signature } = payment;
  const mismatch = offerMismatch(payment.payload, offer);
  if (mismatch) return mismatch;
  const spender = offer.requirements.extra!.spender as Hex;
  if (!isAddressEqual(permit.spender, spender)) return refusals.spender(spender);
  if (permit.value !== offer.amount) return refusals.value(offer.amount);
  if (permit.deadline < state.time + MIN_SECONDS_LEFT) return refusals.deadline(permit.deadline, state.time);
  let signer: Hex;
  try {
    if (!isLowS(signature)) return refusals.highS();
    signer = await recoverTypedDataAddress({ ...permitTypedData(offer.domain, permit), signature });
  } catch {
    // Not a signature at all (a v byte other than 0, 1, 27, 28; r or s out of range).
    return refusals.signature();
  }
  if (!isAddressEqual(signer, permit.owner)) return refusals.signature();
  if (state.nonce > permit.nonce) return refusals.alreadyUsed();
  if (state.nonce < permit.nonce) return refusals.nonce(state.nonce);
  if (state.balance < permit.value) return refusals.insufficientFunds();
  return undefined;
}

/** The idempotency key: one permit nonce of one owner on one token can pay once. */
export function paymentKey(offer: Offer, permit: Permit): string {
  return `${offer.requirements.network}:${offer.requirements.asset}:${permit.owner}:${permit.nonce}`.toLowerCase();
}

/** A permit with its signature as it is stored and compared: decimal strings, as on the wire. */
export interface SignedPermit {
  owner: Address;
  spender: Address;
  value: string;
  nonce: string;
  deadline: string;
  signature: Hex;
}

export function signedPermit({ permit, signature }: ParsedPayment): SignedPermit {
  return {
    owner: permit.owner,
    spender: permit.spender,
    value: permit.value.toString(),
    nonce: permit.nonce.toString(),
    deadline: permit.deadline.toString(),
    signature,
  };
}

export function permitOf(s: SignedPermit): Permit {
  return { owner: s.owner, spender: s.spender, value: BigInt(s.value), nonce: BigInt(s.nonce), deadline: BigInt(s.deadline) };
}

/** Whether two permits for the same key are one signed permit (a retry) rather than two. */
export function samePermit(a: SignedPermit, b: SignedPermit): boolean {
  return a.signature === b.signature && a.spender === b.spender && a.value === b.value && a.deadline === b.deadline;
}

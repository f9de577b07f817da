import { hexToBigInt, parseSignature, type Address, type Hex } from 'viem';

/** An ERC-2612 permit as EIP-712 typed data: what the payer signs and what the token checks. */
export interface Permit {
  owner: Address;
  spender: Address;
  value: bigint;
  nonce: bigint;
  deadline: bigint;
}

export interface PermitDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}

export const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

export function permitTypedData(domain: PermitDomain, permit: Permit) {
  return { domain, types: PERMIT_TYPES, primaryType: 'Permit' as const, message: permit };
}

/** Half the secp256k1 group order: OpenZeppelin's ECDSA rejects any s above it. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** EIP-2 low-s form. viem recovers high-s signatures too, but the token refuses them. */
export function isLowS(signature: Hex): boolean {
  return hexToBigInt(parseSignature(signature).s) <= HALF_N;
}

/** The (v, r, s) arguments of `permit`. */
export function splitSignature(signature: Hex): { v: number; r: Hex; s: Hex } {
  const { r, s, v, yParity } = parseSignature(signature);
  return { v: v === undefined ? yParity + 27 : Number(v), r, s };
}

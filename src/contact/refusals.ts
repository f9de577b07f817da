/**
 * Why a payment was refused: an x402 `errorReason` (the protocol's names where it has one) and a
 * sentence for people. Every refusal is a 402 and charges nothing.
 */
export interface Refusal {
  reason: string;
  error: string;
}

/** Seconds a permit must still be valid for, by chain time, to be settled safely. */
export const MIN_SECONDS_LEFT = 6n;

const refusal = (reason: string, error: string): Refusal => ({ reason, error });

export const refusals = {
  malformed: (detail: string) => refusal('invalid_payload', `The PAYMENT-SIGNATURE header is not a valid x402 payment payload: ${detail}.`),
  version: (version: unknown) => refusal('invalid_x402_version', `x402Version ${String(version)} is not supported; send version 2.`),
  offerMismatch: (field: string, expected: unknown) =>
    refusal('invalid_payment_requirements', `accepted.${field} does not match the offer: expected ${JSON.stringify(expected)}. Copy "accepted" from the 402 answer.`),
  spender: (expected: string) => refusal('invalid_permit_spender', `The permit's spender must be the relayer ${expected} (extra.spender of the offer).`),
  value: (expected: bigint) => refusal('invalid_permit_value', `The permit's value must be exactly the price, ${expected} atomic units.`),
  deadline: (deadline: bigint, chainTime: bigint) =>
    refusal('invalid_permit_deadline', `The permit's deadline ${deadline} has passed or is too close: the chain time is ${chainTime}; give at least ${MIN_SECONDS_LEFT} seconds.`),
  highS: () => refusal('invalid_permit_signature', 'The permit signature is not in low-s form (EIP-2); the token would reject it. Normalise s before sending.'),
  signature: () => refusal('invalid_permit_signature', "The permit signature does not recover the permit's owner for this token's EIP-712 domain."),
  alreadyUsed: () => refusal('permit_already_used', 'This permit was already used on chain (replayed or front-run) and no paid message is stored for it. Sign a new permit with the current nonce.'),
  nonce: (expected: bigint) => refusal('invalid_permit_nonce', `The permit's nonce is not the owner's current nonce on the token, ${expected}.`),
  insufficientFunds: () => refusal('insufficient_funds', "The owner's token balance is below the price."),
  failed: (detail: string) => refusal('invalid_transaction_state', `Settlement failed on chain: ${detail}.`),
};

/** What a token revert (an OpenZeppelin custom error) means for the payer. */
export function refusalForRevert(errorName: string | undefined): Refusal {
  switch (errorName) {
    case 'ERC2612ExpiredSignature':
      return refusal('invalid_permit_deadline', 'The permit expired before it could be settled.');
    case 'ERC2612InvalidSigner':
    case 'ECDSAInvalidSignature':
    case 'ECDSAInvalidSignatureLength':
      return refusals.signature();
    case 'ECDSAInvalidSignatureS':
      return refusals.highS();
    case 'ERC20InsufficientBalance':
      return refusals.insufficientFunds();
    case 'ERC20InsufficientAllowance':
      return refusals.alreadyUsed();
    default:
      return refusals.failed(errorName ?? 'the transaction reverted');
  }
}

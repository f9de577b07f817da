import {
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import type { TokenInfo } from './offer.ts';
import type { ChainState } from './payment.ts';
import { splitSignature, type Permit } from './permit.ts';
import type { Relayer } from './relayer.ts';
import { TOKEN_ABI } from './token-abi.ts';

/** The chain could not be asked or did not answer in time: nothing is known to have failed. */
export class ChainUnavailable extends Error {}

/** A simulated call reverted; `errorName` is the token's custom error when it has one. */
export class Reverted extends Error {
  readonly errorName: string | undefined;
  constructor(errorName: string | undefined) {
    super(`reverted${errorName ? ` with ${errorName}` : ''}`);
    this.errorName = errorName;
  }
}

export interface TxOutcome {
  hash: Hex;
  success: boolean;
  blockNumber: bigint;
  blockHash: Hex;
}

/** The token as the relayer sees it: reads, simulated-then-sent permits and transfers, receipts. */
export interface PaymentChain {
  readonly spender: Address;
  tokenInfo(): Promise<TokenInfo>;
  state(owner: Address): Promise<ChainState>;
  permit(permit: Permit, signature: Hex, onSigned: (hash: Hex) => void | Promise<void>): Promise<TxOutcome>;
  transfer(owner: Address, value: bigint, onSigned: (hash: Hex) => void | Promise<void>): Promise<TxOutcome>;
  /** A sent transaction's outcome (waiting while it is pending), or undefined when the chain does not know it. */
  outcome(hash: Hex): Promise<TxOutcome | undefined>;
}

const RECEIPT_TIMEOUT_MS = 20_000;

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof Reverted || e instanceof ChainUnavailable) throw e;
    const revert = e instanceof BaseError ? e.walk((x) => x instanceof ContractFunctionRevertedError) : null;
    if (revert instanceof ContractFunctionRevertedError) throw new Reverted(revert.data?.errorName);
    throw new ChainUnavailable(e instanceof BaseError ? e.shortMessage : String(e));
  }
}

const toOutcome = (r: TransactionReceipt): TxOutcome => ({
  hash: r.transactionHash,
  success: r.status === 'success',
  blockNumber: r.blockNumber,
  blockHash: r.blockHash,
});

export function paymentChain(relayer: Relayer, asset: Address, payTo: Address): PaymentChain {
  const client = relayer.client;
  const token = { address: asset, abi: TOKEN_ABI } as const;
  let info: Promise<TokenInfo> | undefined;

  async function readTokenInfo(): Promise<TokenInfo> {
    const served = await client.getChainId();
    if (served !== relayer.chainId) throw new ChainUnavailable(`the RPC serves chain ${served}, not the configured ${relayer.chainId}`);
    const decimals = await client.readContract({ ...token, functionName: 'decimals' });
    try {
      const [, name, version] = await client.readContract({ ...token, functionName: 'eip712Domain' });
      return { name, version, decimals };
    } catch {
      // Tokens older than ERC-5267 (USDC) expose name() and version() instead.
      const [name, version] = await Promise.all([
        client.readContract({ ...token, functionName: 'name' }),
        client.readContract({ ...token, functionName: 'version' }),
      ]);
      return { name, version, decimals };
    }
  }

  async function confirmed(hash: Hex): Promise<TxOutcome> {
    try {
      return toOutcome(await client.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS }));
    } catch (e) {
      // A dropped transaction would leave a gap in the local nonce count that blocks every later one.
      if (e instanceof WaitForTransactionReceiptTimeoutError) relayer.resync();
      throw e;
    }
  }

  return {
    spender: relayer.address,
    tokenInfo() {
      info ??= guarded(readTokenInfo).catch((e: unknown) => {
        info = undefined;
        throw e;
      });
      return info;
    },
    state: (owner) =>
      guarded(async () => {
        const block = await client.getBlock({ blockTag: 'latest' });
        const at = { blockNumber: block.number };
        const [nonce, balance, allowance] = await Promise.all([
          client.readContract({ ...token, functionName: 'nonces', args: [owner], ...at }),
          client.readContract({ ...token, functionName: 'balanceOf', args: [owner], ...at }),
          client.readContract({ ...token, functionName: 'allowance', args: [owner, relayer.address], ...at }),
        ]);
        return { time: block.timestamp, nonce, balance, allowance };
      }),
    permit: (permit, signature, onSigned) =>
      guarded(async () => {
        const { v, r, s } = splitSignature(signature);
        const args = [permit.owner, permit.spender, permit.value, permit.deadline, v, r, s] as const;
        await client.simulateContract({ ...token, functionName: 'permit', args, account: relayer.address });
        const hash = await relayer.send({ to: asset, data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'permit', args }) }, onSigned);
        return confirmed(hash);
      }),
    transfer: (owner, value, onSigned) =>
      guarded(async () => {
        const args = [owner, payTo, value] as const;
        await client.simulateContract({ ...token, functionName: 'transferFrom', args, account: relayer.address });
        const hash = await relayer.send({ to: asset, data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transferFrom', args }) }, onSigned);
        return confirmed(hash);
      }),
    outcome: (hash) =>
      guarded(async () => {
        try {
          return toOutcome(await client.getTransactionReceipt({ hash }));
        } catch (e) {
          if (!(e instanceof TransactionReceiptNotFoundError)) throw e;
        }
        try {
          await client.getTransaction({ hash });
        } catch (e) {
          if (e instanceof TransactionNotFoundError) return undefined;
          throw e;
        }
        return confirmed(hash);
      }),
  };
}

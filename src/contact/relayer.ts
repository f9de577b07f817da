import { createPublicClient, createWalletClient, defineChain, http, keccak256, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { keyedQueue, type KeyedQueue } from './keyed-queue.ts';

/** The account that pays gas to settle permits. One per key and RPC, whatever the number of roots using it. */
export interface Relayer {
  address: Address;
  chainId: number;
  client: PublicClient;
  /**
   * Signs the call with the relayer's next nonce, hands the transaction hash to `onSigned` (so it
   * can be stored before anything is broadcast), broadcasts, and returns the hash.
   */
  send(call: { to: Address; data: Hex }, onSigned: (hash: Hex) => void | Promise<void>): Promise<Hex>;
  /** Forget the local nonce (a transaction was not confirmed in time and may have been dropped). */
  resync(): void;
}

/**
 * `shared`: a lock that other processes using this key take too. Then the nonce is read from the
 * chain at each send, since another process may have used the next one.
 */
export function createRelayer(rpcUrl: string, chainId: number, key: Hex, shared?: KeyedQueue): Relayer {
  const chain = defineChain({
    id: chainId,
    name: `eip155:${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { timeout: 10_000, retryCount: 1 });
  const client = createPublicClient({ chain, transport, pollingInterval: 500 });
  const account = privateKeyToAccount(key);
  const wallet = createWalletClient({ account, chain, transport });

  // Every send goes through one queue that owns the nonce, so concurrent payments never collide.
  const queue = shared ?? keyedQueue();
  let nextNonce: number | undefined;

  const known = (hash: Hex) => client.getTransaction({ hash }).then(() => true, () => false);

  async function signAndBroadcast(call: { to: Address; data: Hex }, onSigned: (hash: Hex) => void | Promise<void>): Promise<Hex> {
    if (shared) nextNonce = undefined;
    for (let attempt = 1; ; attempt++) {
      nextNonce ??= await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      const request = await wallet.prepareTransactionRequest({ ...call, nonce: nextNonce });
      const serializedTransaction = await wallet.signTransaction(request);
      const hash = keccak256(serializedTransaction);
      // Stored before anything is broadcast.
      await onSigned(hash);
      try {
        await client.sendRawTransaction({ serializedTransaction });
        nextNonce += 1;
        return hash;
      } catch (e) {
        // Whatever happened, count from the chain next time.
        nextNonce = undefined;
        // The node may have taken it despite the error (an answer lost, a retried request).
        if (await known(hash)) return hash;
        // Another sender with this key took the nonce: this transaction can never be mined, so sign anew.
        if (attempt === 1 && /nonce too low/i.test((e as Error).message)) continue;
        throw e;
      }
    }
  }

  return {
    address: account.address,
    chainId,
    client,
    send: (call, onSigned) => queue(account.address, () => signAndBroadcast(call, onSigned)),
    resync() {
      // Through the queue: a send in flight still owns the nonce it counts on.
      void queue(account.address, async () => {
        nextNonce = undefined;
      });
    },
  };
}

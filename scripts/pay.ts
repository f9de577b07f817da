// `npm run pay -- [--sandbox] [--sender NAME] [--reply-to EMAIL] "message"`: pays for and sends one
// message the way an x402 client does: request, read the 402, sign the permit, repeat with PAYMENT-SIGNATURE.
// The payer key and RPC come from PAYER_KEY and RPC_URL, the server from FOLIO_URL (or --url), else
// each from the running `npm run chain`, else the server at http://localhost:$PORT (4321).
import { parseArgs } from 'node:util';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { parsePaymentRequired } from '@x402/core/schemas';
import type { PaymentRequired } from '@x402/core/types';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { permitOffer, signPermitPayment } from '../src/contact/client.ts';
import { runningLocalChain } from '../src/contact/local-chain-state.ts';
import { TOKEN_ABI } from '../src/contact/token-abi.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sandbox: { type: 'boolean', default: false },
    sender: { type: 'string', default: 'npm run pay' },
    'reply-to': { type: 'string' },
    url: { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const local = runningLocalChain();
const payerKey = (process.env.PAYER_KEY ?? local?.payerKey) as Hex | undefined;
const rpcUrl = process.env.RPC_URL ?? local?.rpcUrl;
if (!payerKey || !rpcUrl) fail('No running `npm run chain` to pay on: start it in another shell, or set PAYER_KEY and RPC_URL (and FOLIO_URL).');
const origin = process.env.FOLIO_URL ?? local?.url ?? `http://localhost:${process.env.PORT ?? 4321}`;
const url = values.url ?? `${origin}${values.sandbox ? '/sandbox' : ''}/contact/send`;
const message = JSON.stringify({ sender: values.sender, body: positionals.join(' ') || 'Hello from npm run pay.', reply_to: values['reply-to'] });
// A server or chain that does not answer is one line naming the address and what sets it, not a stack.
const unreachable = (what: string, address: string, setting: string) => (e: unknown): never => {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return fail(`Cannot reach ${what} at ${address} (${cause?.code ?? cause?.message ?? (e as Error).message}): is \`npm run chain\` (or the server) running? ${setting} sets the address.`);
};
const post = (headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: message }).catch(unreachable('the server', url, values.url ? '--url' : 'FOLIO_URL'));

const first = await post();
if (first.status !== 402) fail(`Expected 402 from ${url}, got ${first.status}: ${await first.text()}`);
let required: PaymentRequired;
try {
  required = decodePaymentRequiredHeader(first.headers.get('payment-required') ?? '');
} catch {
  fail('The 402 has no readable PAYMENT-REQUIRED header.');
}
if (required.x402Version !== 2 || !parsePaymentRequired(required).success) fail('The PAYMENT-REQUIRED header is not a valid x402 v2 PaymentRequired.');
const offer = permitOffer(required);
console.log(`402: ${((await first.json()) as { price: string }).price} = ${offer.amount} atomic units of ${offer.asset} on ${offer.network}, spender ${String(offer.extra?.spender)}`);

const account = privateKeyToAccount(payerKey);
const client = createPublicClient({ transport: http(rpcUrl) });
const [nonce, block] = await Promise.all([
  client.readContract({ address: offer.asset as Address, abi: TOKEN_ABI, functionName: 'nonces', args: [account.address] }),
  client.getBlock(),
]).catch(unreachable('the chain', rpcUrl, 'RPC_URL'));
// Deadline from the later of chain and wall time: an idle local chain's last block can be old.
const now = BigInt(Math.max(Number(block.timestamp), Math.floor(Date.now() / 1000)));
const payload = await signPermitPayment(account, required, { nonce, deadline: now + BigInt(offer.maxTimeoutSeconds) });
console.log(`signed permit: owner ${account.address}, nonce ${nonce}`);

const paid = await post({ 'payment-signature': encodePaymentSignatureHeader(payload) });
console.log(`${paid.status}: ${await paid.text()}`);
const settlement = paid.headers.get('payment-response');
if (settlement) console.log('PAYMENT-RESPONSE:', decodePaymentResponseHeader(settlement));
process.exit(paid.status === 200 ? 0 : 1);

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { parsePaymentRequired } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { createPublicClient, createWalletClient, hexToBigInt, http, numberToHex, parseSignature, serializeSignature, type Address, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { chainIdOf, permitOffer, signPermitPayment } from '../../src/contact/client.ts';
import { sqliteInbox } from '../../src/contact/inbox.ts';
import { contactEnv, devKey, startLocalPayments, type LocalPayments } from '../../src/contact/local-chain.ts';
import { permitTypedData, type Permit } from '../../src/contact/permit.ts';
import { TOKEN_ABI } from '../../src/contact/token-abi.ts';
import { get, startServer, type Got, type RunningServer } from '../helpers/server.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts';
import { redisBinary, startRedis } from '../helpers/redis.ts';
import { call } from '../helpers/connection.ts';
import { postgresBin, startPostgres } from '../helpers/postgres.ts';
import { pgInbox } from '../../src/contact/pg-inbox.ts';

// A real anvil on a random port, the FolioToken compiled and deployed; every test pays from its own fresh payer.
let chain: LocalPayments | undefined;
let skip: string | false = false;
try {
  chain = await startLocalPayments();
} catch (e) {
  skip = `anvil could not start: ${(e as Error).message.split('\n')[0]}`;
}

const PRICE = 100_000n; // $0.10 at 6 decimals
const FUNDS = 1_000_000n;
const MAIN = { relayer: 1, payTo: 2 };
const SANDBOX = { relayer: 3, payTo: 4 };
const addressOf = (index: number) => privateKeyToAccount(devKey(index)).address;

let dir = '';
const servers: RunningServer[] = [];
let paid: RunningServer;
let smtp: SmtpSink | undefined;

async function serve(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer({ CONTACT_ENABLED: '', SANDBOX_CONTACT_ENABLED: '', CONTACT_TEST_CRASH_AFTER: '', RATE_LIMIT: '0', ...env });
  servers.push(server);
  return server;
}

const mainEnv = (database: string) => contactEnv('CONTACT_', chain!, { ...MAIN, database });

before(async () => {
  if (skip) return;
  dir = await mkdtemp(join(tmpdir(), 'folio-contact-'));
  smtp = await startSmtpSink();
  paid = await serve({
    ...mainEnv(join(dir, 'main.sqlite')),
    ...contactEnv('SANDBOX_CONTACT_', chain!, { ...SANDBOX, database: join(dir, 'sandbox.sqlite') }),
    CONTACT_SMTP_URL: smtp.url,
    CONTACT_MAIL_TO: 'owner@example.com',
  });
});

after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await chain?.stop();
  await smtp?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function client() {
  return createPublicClient({ transport: http(chain!.rpcUrl) });
}

const balanceOf = (owner: Address) => client().readContract({ address: chain!.token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [owner] });
const nonceOf = (owner: Address) => client().readContract({ address: chain!.token, abi: TOKEN_ABI, functionName: 'nonces', args: [owner] });
const chainTime = async () => (await client().getBlock()).timestamp;

async function transfersFrom(owner: Address) {
  return client().getContractEvents({ address: chain!.token, abi: TOKEN_ABI, eventName: 'Transfer', args: { from: owner }, fromBlock: 0n });
}

async function payer(funds = FUNDS): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  if (funds > 0n) await chain!.fund(account.address, funds);
  return account;
}

const message = (body = 'Hello from the tests.') => ({ sender: 'contact-test', body, reply_to: 'agent@example.com' });

function send(base: string, body: unknown, payment?: PaymentPayload | string, path = '/contact/send'): Promise<Got> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (payment) headers['payment-signature'] = typeof payment === 'string' ? payment : encodePaymentSignatureHeader(payment);
  return get(base, path, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function offerFrom(base: string, path = '/contact/send'): Promise<PaymentRequired> {
  const r = await send(base, message(), undefined, path);
  assert.equal(r.status, 402, r.text);
  return decodePaymentRequiredHeader(r.headers.get('payment-required')!);
}

/** A payload signed by `signer` (the owner by default) with any permit field changed, for the refusal tests. */
async function craftedPayment(owner: LocalAccount, required: PaymentRequired, change: Partial<Permit> = {}, signer: LocalAccount = owner): Promise<PaymentPayload> {
  const offer = permitOffer(required);
  const extra = offer.extra as { name: string; version: string; spender: Address };
  const permit: Permit = {
    owner: owner.address,
    spender: extra.spender,
    value: BigInt(offer.amount),
    nonce: await nonceOf(owner.address),
    deadline: (await chainTime()) + 300n,
    ...change,
  };
  const domain = { name: extra.name, version: extra.version, chainId: chainIdOf(offer), verifyingContract: offer.asset as Address };
  const signature = await signer.signTypedData(permitTypedData(domain, permit));
  const decimal = { owner: permit.owner, spender: permit.spender, value: `${permit.value}`, nonce: `${permit.nonce}`, deadline: `${permit.deadline}` };
  return { x402Version: 2, resource: required.resource, accepted: offer, payload: { signature, permit: decimal } };
}

async function validPayment(owner: LocalAccount, base = paid.url, path = '/contact/send'): Promise<PaymentPayload> {
  const required = await offerFrom(base, path);
  return signPermitPayment(owner, required, { nonce: await nonceOf(owner.address), deadline: (await chainTime()) + 300n });
}

function assertRefused(r: Got, reason: string) {
  assert.equal(r.status, 402, r.text);
  assert.equal(r.json.errorReason, reason, r.text);
  assert.equal(typeof r.json.error, 'string');
  assert.equal(decodePaymentRequiredHeader(r.headers.get('payment-required')!).error, r.json.error);
}

async function assertNothingCharged(owner: LocalAccount, before: bigint) {
  assert.equal(await balanceOf(owner.address), before, 'the payer was not charged');
  assert.equal((await transfersFrom(owner.address)).length, 0, 'no transfer from the payer');
}

/**
 * A process dies right after a payment's transfer (before storing its answer or releasing its
 * locks); the retry on the others finishes it: one transfer, one stored message, one answer.
 */
async function crashAndRetry(env: Record<string, string>, others: [RunningServer, RunningServer], stored: (owner: Address) => Promise<unknown[]>, text: string) {
  const crashing = await serve({ ...env, CONTACT_TEST_CRASH_AFTER: 'settle' });
  const owner = await payer();
  const payment = await validPayment(owner, crashing.url);
  await assert.rejects(send(crashing.url, message(text), payment), 'the connection drops');
  assert.equal(await crashing.exited, 70);
  assert.equal((await transfersFrom(owner.address)).length, 1, 'the transfer went through before the crash');
  // The dead process's lock expires; another finishes what it started.
  const retry = await send(others[1].url, message(text), payment);
  assert.equal(retry.status, 200, retry.text);
  assert.equal((await send(others[0].url, message(text), payment)).text, retry.text, 'the same answer everywhere');
  assert.equal((await transfersFrom(owner.address)).length, 1, 'nothing charged twice');
  assert.equal((await stored(owner.address)).length, 1);
}

/**
 * A shared store goes away while a payment is sent: 503 and nothing charged; once it is back, the
 * same request (on the other process) is paid once.
 */
async function payThroughOutage(store: { down(): Promise<void>; up(): Promise<void> }, first: string, second: string, text: string, whileAway?: () => Promise<void>) {
  const owner = await payer();
  const payment = await validPayment(owner, first);
  await store.down();
  const refused = await send(first, message(text), payment);
  assert.equal(refused.status, 503, refused.text);
  assert.equal(typeof refused.json.error, 'string');
  assert.equal((await transfersFrom(owner.address)).length, 0);
  await whileAway?.();
  await store.up();
  let r = refused;
  for (let i = 0; i < 50 && r.status === 503; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    r = await send(second, message(text), payment);
  }
  assert.equal(r.status, 200, r.text);
  assert.equal((await transfersFrom(owner.address)).length, 1);
}

describe('paid contact', { skip }, () => {
  test('402: x402 v2 PAYMENT-REQUIRED header and the {message, price, accepts, fields} body', async () => {
    const r = await send(paid.url, message());
    assert.equal(r.status, 402);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.match(r.headers.get('access-control-expose-headers')!, /PAYMENT-REQUIRED/);
    const required = decodePaymentRequiredHeader(r.headers.get('payment-required')!);
    assert.ok(parsePaymentRequired(required).success, 'the header validates with @x402/core');
    assert.equal(required.x402Version, 2);
    assert.equal(required.resource.url, 'http://localhost:4321/contact/send');
    assert.deepEqual(Object.keys(r.json).sort(), ['accepts', 'fields', 'message', 'price']);
    assert.equal(r.json.price, '$0.10');
    assert.deepEqual(r.json.accepts, required.accepts);
    assert.deepEqual(required.accepts, [
      {
        scheme: 'exact',
        network: 'eip155:31337',
        amount: '100000',
        asset: chain!.token,
        payTo: addressOf(MAIN.payTo),
        maxTimeoutSeconds: 300,
        extra: { name: 'Folio Dollar', version: '1', assetTransferMethod: 'eip2612', spender: addressOf(MAIN.relayer) },
      },
    ]);
    assert.deepEqual(
      r.json.fields.map((f: { name: string; type: string; required: boolean }) => [f.name, f.type, f.required]),
      [['sender', 'string', true], ['body', 'string', true], ['reply_to', 'string', false], ['callback', 'string', false]],
    );
    for (const f of r.json.fields) assert.equal(typeof f.description, 'string');
  });

  test('a paid send: 200 {status, txHash, receipt}, PAYMENT-RESPONSE, the price moved on chain, the message stored', async () => {
    const owner = await payer();
    const relayerEth = await client().getBalance({ address: addressOf(MAIN.relayer) });
    const payToBefore = await balanceOf(addressOf(MAIN.payTo));
    const r = await send(paid.url, message('A paid hello.'), await validPayment(owner));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.json.status, 'sent');
    assert.match(r.json.txHash, /^0x[0-9a-f]{64}$/);
    assert.deepEqual(decodePaymentResponseHeader(r.headers.get('payment-response')!), {
      success: true,
      transaction: r.json.txHash,
      network: 'eip155:31337',
      payer: owner.address,
    });
    const receipt = await client().getTransactionReceipt({ hash: r.json.txHash });
    assert.equal(receipt.status, 'success');
    assert.equal(r.json.receipt.blockNumber, receipt.blockNumber.toString());
    assert.equal(r.json.receipt.amount, '100000');
    assert.equal(await balanceOf(owner.address), FUNDS - PRICE);
    assert.equal(await balanceOf(addressOf(MAIN.payTo)), payToBefore + PRICE);
    assert.equal(await balanceOf(addressOf(MAIN.relayer)), 0n, 'the relayer only passes the tokens on');
    assert.ok((await client().getBalance({ address: addressOf(MAIN.relayer) })) < relayerEth, 'the relayer paid the gas');
    const transfers = await transfersFrom(owner.address);
    assert.deepEqual(
      transfers.map((t) => [t.transactionHash, t.args.to, t.args.value]),
      [[r.json.txHash, addressOf(MAIN.payTo), PRICE]],
    );
    const stored = (await storedFor(join(dir, 'main.sqlite'), owner.address));
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.state, 'settled');
    assert.deepEqual(stored[0]!.message, message('A paid hello.'));
    assert.equal(stored[0]!.id, r.json.receipt.messageId);
  });

  test('422 for missing or invalid fields, before anything is charged (even with a valid payment)', async () => {
    const owner = await payer();
    const payment = await validPayment(owner);
    const cases: [unknown, RegExp][] = [
      [{ sender: 'x' }, /body is required/],
      [{ body: 'hi' }, /sender is required/],
      [{ sender: ' ', body: 'hi' }, /sender must not be blank/],
      [{ sender: 'x', body: 'hi', reply_to: 'not-an-email' }, /reply_to must be an e-mail address/],
      [{ sender: 'x', body: 'hi', callback: 'ftp://example.com/x' }, /callback must be an absolute http\(s\) URI/],
      [{ sender: 'x', body: 'hi', callback: '/relative' }, /callback/],
      [{ sender: 1, body: 'hi' }, /sender must be a string/],
      [['not', 'an', 'object'], /JSON object/],
    ];
    for (const [body, error] of cases) {
      const r = await send(paid.url, body, payment);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.match(r.json.error, error);
      assert.equal(r.json.fields.length, 4, 'the 422 lists the fields');
    }
    assert.equal((await get(paid.url, '/contact/send', { method: 'POST', body: '{oops' })).status, 400, 'malformed JSON');
    await assertNothingCharged(owner, FUNDS);
    assert.equal(await nonceOf(owner.address), 0n, 'the permit was not used');
  });

  test('refused payments: 402 with errorReason, nothing charged', async () => {
    const required = await offerFrom(paid.url);
    const owner = await payer();
    const stranger = privateKeyToAccount(generatePrivateKey());
    const now = await chainTime();
    const cases: [string, () => Promise<PaymentPayload | string>, string, RegExp?][] = [
      ['wrong amount', () => craftedPayment(owner, required, { value: PRICE - 1n }), 'invalid_permit_value'],
      ['wrong spender', () => craftedPayment(owner, required, { spender: addressOf(MAIN.payTo) }), 'invalid_permit_spender'],
      ['expired deadline', () => craftedPayment(owner, required, { deadline: now - 1n }), 'invalid_permit_deadline'],
      ['bad signature', () => craftedPayment(owner, required, {}, stranger), 'invalid_permit_signature'],
      ['nonce ahead', () => craftedPayment(owner, required, { nonce: 5n }), 'invalid_permit_nonce'],
      ['high-s signature', async () => highS(await craftedPayment(owner, required)), 'invalid_permit_signature', /low-s/],
      ['accepted altered', async () => ({ ...(await craftedPayment(owner, required)), accepted: { ...permitOffer(required), payTo: stranger.address } }), 'invalid_payment_requirements'],
      ['not base64 JSON', async () => '%%%', 'invalid_payload'],
      ['not a permit payload', async () => encodePaymentSignatureHeader({ x402Version: 2, resource: required.resource, accepted: permitOffer(required), payload: { signature: '0x12' } }), 'invalid_payload'],
      ['x402 version 1', async () => encodePaymentSignatureHeader({ ...(await craftedPayment(owner, required)), x402Version: 1 }), 'invalid_x402_version'],
    ];
    for (const [name, payment, reason, error] of cases) {
      const r = await send(paid.url, message(), await payment());
      assertRefused(r, reason);
      if (error) assert.match(r.json.error, error, name);
      assert.ok(r.json.accepts.length === 1 && r.json.fields.length === 4, `${name}: the 402 still carries the offer`);
    }
    await assertNothingCharged(owner, FUNDS);
    assert.equal(await nonceOf(owner.address), 0n);
    const poor = await payer(PRICE - 1n);
    assertRefused(await send(paid.url, message(), await craftedPayment(poor, required)), 'insufficient_funds');
    await assertNothingCharged(poor, PRICE - 1n);
  });

  test('retries: the same payment returns the original 200; another body is a 409; nothing is charged twice', async () => {
    const owner = await payer();
    const payment = await validPayment(owner);
    const first = await send(paid.url, message('Once.'), payment);
    assert.equal(first.status, 200, first.text);
    const again = await send(paid.url, message('Once.'), payment);
    assert.equal(again.status, 200);
    assert.equal(again.text, first.text, 'byte-identical original answer');
    assert.equal(again.headers.get('payment-response'), first.headers.get('payment-response'));
    const other = await send(paid.url, message('Twice?'), payment);
    assert.equal(other.status, 409, other.text);
    assert.match(other.json.error, /different message/);
    assert.equal(await balanceOf(owner.address), FUNDS - PRICE);
    assert.equal((await transfersFrom(owner.address)).length, 1);
    assert.equal((await storedFor(join(dir, 'main.sqlite'), owner.address)).length, 1);
  });

  test('a permit front-run on chain by someone else: 402 permit_already_used, no transfer', async () => {
    const owner = await payer();
    const payment = await validPayment(owner);
    const p = payment.payload as { signature: Hex; permit: Record<string, string> };
    const { r, s, v } = parseSignature(p.signature);
    const frontRunner = privateKeyToAccount(devKey(7));
    const wallet = createWalletClient({ account: frontRunner, transport: http(chain!.rpcUrl) });
    const hash = await wallet.writeContract({
      chain: null,
      address: chain!.token,
      abi: TOKEN_ABI,
      functionName: 'permit',
      args: [owner.address, p.permit.spender as Address, BigInt(p.permit.value!), BigInt(p.permit.deadline!), Number(v), r, s],
    });
    await client().waitForTransactionReceipt({ hash });
    assert.equal(await nonceOf(owner.address), 1n);
    assertRefused(await send(paid.url, message(), payment), 'permit_already_used');
    await assertNothingCharged(owner, FUNDS);
    assert.equal((await storedFor(join(dir, 'main.sqlite'), owner.address)).length, 0);
  });

  test('20 concurrent duplicates settle once; payments from different payers at once never collide on the relayer nonce', async () => {
    const owner = await payer();
    const payment = await validPayment(owner);
    const others = await Promise.all([payer(), payer(), payer(), payer()].map(async (p) => validPayment(await p).then((pay) => [p, pay] as const)));
    const [dupes, rest] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => send(paid.url, message('Twenty times.'), payment))),
      Promise.all(others.map(async ([p, pay]) => send(paid.url, message(`From ${(await p).address}`), pay))),
    ]);
    assert.deepEqual(dupes.map((d) => d.status), Array(20).fill(200), dupes.find((d) => d.status !== 200)?.text);
    assert.equal(new Set(dupes.map((d) => d.text)).size, 1, 'every duplicate got the one original answer');
    assert.deepEqual(rest.map((d) => d.status), [200, 200, 200, 200], rest.find((d) => d.status !== 200)?.text);
    assert.equal((await transfersFrom(owner.address)).length, 1, 'exactly one transfer on chain');
    assert.equal(await balanceOf(owner.address), FUNDS - PRICE);
    assert.equal((await storedFor(join(dir, 'main.sqlite'), owner.address)).length, 1, 'one stored message');
    for (const [p] of others) assert.equal((await transfersFrom((await p).address)).length, 1);
  });

  test('the owner gets one e-mail per paid message (the twenty duplicates included), and the inbox records it', async () => {
    const owner = await payer();
    const r = await send(paid.url, { sender: 'mail-test', body: 'Please mail me.', reply_to: 'agent@example.com' }, await validPayment(owner));
    assert.equal(r.status, 200, r.text);
    const mailsOf = (text: string) => smtp!.mails.filter((m) => m.includes(text));
    for (let i = 0; i < 50 && mailsOf('Please mail me.').length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const [mail] = mailsOf('Please mail me.');
    assert.ok(mail, 'the mail arrived');
    assert.match(mail, /^To: owner@example\.com$/m);
    assert.match(mail, /^Reply-To: agent@example\.com$/m);
    assert.match(mail, /^Subject: Paid message from mail-test$/m);
    assert.match(mail.replaceAll('=\n', ''), new RegExp(`Transaction: ${r.json.txHash}`), 'quoted-printable, unfolded');
    assert.equal(mailsOf('Twenty times.').length, 1, 'one mail for the twenty duplicates');
    assert.ok((await storedFor(join(dir, 'main.sqlite'), owner.address))[0]!.delivery.deliveredAt, 'marked delivered');
  });

  test('a crash between settlement and answer: the retry returns the original result, the message exists once; a relayer key used by another process too', async () => {
    const before = await send(paid.url, message('Before the crash.'), await validPayment(await payer()));
    assert.equal(before.status, 200, 'the long-running server now counts its relayer nonce locally');
    const database = join(dir, 'crash.sqlite');
    const crashing = await serve({ ...mainEnv(database), CONTACT_TEST_CRASH_AFTER: 'settle' });
    const owner = await payer();
    const payment = await validPayment(owner, crashing.url);
    await assert.rejects(send(crashing.url, message('Through a crash.'), payment), 'the connection drops');
    assert.equal(await crashing.exited, 70);
    const [transfer] = await transfersFrom(owner.address);
    assert.ok(transfer, 'the transfer went through before the crash');
    assert.equal((await storedFor(database, owner.address))[0]!.state, 'pending', 'written ahead, not completed');

    const restarted = await serve(mainEnv(database));
    const retry = await send(restarted.url, message('Through a crash.'), payment);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.json.txHash, transfer.transactionHash);
    const again = await send(restarted.url, message('Through a crash.'), payment);
    assert.equal(again.text, retry.text);
    assert.equal((await transfersFrom(owner.address)).length, 1, 'one transfer on chain');
    assert.equal(await balanceOf(owner.address), FUNDS - PRICE);
    const stored = (await storedFor(database, owner.address));
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.state, 'settled');
    // Those servers used the same relayer key: the long-running one's nonce count is stale, and must recover.
    const later = await send(paid.url, message('After the crash.'), await validPayment(await payer()));
    assert.equal(later.status, 200, later.text);
  });

  test('a crash right after settlement and no retry: the message is completed at the next start and mailed once (two processes starting on its inbox at once)', async () => {
    const database = join(dir, 'reconcile.sqlite');
    const text = 'Paid, then the process died.';
    const env = { ...mainEnv(database), CONTACT_SMTP_URL: smtp!.url, CONTACT_MAIL_TO: 'owner@example.com' };
    const crashing = await serve({ ...env, CONTACT_TEST_CRASH_AFTER: 'settle' });
    const owner = await payer();
    const payment = await validPayment(owner, crashing.url);
    await assert.rejects(send(crashing.url, message(text), payment), 'the connection drops');
    assert.equal(await crashing.exited, 70);
    const [transfer] = await transfersFrom(owner.address);
    assert.ok(transfer, 'the transfer went through before the crash');
    assert.equal((await storedFor(database, owner.address))[0]!.state, 'pending');
    // The payer never retries. Two servers start on the inbox: each reconciles it at start.
    await Promise.all([serve(env), serve(env)]);
    let row = (await storedFor(database, owner.address))[0]!;
    const mails = () => smtp!.mails.filter((m) => m.includes(text));
    // Generous: a loaded machine starts a server in seconds; the outbox sends at once.
    for (const until = Date.now() + 30_000; (row.state !== 'settled' || mails().length === 0) && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 200));
      row = (await storedFor(database, owner.address))[0]!;
    }
    assert.equal(row.state, 'settled', 'completed without a retry');
    assert.equal(row.answer?.body.txHash, transfer.transactionHash);
    assert.equal(mails().length, 1, 'the owner was mailed');
    // Both processes have looked by now; a while later there is still one mail.
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(mails().length, 1, 'mailed once');
    assert.ok((await storedFor(database, owner.address))[0]!.delivery.deliveredAt);
    assert.equal((await transfersFrom(owner.address)).length, 1, 'charged once');
  });

  test('npm run pay pays like an x402 client; npm run inbox lists and exports the stored messages', async () => {
    const owner = await payer();
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    await chain!.fund(account.address, FUNDS);
    const pay = await run('scripts/pay.ts', ['--sender', 'pay-script', 'Sent by the script.'], { PAYER_KEY: key, RPC_URL: chain!.rpcUrl, FOLIO_URL: paid.url });
    assert.equal(pay.code, 0, pay.stdout + pay.stderr + paid.output().slice(-3000));
    assert.match(pay.stdout, /^402: \$0\.10 = 100000 atomic units/m);
    assert.match(pay.stdout, /^200: \{"status":"sent"/m);
    assert.equal(await balanceOf(account.address), FUNDS - PRICE);
    assert.equal(await balanceOf(owner.address), FUNDS, 'only the script payer paid');

    const inbox = (command: string) => run('scripts/inbox.ts', [command, '--db', join(dir, 'main.sqlite')]);
    const exported = (await inbox('export')).stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const mine = exported.find((m) => m.payer === account.address)!;
    assert.equal(mine.body, 'Sent by the script.');
    assert.equal(mine.state, 'settled');
    assert.match(mine.transaction as string, /^0x[0-9a-f]{64}$/);
    assert.match((await inbox('list')).stdout, /pay-script[\s\S]*Sent by the script\./);
  });

  test('the sandbox settles on the local test chain with its own relayer, payee and inbox', async () => {
    const owner = await payer();
    const required = await offerFrom(paid.url, '/sandbox/contact/send');
    assert.equal(required.resource.url, 'http://localhost:4321/sandbox/contact/send');
    assert.equal(permitOffer(required).network, 'eip155:31337');
    assert.equal(permitOffer(required).extra!.spender, addressOf(SANDBOX.relayer));
    const r = await send(paid.url, message(), await validPayment(owner, paid.url, '/sandbox/contact/send'), '/sandbox/contact/send');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.receipt.payTo, addressOf(SANDBOX.payTo));
    assert.equal((await storedFor(join(dir, 'sandbox.sqlite'), owner.address)).length, 1);
    assert.equal((await storedFor(join(dir, 'main.sqlite'), owner.address)).length, 0);
  });

  test('503 {error} when contact is switched off, not configured, or its chain is unreachable or not the configured one', async () => {
    const off = await serve({ ...mainEnv(join(dir, 'off.sqlite')), CONTACT_ENABLED: 'false' });
    for (const path of ['/contact/send', '/sandbox/contact/send']) {
      const r = await send(off.url, message(), undefined, path);
      assert.equal(r.status, 503, path);
      assert.match(r.json.error, /not available/);
      assert.equal(r.headers.get('cache-control'), 'no-store');
    }
    const broken = await serve({
      ...mainEnv(join(dir, 'broken.sqlite')),
      CONTACT_CHAIN_ID: '1',
      ...contactEnv('SANDBOX_CONTACT_', chain!, { ...SANDBOX, database: join(dir, 'broken-sandbox.sqlite') }),
      SANDBOX_CONTACT_RPC_URL: 'http://127.0.0.1:1',
    });
    for (const path of ['/contact/send', '/sandbox/contact/send']) {
      const r = await send(broken.url, message(), await validPayment(await payer(0n), paid.url), path);
      assert.equal(r.status, 503, path);
      assert.match(r.json.error, /cannot take payments/);
      assert.equal(r.headers.get('retry-after'), '5');
    }
    assert.match(broken.output(), /the RPC serves chain 31337, not the configured 1/);
    const wrongMethod = await get(off.url, '/contact/send');
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'POST, OPTIONS');
    assert.equal(typeof wrongMethod.json.error, 'string');
  });
});

/** Runs one of the project's scripts to its end. */
async function run(script: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function storedFor(database: string, owner: Address) {
  const inbox = sqliteInbox(database, { readOnly: true });
  try {
    return (await inbox.list()).filter((m) => m.permit.owner === owner);
  } finally {
    await inbox.close();
  }
}

/** The same signature with s replaced by n - s (and v flipped): it recovers the same signer but is not low-s. */
function highS(payment: PaymentPayload): PaymentPayload {
  const p = payment.payload as { signature: Hex };
  const { r, s, yParity } = parseSignature(p.signature);
  const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const flipped = serializeSignature({ r, s: numberToHex(n - hexToBigInt(s), { size: 32 }), yParity: yParity === 0 ? 1 : 0 });
  return { ...payment, payload: { ...payment.payload, signature: flipped } };
}

// Two processes on one machine: one inbox file, one Redis for the locks (a payer's payments, the
// relayer's nonces), each with its own outbox over the file.
const redisServer = redisBinary();
describe('paid contact across two processes (REDIS_URL, one inbox file)', { skip: skip || (redisServer ? false : 'redis-server is not installed: apt-get install -y redis-server') }, () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let a: RunningServer;
  let b: RunningServer;
  const database = () => join(dir, 'shared.sqlite');
  before(async () => {
    redis = await startRedis(redisServer!);
    const env = { ...mainEnv(database()), REDIS_URL: redis.url, EVENT_SIGNING_SECRET: 'two-processes', CONTACT_SMTP_URL: smtp!.url, CONTACT_MAIL_TO: 'owner@example.com' };
    [a, b] = await Promise.all([serve(env), serve(env)]);
  });
  after(() => redis?.stop());

  test('20 identical paid retries split across A and B: one charge, one stored message, one e-mail, 20 identical answers; other payers at once never collide on the nonce', async () => {
    const owner = await payer();
    const payment = await validPayment(owner, a.url);
    const payers = await Promise.all([payer(), payer(), payer(), payer()]);
    const others = await Promise.all(payers.map(async (p) => [p, await validPayment(p, a.url)] as const));
    const [dupes, rest] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? b.url : a.url, message('Twenty times, two processes.'), payment))),
      Promise.all(others.map(([p, pay], i) => send(i % 2 ? a.url : b.url, message(`From ${p.address}, two processes`), pay))),
    ]);
    assert.deepEqual(dupes.map((d) => d.status), Array(20).fill(200), dupes.find((d) => d.status !== 200)?.text);
    assert.equal(new Set(dupes.map((d) => d.text)).size, 1, 'every duplicate got the one original answer');
    assert.deepEqual(rest.map((d) => d.status), [200, 200, 200, 200], rest.find((d) => d.status !== 200)?.text);
    assert.equal((await transfersFrom(owner.address)).length, 1, 'exactly one transfer on chain');
    assert.equal(await balanceOf(owner.address), FUNDS - PRICE);
    assert.equal((await storedFor(database(), owner.address)).length, 1, 'one stored message');
    for (const [p] of others) assert.equal((await transfersFrom(p.address)).length, 1);
    const mails = () => smtp!.mails.filter((m) => m.includes('Twenty times, two processes.'));
    for (let i = 0; i < 50 && mails().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(mails().length, 1, 'one e-mail, though both processes run an outbox over the file');
  });

  test('the process settling a payment dies (after the transfer, before the answer); the retry on the other gets the stored answer, charged once', () =>
    crashAndRetry({ ...mainEnv(database()), REDIS_URL: redis.url, EVENT_SIGNING_SECRET: 'two-processes' }, [a, b], (owner) => storedFor(database(), owner), 'Through a crash, two processes.'));

  test('the lock store away: a clear 503 and nothing charged; paid again once it returns', () => payThroughOutage(redis, a.url, b.url, 'While Redis is away.'));
});

// The embedded default: one server, two worker threads; paid contact is held by one and relayed.
describe('paid contact across the workers of one server', { skip }, () => {
  test('20 identical paid retries on their own connections (spread over both workers): one charge, one message, identical answers', async () => {
    const database = join(dir, 'workers.sqlite');
    const server = await serve({ ...mainEnv(database), WORKERS: '2' });
    const owner = await payer();
    const payment = encodePaymentSignatureHeader(await validPayment(owner, server.url));
    const dupes = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(server.url, '/contact/send', { method: 'POST', headers: { 'content-type': 'application/json', 'payment-signature': payment }, body: JSON.stringify(message('Twenty times, two workers.')) }),
      ),
    );
    assert.deepEqual(dupes.map((d) => d.status), Array(20).fill(200), dupes.find((d) => d.status !== 200)?.body);
    assert.equal(new Set(dupes.map((d) => d.body)).size, 1);
    assert.equal((await transfersFrom(owner.address)).length, 1);
    assert.equal((await storedFor(database, owner.address)).length, 1);
    const workers = new Set<number>();
    for (let i = 0; i < 20 && workers.size < 2; i++) workers.add((JSON.parse((await call(server.url, '/status')).body) as { worker: number }).worker);
    assert.equal(workers.size, 2, 'both workers were serving');
  });

  test('a body nested 20,000 levels deep is 413 on either worker (relayed, it overflowed the stack in a 500), and paying still works', async () => {
    const server = await serve({ ...mainEnv(join(dir, 'workers-deep.sqlite')), WORKERS: '2' });
    const deep = `{"name": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(server.url, '/contact/send', { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep })));
    for (const a of answers) {
      assert.equal(a.status, 413, a.body);
      assert.match(JSON.parse(a.body).error, /nested too deeply/);
    }
    const owner = await payer();
    const paid = await call(server.url, '/contact/send', { method: 'POST', headers: { 'content-type': 'application/json', 'payment-signature': encodePaymentSignatureHeader(await validPayment(owner, server.url)) }, body: JSON.stringify(message('After the deep ones.')) });
    assert.equal(paid.status, 200, paid.body);
  });
});

// Two processes as on two machines: nothing shared on disk; the inbox on PostgreSQL, the locks on Redis.
const pgBin = postgresBin();
const distributedSkip = skip || (!redisServer ? 'redis-server is not installed: apt-get install -y redis-server' : !pgBin ? 'PostgreSQL is not installed: apt-get install -y postgresql' : false);
describe('paid contact on PostgreSQL and Redis across two processes (DATABASE_URL, REDIS_URL)', { skip: distributedSkip }, () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let a: RunningServer;
  let b: RunningServer;
  const storedOn = async (owner: Address) => {
    const inbox = pgInbox(postgres.url, 'folio_messages_main');
    try {
      return (await inbox.list()).filter((m) => m.permit.owner === owner);
    } finally {
      await inbox.close();
    }
  };
  before(async () => {
    [redis, postgres] = await Promise.all([startRedis(redisServer!), startPostgres(pgBin!)]);
    // Each process its own (unused) SQLite path: only PostgreSQL may hold messages.
    const env = (n: string) => ({ ...mainEnv(join(dir, `unused-${n}.sqlite`)), DATABASE_URL: postgres.url, REDIS_URL: redis.url, EVENT_SIGNING_SECRET: 'two-machines', CONTACT_SMTP_URL: smtp!.url, CONTACT_MAIL_TO: 'owner@example.com' });
    [a, b] = await Promise.all([serve(env('a')), serve(env('b'))]);
  });
  after(async () => {
    await redis?.stop();
    await postgres?.stop();
  });

  test('20 identical paid retries split across A and B: one charge, one row in PostgreSQL, one e-mail, 20 identical answers', async () => {
    const owner = await payer();
    const payment = await validPayment(owner, a.url);
    const dupes = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? b.url : a.url, message('Twenty times, two machines.'), payment)));
    assert.deepEqual(dupes.map((d) => d.status), Array(20).fill(200), dupes.find((d) => d.status !== 200)?.text);
    assert.equal(new Set(dupes.map((d) => d.text)).size, 1);
    assert.equal((await transfersFrom(owner.address)).length, 1, 'exactly one transfer on chain');
    assert.equal((await storedOn(owner.address)).length, 1, 'one stored message, in PostgreSQL');
    const mails = () => smtp!.mails.filter((m) => m.includes('Twenty times, two machines.'));
    for (let i = 0; i < 50 && mails().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(mails().length, 1, 'one e-mail from two outboxes');
    assert.ok(existsSync(join(dir, 'unused-a.sqlite')) === false, 'no SQLite inbox was made');
  });

  test('the process settling a payment dies; the retry on another machine\'s process gets the stored answer from PostgreSQL, charged once', () =>
    crashAndRetry(
      { ...mainEnv(join(dir, 'unused-c.sqlite')), DATABASE_URL: postgres.url, REDIS_URL: redis.url, EVENT_SIGNING_SECRET: 'two-machines' },
      [a, b],
      storedOn,
      'Through a crash, two machines.',
    ));

  test('the database away: a clear 503 and nothing charged, reads still served; paid once it returns', () =>
    payThroughOutage(postgres, b.url, a.url, 'While PostgreSQL is away.', async () => assert.equal((await get(a.url, '/api/posts')).status, 200, 'reads are served')));
});

describe('paid contact from the Workers preview (D1 inbox, Durable Object locks)', { skip: skip || (existsSync('dist/cloudflare/wrangler.jsonc') ? false : 'dist/cloudflare is absent: run `npm run build -- --target cloudflare`') }, () => {
  let worker: RunningServer;
  before(async () => {
    // Its own relayer and payee: the Node servers of this file pay from theirs at the same time.
    worker = await startServer({ RATE_LIMIT: '0', ...contactEnv('CONTACT_', chain!, { relayer: 5, payTo: 6, database: 'unused' }), ...contactEnv('SANDBOX_CONTACT_', chain!, { relayer: 7, payTo: 8, database: 'unused' }) }, 'cloudflare');
  });
  after(() => worker?.stop());

  test('402 with the offer, a paid send settles on chain, refusals charge nothing', async () => {
    const required = await offerFrom(worker.url);
    assert.ok(parsePaymentRequired(required).success);
    assert.equal(permitOffer(required).payTo, addressOf(6));
    const owner = await payer();
    const payToBefore = await balanceOf(addressOf(6));
    const r = await send(worker.url, message('Hello from a Worker.'), await signPermitPayment(owner, required, { nonce: await nonceOf(owner.address), deadline: (await chainTime()) + 300n }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'sent');
    assert.equal(decodePaymentResponseHeader(r.headers.get('payment-response')!).transaction, r.json.txHash);
    assert.equal((await client().getTransactionReceipt({ hash: r.json.txHash })).status, 'success');
    assert.equal(await balanceOf(owner.address), FUNDS - PRICE);
    assert.equal(await balanceOf(addressOf(6)), payToBefore + PRICE);
    assert.equal(typeof r.json.receipt.messageId, 'number', 'stored in D1 with its id');
    const poor = await payer(0n);
    assertRefused(await send(worker.url, message(), await craftedPayment(poor, await offerFrom(worker.url))), 'insufficient_funds');
    assert.equal(r.status, 200);
    const unprocessable = await send(worker.url, { sender: '' }, await craftedPayment(await payer(), required));
    assert.equal(unprocessable.status, 422, unprocessable.text);
  });

  test('20 concurrent duplicates settle once; other payers at once never collide on the relayer nonce', async () => {
    const owner = await payer();
    const payment = await validPayment(owner, worker.url);
    const others = await Promise.all([payer(), payer(), payer()].map(async (p) => validPayment(await p, worker.url).then((pay) => [p, pay] as const)));
    const [dupes, rest] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => send(worker.url, message('Twenty times, to a Worker.'), payment))),
      Promise.all(others.map(async ([p, pay]) => send(worker.url, message(`From ${(await p).address}`), pay))),
    ]);
    assert.deepEqual(dupes.map((d) => d.status), Array(20).fill(200), dupes.find((d) => d.status !== 200)?.text);
    assert.equal(new Set(dupes.map((d) => d.text)).size, 1, 'every duplicate got the one original answer');
    assert.deepEqual(rest.map((d) => d.status), [200, 200, 200], rest.find((d) => d.status !== 200)?.text);
    assert.equal((await transfersFrom(owner.address)).length, 1, 'exactly one transfer on chain');
    for (const [p] of others) assert.equal((await transfersFrom((await p).address)).length, 1);
  });

  test('the sandbox settles with its own relayer and payee', async () => {
    const owner = await payer();
    const before = await balanceOf(addressOf(8));
    const r = await send(worker.url, message('Sandbox, on a Worker.'), await validPayment(owner, worker.url, '/sandbox/contact/send'), '/sandbox/contact/send');
    assert.equal(r.status, 200, r.text);
    assert.equal(await balanceOf(addressOf(8)), before + PRICE);
  });
});

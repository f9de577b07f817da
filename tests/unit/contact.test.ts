import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { hexToBigInt, numberToHex, parseSignature, serializeSignature, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signPermitPayment } from '../../src/contact/client.ts';
import { readContactConfig } from '../../src/contact/config.ts';
import { ownerMail, startOutbox } from '../../src/contact/delivery.ts';
import { messageDigest, validateMessage } from '../../src/contact/fields.ts';
import { sqliteInbox, type NewMessage } from '../../src/contact/inbox.ts';
import { keyedQueue } from '../../src/contact/keyed-queue.ts';
import { buildOffer, paymentRequired, type Offer } from '../../src/contact/offer.ts';
import { parsePayment, samePermit, signedPermit, verifyPayment, type ParsedPayment } from '../../src/contact/payment.ts';
import { isLowS } from '../../src/contact/permit.ts';
import type { Refusal } from '../../src/contact/refusals.ts';
import { sentAnswer } from '../../src/contact/sent.ts';

const ASSET = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address;
const PAY_TO = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as Address;
const RELAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Address;
const offer: Offer = buildOffer({ chainId: 31337, asset: ASSET, payTo: PAY_TO, spender: RELAYER, price: '0.10', token: { name: 'Folio Dollar', version: '1', decimals: 6 } });
const required: PaymentRequired = paymentRequired({ url: 'http://localhost:4321/contact/send' }, offer);
const payer = privateKeyToAccount(generatePrivateKey());
const NOW = 1_800_000_000n;
const fine = { time: NOW, nonce: 0n, balance: 1_000_000n };

async function signed(change: { nonce?: bigint; deadline?: bigint } = {}): Promise<PaymentPayload> {
  return signPermitPayment(payer, required, { nonce: change.nonce ?? 0n, deadline: change.deadline ?? NOW + 300n });
}

function parsed(payload: PaymentPayload): ParsedPayment {
  const p = parsePayment(encodePaymentSignatureHeader(payload));
  assert.ok(!('reason' in p), 'reason' in p ? p.error : '');
  return p;
}

/** A payload with the permit or signature edited after signing, as a tampering client would send it. */
function edited(payload: PaymentPayload, edit: (inner: { signature: Hex; permit: Record<string, string> }) => void): PaymentPayload {
  const inner = structuredClone(payload.payload) as { signature: Hex; permit: Record<string, string> };
  edit(inner);
  return { ...payload, payload: inner };
}

const reasonOf = (r: Refusal | undefined) => r?.reason;

describe('message fields', () => {
  test('valid messages: one-line fields trimmed, the body kept as written, null means absent', () => {
    assert.deepEqual(validateMessage({ sender: '  agent-7 ', body: '  two\nlines ', reply_to: null, extra: 1 }), { message: { sender: 'agent-7', body: '  two\nlines ' } });
    const full = { sender: 'a', body: 'b', reply_to: 'x.y@example.co.uk', callback: 'https://example.com/cb?x=1' };
    assert.deepEqual(validateMessage(full), { message: full });
  });

  test('every problem is named in one 422 sentence', () => {
    const r = validateMessage({ sender: '', reply_to: 'a@b', callback: 'mailto:x@y.z' }) as { error: string };
    assert.match(r.error, /sender must not be blank; body is required; reply_to must be an e-mail address; callback must be an absolute http\(s\) URI/);
    assert.match((validateMessage({ sender: 'x'.repeat(201), body: 'b' }) as { error: string }).error, /sender is longer than 200/);
    assert.match((validateMessage('text') as { error: string }).error, /JSON object/);
    assert.match((validateMessage({ sender: 'a', body: 'b', callback: 'http://' }) as { error: string }).error, /callback/);
  });

  test('the digest tells messages apart and ignores nothing that matters', () => {
    const a = { sender: 'a', body: 'b' };
    assert.equal(messageDigest(a), messageDigest({ ...a }));
    assert.notEqual(messageDigest(a), messageDigest({ ...a, reply_to: 'r@e.st' }));
    assert.notEqual(messageDigest(a), messageDigest({ sender: 'a', body: 'b ' }));
  });
});

describe('offer', () => {
  test('the price in dollars becomes atomic units; the permit offer names the relayer', () => {
    assert.equal(offer.requirements.amount, '100000');
    assert.equal(offer.price, '$0.10');
    assert.deepEqual(offer.requirements.extra, { name: 'Folio Dollar', version: '1', assetTransferMethod: 'eip2612', spender: RELAYER });
    assert.equal(buildOffer({ ...offerTerms(), price: '12' }).amount, 12_000_000n);
    assert.throws(() => buildOffer({ ...offerTerms(), price: '0.0000001' }), /more decimals than the token/);
  });
});

function offerTerms() {
  return { chainId: 31337, asset: ASSET, payTo: PAY_TO, spender: RELAYER, price: '0.10', token: { name: 'Folio Dollar', version: '1', decimals: 6 } };
}

describe('payment header', () => {
  test('a signed permit payload parses back to the permit', async () => {
    const p = parsed(await signed({ nonce: 3n }));
    assert.deepEqual(p.permit, { owner: payer.address, spender: RELAYER, value: 100_000n, nonce: 3n, deadline: NOW + 300n });
    assert.ok(samePermit(signedPermit(p), signedPermit(parsed(await signed({ nonce: 3n })))), 'deterministic signatures: the same permit');
    assert.ok(!samePermit(signedPermit(p), signedPermit(parsed(await signed({ nonce: 3n, deadline: NOW + 301n })))));
  });

  test('malformed headers are refused as invalid_payload or invalid_x402_version', async () => {
    const good = await signed();
    const bad: [string, string][] = [
      ['not base64', '***'],
      ['base64 of text', Buffer.from('hello').toString('base64')],
      ['no accepted', encodePaymentSignatureHeader({ ...good, accepted: undefined } as unknown as PaymentPayload)],
      ['decimal with a sign', encodePaymentSignatureHeader(edited(good, (i) => (i.permit.value = '+100000')))],
      ['leading zero', encodePaymentSignatureHeader(edited(good, (i) => (i.permit.nonce = '01')))],
      ['exponent', encodePaymentSignatureHeader(edited(good, (i) => (i.permit.deadline = '1e10')))],
      ['short signature', encodePaymentSignatureHeader(edited(good, (i) => (i.signature = '0x1234')))],
      ['bad owner', encodePaymentSignatureHeader(edited(good, (i) => (i.permit.owner = '0x1234')))],
      ['over uint256', encodePaymentSignatureHeader(edited(good, (i) => (i.permit.value = (2n ** 256n).toString())))],
    ];
    for (const [name, header] of bad) assert.equal(reasonOf(parsePayment(header) as Refusal), 'invalid_payload', name);
    assert.equal(reasonOf(parsePayment(encodePaymentSignatureHeader({ ...good, x402Version: 1 })) as Refusal), 'invalid_x402_version');
  });
});

describe('verification', () => {
  test('a good permit passes', async () => {
    assert.equal(await verifyPayment(parsed(await signed()), offer, fine), undefined);
  });

  test('each check refuses with its reason', async () => {
    const good = await signed();
    const flipS = (sig: Hex) => {
      const { r, s, yParity } = parseSignature(sig);
      const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
      return serializeSignature({ r, s: numberToHex(n - hexToBigInt(s), { size: 32 }), yParity: yParity === 0 ? 1 : 0 });
    };
    const cases: [string, PaymentPayload, typeof fine, string][] = [
      ['accepted amount', { ...good, accepted: { ...good.accepted, amount: '1' } }, fine, 'invalid_payment_requirements'],
      ['accepted spender', { ...good, accepted: { ...good.accepted, extra: { ...good.accepted.extra, spender: PAY_TO } } }, fine, 'invalid_payment_requirements'],
      ['permit spender', edited(good, (i) => (i.permit.spender = PAY_TO)), fine, 'invalid_permit_spender'],
      ['permit value', edited(good, (i) => (i.permit.value = '99999')), fine, 'invalid_permit_value'],
      ['deadline by chain time', good, { ...fine, time: NOW + 295n }, 'invalid_permit_deadline'],
      ['not a signature', edited(good, (i) => (i.signature = `0x${'11'.repeat(64)}05`)), fine, 'invalid_permit_signature'],
      ['edited after signing', edited(good, (i) => (i.permit.deadline = `${NOW + 400n}`)), fine, 'invalid_permit_signature'],
      ['used nonce', good, { ...fine, nonce: 1n }, 'permit_already_used'],
      ['balance', good, { ...fine, balance: 99_999n }, 'insufficient_funds'],
    ];
    for (const [name, payload, state, reason] of cases) assert.equal(reasonOf(await verifyPayment(parsed(payload), offer, state)), reason, name);
    const high = edited(good, (i) => (i.signature = flipS(i.signature)));
    assert.ok(!isLowS((high.payload as { signature: Hex }).signature) && isLowS((good.payload as { signature: Hex }).signature));
    assert.match((await verifyPayment(parsed(high), offer, fine))!.error, /low-s/);
    assert.equal(reasonOf(await verifyPayment(parsed(await signed({ nonce: 2n })), offer, fine)), 'invalid_permit_nonce');
  });

  test('checks run in the documented order: the value is refused before the signature', async () => {
    const both = edited(await signed(), (i) => {
      i.permit.value = '1';
      i.signature = `0x${'11'.repeat(65)}`;
    });
    assert.equal(reasonOf(await verifyPayment(parsed(both), offer, { ...fine, balance: 0n })), 'invalid_permit_value');
  });
});

describe('configuration', () => {
  const full = {
    CONTACT_RPC_URL: 'http://127.0.0.1:8545',
    CONTACT_CHAIN_ID: '8453',
    CONTACT_TOKEN_ADDRESS: ASSET.toLowerCase(),
    CONTACT_PAY_TO: PAY_TO,
    CONTACT_RELAYER_KEY: `0x${'ab'.repeat(32)}`,
  };

  test('unset is off; complete is on with defaults; partial is off with a note; a switch turns it off', () => {
    assert.deepEqual(readContactConfig({}), { main: undefined, sandbox: undefined, mail: undefined, crashAfter: undefined, notes: [] });
    const on = readContactConfig(full).main!;
    assert.equal(on.asset, ASSET, 'checksummed');
    assert.equal(on.price, '0.10');
    assert.equal(on.database, 'data/contact.sqlite');
    assert.equal(readContactConfig({ ...full, CONTACT_PRICE: '$0.25' }).main!.price, '0.25');
    const partial = readContactConfig({ ...full, CONTACT_PAY_TO: '' });
    assert.equal(partial.main, undefined);
    assert.match(partial.notes[0]!, /CONTACT_PAY_TO/);
    assert.equal(readContactConfig({ ...full, CONTACT_ENABLED: 'off' }).main, undefined);
  });

  test('bad values fail at start; the sandbox refuses any chain but a local test chain', () => {
    assert.throws(() => readContactConfig({ ...full, CONTACT_PAY_TO: '0x12' }), /CONTACT_PAY_TO must be a 0x-prefixed 20-byte address/);
    assert.throws(() => readContactConfig({ ...full, CONTACT_RELAYER_KEY: '0x12' }), /CONTACT_RELAYER_KEY/);
    assert.throws(() => readContactConfig({ ...full, CONTACT_PRICE: 'ten' }), /CONTACT_PRICE/);
    assert.throws(() => readContactConfig({ ...full, CONTACT_PRICE: '0' }), /above zero/);
    const sandbox = Object.fromEntries(Object.entries(full).map(([k, v]) => [`SANDBOX_${k}`, v]));
    assert.throws(() => readContactConfig(sandbox), /SANDBOX_CONTACT_CHAIN_ID 8453 is not a local test chain/);
    assert.equal(readContactConfig({ ...sandbox, SANDBOX_CONTACT_CHAIN_ID: '31337' }).sandbox!.database, 'data/sandbox-contact.sqlite');
  });
});

function newMessage(key: string): NewMessage {
  return {
    key,
    message: { sender: 's', body: 'b', reply_to: 'r@example.com' },
    digest: 'd',
    network: 'eip155:31337',
    asset: ASSET,
    payTo: PAY_TO,
    permit: { owner: payer.address, spender: RELAYER, value: '100000', nonce: '0', deadline: '1', signature: '0x00' },
  };
}

async function settle(inbox: ReturnType<typeof sqliteInbox>, key: string, at: Date) {
  const row = (await inbox.find(key))!;
  const answer = sentAnswer(
    { messageId: row.id, network: 'eip155:31337', asset: ASSET, payer: payer.address, payTo: PAY_TO, amount: '100000' },
    { hash: `0x${'aa'.repeat(32)}`, blockNumber: 7n, blockHash: `0x${'bb'.repeat(32)}` },
  );
  await inbox.complete(key, answer, at);
}

describe('inbox', () => {
  test('write-ahead: a key is reserved once, completed once, and only a pending one can be discarded', async () => {
    const inbox = sqliteInbox(':memory:');
    const first = (await inbox.reserve(newMessage('k1')));
    const again = (await inbox.reserve({ ...newMessage('k1'), digest: 'other' }));
    assert.equal(again.id, first.id);
    assert.equal(again.digest, 'd', 'the first write stands');
    await inbox.recordTransaction('k1', 'transfer', `0x${'cc'.repeat(32)}`);
    assert.equal((await inbox.find('k1'))!.transferTx, `0x${'cc'.repeat(32)}`);
    await settle(inbox, 'k1', new Date());
    await inbox.discard('k1');
    const stored = (await inbox.find('k1'))!;
    assert.equal(stored.state, 'settled');
    assert.equal(stored.answer!.body.receipt.blockNumber, '7');
    assert.deepEqual(stored.message, newMessage('k1').message);
    (await inbox.reserve(newMessage('k2')));
    await inbox.discard('k2');
    assert.equal((await inbox.find('k2')), undefined);
    assert.deepEqual((await inbox.list()).map((m) => m.key), ['k1']);
    await inbox.close();
  });
});

describe('delivery outbox', () => {
  test('a store that goes away mid-pass ends the pass with a line in the log, never an unhandled rejection', async () => {
    const inbox = sqliteInbox(':memory:');
    const now = new Date('2026-01-01T00:00:00Z');
    await inbox.reserve(newMessage('k1'));
    await settle(inbox, 'k1', now);
    const lines: string[] = [];
    // Both the delivery and the record of its failure meet a store that is gone.
    const away = Object.assign(Object.create(inbox) as typeof inbox, {
      markDeliveryFailed: async () => {
        throw new Error('store unavailable');
      },
    });
    const outbox = startOutbox(away, async () => {
      throw new Error('smtp down');
    }, { now: () => now, log: (m) => lines.push(m) });
    await outbox.kick();
    assert.ok(lines.some((l) => /delivery pass stopped \(store unavailable\); the next pass tries again/.test(l)), lines.join('\n'));
    outbox.stop();
    await inbox.close();
  });

  test('a failed delivery is retried after backoff; a delivered message is never sent again', async () => {
    const inbox = sqliteInbox(':memory:');
    let now = new Date('2026-01-01T00:00:00Z');
    (await inbox.reserve(newMessage('k1')));
    await settle(inbox, 'k1', now);
    (await inbox.reserve(newMessage('k2')));
    const sent: string[] = [];
    let failNext = true;
    const outbox = startOutbox(
      inbox,
      async (m) => {
        if (failNext) {
          failNext = false;
          throw new Error('smtp down');
        }
        sent.push(m.key);
      },
      { now: () => now, log: () => {} },
    );
    await outbox.kick();
    assert.deepEqual(sent, []);
    assert.equal((await inbox.find('k1'))!.delivery.error, 'smtp down');
    await outbox.kick();
    assert.deepEqual(sent, [], 'not before the backoff');
    now = new Date(now.getTime() + 31_000);
    await outbox.kick();
    await outbox.kick();
    assert.deepEqual(sent, ['k1'], 'delivered once; the pending message is not delivered');
    assert.equal((await inbox.find('k1'))!.delivery.attempts, 2);
    outbox.stop();
    await inbox.close();
  });

  test('two senders on one inbox file: each mail is claimed by one; a dead sender\'s lease runs out and the mail is claimed again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-outbox-'));
    const a = sqliteInbox(join(dir, 'inbox.sqlite'));
    const b = sqliteInbox(join(dir, 'inbox.sqlite'));
    const now = new Date('2026-01-01T00:00:00Z');
    for (const key of ['k1', 'k2', 'k3']) {
      (await a.reserve(newMessage(key)));
      await settle(a, key, now);
    }
    const byA = (await a.claimForDelivery(now, 2, 60_000));
    const byB = (await b.claimForDelivery(now, 10, 60_000));
    assert.deepEqual(byA.map((m) => m.key), ['k1', 'k2']);
    assert.deepEqual(byB.map((m) => m.key), ['k3'], 'B gets only what A did not claim');
    assert.deepEqual((await b.claimForDelivery(now, 10, 60_000)), [], 'nothing twice');
    await b.markDelivered(byB[0]!.id, now);
    await a.markDelivered(byA[0]!.id, now);
    // A dies holding k2: after its lease, B claims it; k3 and k1, delivered, never come back.
    const later = new Date(now.getTime() + 60_001);
    assert.deepEqual((await b.claimForDelivery(later, 10, 60_000)).map((m) => m.key), ['k2']);
    await a.close();
    await b.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('the owner mail carries the message, a reply-to and a stable Message-ID', async () => {
    const inbox = sqliteInbox(':memory:');
    (await inbox.reserve(newMessage('k1')));
    await settle(inbox, 'k1', new Date());
    const mail = ownerMail((await inbox.find('k1'))!, { from: 'folio@example.com', to: 'owner@example.com' });
    assert.equal(mail.replyTo, 'r@example.com');
    assert.match(mail.text, /^b\n/);
    assert.match(mail.text, /Transaction: 0xaa/);
    assert.equal(mail.messageId, ownerMail((await inbox.find('k1'))!, { from: 'x', to: 'y' }).messageId);
    await inbox.close();
  });
});

test('keyed queue: one key at a time in order, other keys alongside', async () => {
  const run = keyedQueue();
  const log: string[] = [];
  const task = (name: string, ms: number) => () => new Promise<string>((resolve) => setTimeout(() => (log.push(name), resolve(name)), ms));
  const results = await Promise.all([run('a', task('a1', 30)), run('a', task('a2', 1)), run('b', task('b1', 10)), run('a', async () => Promise.reject(new Error('x'))).catch(() => 'a3 failed'), run('a', task('a4', 1))]);
  assert.deepEqual(results, ['a1', 'a2', 'b1', 'a3 failed', 'a4']);
  assert.deepEqual(log, ['b1', 'a1', 'a2', 'a4']);
});

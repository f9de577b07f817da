import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localStreamCounter, sseResponse } from '../../functions/sse.ts';
import { signPayload, verifyPayload } from '../../functions/signing.ts';
import { readEvents } from '../helpers/sse.ts';

test('a client that goes away ends an endless stream and frees its slot', async () => {
  const client = new AbortController();
  const counter = localStreamCounter();
  let sent = 0;
  let finished = false;
  const response = sseResponse(new Request('http://x/', { signal: client.signal }), 'k', counter, async (out) => {
    try {
      for (;;) {
        await out.send('tick', { n: sent++ });
      }
    } finally {
      finished = true;
    }
  });
  const events = await readEvents(response, 3);
  assert.ok(events.length >= 3);
  assert.equal(counter.count(), 1);
  client.abort();
  for (let i = 0; i < 100 && !finished; i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(finished, 'the producer stopped');
  assert.equal(counter.count(), 0);
  const stoppedAt = sent;
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(sent, stoppedAt, 'no work after the disconnect');
});

test('a failing producer ends the stream with a signed error event', async () => {
  const response = sseResponse(new Request('http://x/'), 'k', localStreamCounter(), async (out) => {
    await out.send('status', { phase: 'x' });
    throw new Error('index unavailable');
  });
  const events = await readEvents(response);
  assert.deepEqual(events.map((e) => e.event), ['status', 'error']);
  const payload = JSON.parse(events[1]!.data);
  assert.equal(payload.message, 'index unavailable');
  assert.ok(await verifyPayload(payload, 'k'));
});

test('signatures: HMAC-SHA256 of the JSON without signature, keys in order', async () => {
  const signed = await signPayload({ b: 1, a: 'ü' }, 'secret');
  // Independent check with node:crypto.
  const { createHmac } = await import('node:crypto');
  assert.equal(signed.signature, `sha256=${createHmac('sha256', 'secret').update(JSON.stringify({ b: 1, a: 'ü' })).digest('hex')}`);
  assert.equal(await verifyPayload({ ...signed, a: 'u' }, 'secret'), false, 'tampered data fails');
  assert.equal(await verifyPayload(signed, 'other'), false, 'wrong key fails');
});

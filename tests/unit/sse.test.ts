import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventStream, localStreamCounter, sseResponse, type EventSender } from '../../functions/sse.ts';
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

test('a client that stops reading is dropped after the bound, and its work ends', async () => {
  const counter = localStreamCounter();
  let finished: unknown;
  const response = eventStream(
    new Request('http://x/'),
    counter,
    async ({ write }) => {
      try {
        for (;;) await write('tick', 'x'.repeat(512));
      } catch (e) {
        finished = e;
      }
    },
    { queuedBytes: 2048, stalledMs: 50 },
  );
  // Nobody reads the body.
  for (let i = 0; i < 100 && !finished; i++) await new Promise((r) => setTimeout(r, 10));
  assert.match(String((finished as Error)?.message), /read nothing for 50 ms/);
  assert.equal(counter.count(), 0, 'the slot is freed');
  await response.body!.cancel();
});

test('a reconnect with Last-Event-ID resumes after it; one with the last id gets 204', async () => {
  const run = async (out: EventSender) => {
    for (const n of [1, 2, 3, 4]) await out.send('n', { n });
  };
  const first = await sseResponse(new Request('http://x/'), 'k', localStreamCounter(), run, 4).text();
  assert.match(first, /^retry: \d+\nid: 1\n/, 'retry: comes with the first event');
  const resumed = await readEvents(sseResponse(new Request('http://x/', { headers: { 'last-event-id': '2' } }), 'k', localStreamCounter(), run, 4));
  assert.deepEqual(resumed.map((e) => [e.id, JSON.parse(e.data).n]), [['3', 3], ['4', 4]]);
  const ended = sseResponse(new Request('http://x/', { headers: { 'last-event-id': '4' } }), 'k', localStreamCounter(), run, 4);
  assert.equal(ended.status, 204);
});

test('a slow reader that keeps reading gets every event, however far past the queue bound', async () => {
  const response = eventStream(
    new Request('http://x/'),
    localStreamCounter(),
    async ({ write }) => {
      for (let n = 0; n < 60; n++) await write('tick', `${n} ${'x'.repeat(500)}`);
    },
    { queuedBytes: 2048, stalledMs: 200 },
  );
  const reader = response.body!.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.equal(text.match(/^event: tick$/gm)?.length, 60);
});

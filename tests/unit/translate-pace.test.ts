import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pace } from '../../src/translate/pace.ts';
import { sendWithRetry } from '../../src/translate/send.ts';
import type { Provider } from '../../src/translate/provider.ts';

test('a pace keeps requests and characters within a rolling minute', () => {
  const byRequests = new Pace({ requestsPerMinute: 2 });
  byRequests.record(10, 0);
  byRequests.record(10, 1_000);
  assert.equal(byRequests.delay(10, 2_000), 58_000, 'the third waits for the first to leave the minute');
  assert.equal(byRequests.delay(10, 60_001), 0);

  const byChars = new Pace({ charactersPerMinute: 100 });
  byChars.record(60, 0);
  byChars.record(30, 10_000);
  assert.equal(byChars.delay(10, 20_000), 0, '100 fits exactly');
  assert.equal(byChars.delay(20, 20_000), 40_000, 'over 100: the first request must leave the minute');
  assert.equal(byChars.delay(80, 20_000), 50_000, 'both must leave');
  assert.equal(new Pace({ charactersPerMinute: 100 }).delay(500, 0), 0, 'a request over the whole budget goes alone, not never');
  assert.equal(new Pace().delay(1e9, 0), 0, 'no rate: no wait');
});

test('sendWithRetry waits for the pace before each request and counts what it sent', async () => {
  let clock = 0;
  const waits: number[] = [];
  const provider: Provider = { id: 'p', version: '1', supports: () => 'direct', limits: { segments: 10, chars: 1000 }, translate: async (s) => s.map((x) => x.toUpperCase()) };
  const pace = new Pace({ requestsPerMinute: 1 });
  const policy = { attempts: 1, baseMs: 1, pace, now: () => clock, sleep: async (ms: number) => void (waits.push(ms), (clock += ms)) };
  assert.deepEqual(await sendWithRetry(provider, ['ab', 'c'], 'fr', policy), ['AB', 'C']);
  clock += 5_000;
  await sendWithRetry(provider, ['d'], 'fr', policy);
  assert.deepEqual(waits, [55_000]);
  assert.deepEqual([pace.requests, pace.characters, pace.waitedMs], [2, 4, 55_000]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safePath } from '../../functions/request-path.ts';
import { sharedRateLimiter } from '../../src/state/rate-limit-table.ts';
import { sharedMemory } from '../../src/state/shared-memory.ts';
import { matchesIfNoneMatch } from '../../src/app/policies/etag.ts';
import { etagOf } from '../../src/pipeline/publish/file-etag.ts';
import { rejectBearer } from '../../src/app/policies/bearer.ts';
import { clientKey } from '../../src/app/policies/rate-limit.ts';
import { trustProxy } from '../../src/app/settings.ts';

test('safePath decodes, folds slashes, refuses traversal and bad encoding', () => {
  assert.equal(safePath('/fr/caf%C3%A9?x=1'), '/fr/café');
  assert.equal(safePath('//api//posts'), '/api/posts');
  for (const bad of ['/%E0%A4%A', '/a/../b', '/%2e%2e/x', '/a/%00', '/a%5cb', 'relative', '/./x']) assert.equal(safePath(bad), undefined, bad);
});

test('fixed window: counts per key, resets on the next window', () => {
  let now = 1_000_000;
  const limiter = sharedRateLimiter(sharedMemory().rateTable, 3, 60, () => now);
  const seen = [1, 2, 3, 4].map(() => limiter.hit('a'));
  assert.deepEqual(seen.map((d) => [d.allowed, d.remaining]), [[true, 2], [true, 1], [true, 0], [false, 0]]);
  assert.equal(limiter.hit('b').allowed, true, 'other clients unaffected');
  assert.equal(seen[0]!.reset, Math.ceil((Math.floor(now / 60000) * 60000 + 60000) / 1000));
  now += 60_000;
  assert.equal(limiter.hit('a').remaining, 2);
  assert.equal(limiter.hit('a', 5).allowed, false, 'a cost counts as several requests');
});

test('etag and If-None-Match', () => {
  const tag = etagOf(new TextEncoder().encode('x'));
  assert.match(tag, /^"[A-Za-z0-9_-]+"$/);
  assert.ok(matchesIfNoneMatch(`"nope", ${tag}`, tag));
  assert.ok(matchesIfNoneMatch(`W/${tag}`, tag));
  assert.ok(matchesIfNoneMatch('*', tag));
  assert.ok(!matchesIfNoneMatch('"other"', tag));
});

test('bearer detection', () => {
  assert.equal(rejectBearer(null, 'https://s')?.status, undefined);
  assert.equal(rejectBearer('Basic abc', 'https://s'), undefined);
  assert.equal(rejectBearer('bearer x', 'https://s')!.status, 401);
  assert.equal(rejectBearer('Bearer', 'https://s')!.status, 401);
});

test('a full table never resets a client: rotating keys cannot give anyone a fresh window', () => {
  const now = 1_000_000;
  const limiter = sharedRateLimiter(sharedMemory().rateTable, 3, 60, () => now);
  for (let i = 0; i < 3; i++) limiter.hit('victim');
  // Far more keys than slots, all live in this window (the old map was wiped at 100,000).
  for (let i = 0; i < 200_000; i++) limiter.hit(`rotating-${i}`);
  assert.equal(limiter.hit('victim').allowed, false, "the victim's window was kept through the flood");
});

test('clientKey reads X-Forwarded-For from the right, past the trusted proxies only', () => {
  const xff = '198.51.100.9, 203.0.113.5, 10.0.0.2';
  assert.equal(clientKey(undefined, xff, '10.0.0.1'), '10.0.0.1', 'no trust: the socket');
  assert.equal(clientKey({ hops: 1 }, xff, '10.0.0.1'), '10.0.0.2', 'one hop: what the proxy appended');
  assert.equal(clientKey({ hops: 2 }, xff, '10.0.0.1'), '203.0.113.5');
  assert.equal(clientKey({ hops: 9 }, xff, '10.0.0.1'), '198.51.100.9', 'more hops than entries: the leftmost');
  assert.equal(clientKey({ hops: 1 }, undefined, '::ffff:10.0.0.1'), '10.0.0.1', 'no header: the socket');
  assert.equal(clientKey({ proxies: new Set(['10.0.0.1', '10.0.0.2']) }, xff, '::ffff:10.0.0.1'), '203.0.113.5', 'a list: the first untrusted from the right');
  assert.equal(clientKey({ proxies: new Set(['10.0.0.9']) }, xff, '10.0.0.1'), '10.0.0.1', 'a peer not in the list is the client');
  assert.equal(clientKey({ hops: 1 }, ['1.1.1.1', '2.2.2.2'], 'x'), '2.2.2.2', 'repeated headers are one list');
});

test('TRUST_PROXY: off, hops (true is one), or proxy addresses', () => {
  for (const off of ['', '0', 'false']) assert.equal(trustProxy(off), undefined);
  assert.deepEqual(trustProxy('true'), { hops: 1 });
  assert.deepEqual(trustProxy('2'), { hops: 2 });
  assert.deepEqual(trustProxy('10.0.0.1, ::1'), { proxies: new Set(['10.0.0.1', '::1']) });
  assert.throws(() => trustProxy('yes'), /TRUST_PROXY/);
});

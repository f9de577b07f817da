import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safePath } from '../../functions/request-path.ts';
import { sharedRateLimiter } from '../../src/state/rate-limit-table.ts';
import { sharedMemory } from '../../src/state/shared-memory.ts';
import { matchesIfNoneMatch } from '../../src/app/policies/etag.ts';
import { etagOf } from '../../src/build/file-etag.ts';
import { rejectBearer } from '../../src/app/policies/bearer.ts';

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

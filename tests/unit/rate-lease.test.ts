import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { leaseBook, leaseSize, MAX_LEASE } from '../../src/state/rate-lease.ts';
import { redisState, type RedisState } from '../../src/state/redis.ts';
import type { RateDecision } from '../../src/app/policies/rate-limit.ts';
import { redisBinary, startRedis } from '../helpers/redis.ts';

describe('the lease book', () => {
  test('no lease near a small limit: the default limit is counted by the store hit by hit', () => {
    assert.equal(leaseSize(1000, 0), 0);
    assert.equal(leaseSize(5, 0), 0);
    assert.equal(leaseSize(1_000_000_000, 0), MAX_LEASE);
    // The lease shrinks as the window fills.
    assert.equal(leaseSize(100_000, 99_000), 0);
    assert.equal(leaseSize(100_000, 0), 97);
  });

  test('a leased run is handed out count by count, then the store is asked again', () => {
    const book = leaseBook(100_000);
    const end = 60_000;
    assert.equal(book.local('a', 1, end), undefined);
    const extra = book.extra('a', end);
    assert.equal(extra, 97);
    // The store answered 1 (this hit) + 97 leased: total 98.
    book.record('a', end, 98, extra);
    const counts = Array.from({ length: 97 }, () => book.local('a', 1, end)!);
    assert.deepEqual(counts.map((d) => d.remaining), Array.from({ length: 97 }, (_, i) => 100_000 - 2 - i));
    assert.equal(book.local('a', 1, end), undefined);
    // Another window starts from nothing.
    assert.equal(book.local('a', 1, end + 60_000), undefined);
  });

  test('a window over the limit is refused without the store until it ends', () => {
    const book = leaseBook(3);
    book.record('a', 60_000, 4, 0);
    const d = book.local('a', 1, 60_000)!;
    assert.equal(d.allowed, false);
    assert.equal(d.remaining, 0);
    assert.equal(book.local('a', 1, 120_000), undefined);
  });
});

const binary = redisBinary();

describe('leases on a real Redis, two processes', { skip: binary ? false : 'redis-server (or valkey-server) is not installed: apt-get install -y redis-server' }, () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let a: RedisState;
  let b: RedisState;
  let probe: Redis;
  const evalCalls = async () => Number(/cmdstat_evalsha:calls=(\d+)/.exec(await probe.info('commandstats'))?.[1] ?? 0);
  before(async () => {
    redis = await startRedis(binary!);
    [a, b] = [redisState(redis.url, () => undefined), redisState(redis.url, () => undefined)];
    probe = new Redis(redis.url);
  });
  after(async () => {
    probe?.disconnect();
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  });

  test('far below the limit: every hit has its own count, and the store sees a fraction of the hits', async () => {
    const limiters = [a.limiter(1_000_000_000, 60), b.limiter(1_000_000_000, 60)];
    const before = await evalCalls();
    const decisions: RateDecision[] = [];
    for (let i = 0; i < 5000; i++) decisions.push(await limiters[i % 2]!.hit('client'));
    // Unique within each window (a run may cross a window's end).
    const counts = decisions.map((d) => `${d.reset}:${1_000_000_000 - d.remaining}`);
    assert.equal(new Set(counts).size, 5000, 'no count handed out twice');
    assert.ok(decisions.every((d) => d.allowed));
    const calls = (await evalCalls()) - before;
    assert.ok(calls <= 5000 / 100, `${calls} store calls for 5000 hits`);
  });

  test('near the limit the count is exact across both, and a refused window needs no store', async () => {
    const limiters = [a.limiter(5, 60), b.limiter(5, 60)];
    const decisions: RateDecision[] = [];
    for (let i = 0; i < 7; i++) decisions.push(await limiters[i % 2]!.hit('near'));
    assert.deepEqual(decisions.map((d) => d.allowed), [true, true, true, true, true, false, false], 'unless a window ended in between');
    assert.deepEqual(decisions.slice(0, 5).map((d) => d.remaining), [4, 3, 2, 1, 0]);
    const before = await evalCalls();
    for (let i = 0; i < 100; i++) assert.equal((await limiters[i % 2]!.hit('near')).allowed, false);
    assert.equal((await evalCalls()) - before, 0);
  });
});

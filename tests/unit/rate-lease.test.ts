import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { IDLE_MS, LEASE_SHARE, leaseBook, leaseSize, MAX_LEASE, RECHECK_MS } from '../../src/state/rate-lease.ts';
import { redisState, type RedisState } from '../../src/state/redis.ts';
import { STORE_BOUNDS } from '../../src/state/store-circuit.ts';
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
    assert.equal(book.extra('a', end), 0, 'one lease request at a time');
    // The store answered counts 1..98: the hit took 1, 97 are leased.
    book.record('a', end, { left: [{ first: 2, last: 98 }], top: 98, refused: false }, extra);
    const counts = Array.from({ length: 97 }, () => book.local('a', 1, end)!);
    assert.deepEqual(counts.map((d) => d.remaining), Array.from({ length: 97 }, (_, i) => 100_000 - 2 - i));
    assert.equal(book.local('a', 1, end), undefined);
    // Another window starts from nothing.
    assert.equal(book.local('a', 1, end + 60_000), undefined);
  });

  test('a lease that arrives while counts of the last are unused is added to them', () => {
    const book = leaseBook(100_000);
    const end = 60_000;
    book.record('a', end, { left: [{ first: 2, last: 3 }], top: 3, refused: false }, 0);
    book.record('a', end, { left: [{ first: 10, last: 11 }], top: 11, refused: false }, 0);
    assert.deepEqual([1, 2, 3, 4].map(() => book.local('a', 1, end)?.remaining), [100_000 - 2, 100_000 - 3, 100_000 - 10, 100_000 - 11]);
  });

  test('counts unused for a while are taken out to give back; an over-limit window is refused here, then asked again', () => {
    let clock = 0;
    const book = leaseBook(3, LEASE_SHARE, () => clock);
    book.record('a', 60_000, { left: [{ first: 2, last: 2 }], top: 2, refused: false }, 0);
    assert.deepEqual(book.idle(clock), []);
    clock = IDLE_MS;
    assert.deepEqual(book.idle(clock), [{ key: 'a', end: 60_000, runs: [{ first: 2, last: 2 }] }]);
    assert.equal(book.local('a', 1, 60_000), undefined, 'given back, not handed out');
    book.record('a', 60_000, { left: [], top: 4, refused: true }, 0);
    const d = book.local('a', 1, 60_000)!;
    assert.equal(d.allowed, false);
    assert.equal(d.remaining, 0);
    clock += RECHECK_MS;
    assert.equal(book.local('a', 1, 60_000), undefined);
    assert.equal(book.local('a', 1, 120_000), undefined);
  });
});

const binary = redisBinary();

describe('leases on a real Redis, two processes', { skip: binary ? false : 'redis-server (or valkey-server) is not installed: apt-get install -y redis-server' }, () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let a: RedisState;
  let b: RedisState;
  let c: RedisState;
  let probe: Redis;
  const evalCalls = async () => Number(/cmdstat_evalsha:calls=(\d+)/.exec(await probe.info('commandstats'))?.[1] ?? 0);
  before(async () => {
    redis = await startRedis(binary!);
    // Bounds far beyond what a loaded machine takes: these tests are about the counts, not the bounds.
    const patient = { ...STORE_BOUNDS, rate: 10_000 };
    [a, b, c] = [1, 2, 3].map(() => redisState(redis.url, () => undefined, { bounds: patient })) as [RedisState, RedisState, RedisState];
    probe = new Redis(redis.url);
    await Promise.all([a, b, c].map((s) => s.ready(5000)));
  });
  after(async () => {
    probe?.disconnect();
    await Promise.all([a?.close(), b?.close(), c?.close()]);
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

  test('exactly the limit across three processes hit at once, one of them going quiet holding leased counts', async () => {
    const limit = 3000;
    // A window of an hour, so the run does not cross a window's end.
    const [la, lb, lc] = [a, b, c].map((s) => s.limiter(limit, 3600));
    const decisions: RateDecision[] = [];
    // Callers that each wait for their answer: answers come back in different turns, so the store is
    // asked again while a lease is on its way.
    const callers = (limiter: typeof la, n: number, more: () => boolean) =>
      Array.from({ length: n }, async () => {
        while (more()) {
          const d = await limiter!.hit('shared');
          decisions.push(d);
          // Refusals are answered without the store: let timers and replies run.
          await new Promise((r) => setTimeout(r, d.allowed ? 0 : 5));
        }
      });
    let quietHits = 0;
    await Promise.all(callers(lc, 4, () => quietHits++ < 200));
    let lastAllowed = Date.now();
    const allowed = () => decisions.filter((d) => d.allowed).length;
    await Promise.all([...callers(la, 8, () => Date.now() - lastAllowed < 3000), ...callers(lb, 8, () => Date.now() - lastAllowed < 3000), (async () => {
      for (let seen = 0; Date.now() - lastAllowed < 3000; await new Promise((r) => setTimeout(r, 50))) if (allowed() > seen) [seen, lastAllowed] = [allowed(), Date.now()];
    })()]);
    assert.equal(new Set(decisions.map((d) => d.reset)).size, 1, 'one window');
    assert.equal(allowed(), limit, `${allowed()} allowed of ${limit}`);
    const counts = decisions.filter((d) => d.allowed).map((d) => d.remaining);
    assert.equal(new Set(counts).size, limit, 'no count handed out twice');
  });
});

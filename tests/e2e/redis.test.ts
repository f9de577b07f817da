import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type RunningServer, ONE_WINDOW } from '../helpers/server.ts';
import { call, openStream, type Answer } from '../helpers/connection.ts';
import { Redis } from 'ioredis';
import { redisBinary, startRedis } from '../helpers/redis.ts';
import { verifyPayload } from '../../functions/signing.ts';
import { STREAM_SHARE_TTL_MS } from '../../src/state/redis-streams.ts';

/**
 * Two server processes on two ports sharing a real Redis (REDIS_URL) behave as one for rate
 * limits, legacy MCP sessions, signatures and the stream count; the store going away leaves
 * published reads served and says 503 where it is needed.
 */
const binary = redisBinary();
const SECRET = 'shared-across-processes';
let redis: Awaited<ReturnType<typeof startRedis>>;
let a: RunningServer;
let b: RunningServer;



describe('two processes on one Redis', { skip: binary ? false : 'redis-server (or valkey-server) is not installed: apt-get install -y redis-server' }, () => {
  before(async () => {
    redis = await startRedis(binary!);
    const env = { REDIS_URL: redis.url, EVENT_SIGNING_SECRET: SECRET, RATE_LIMIT: '5', ...ONE_WINDOW, TRUST_PROXY: '1' };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  test('RATE_LIMIT=5 across both: the sixth is 429 with Retry-After, and the remaining counts agree', async () => {
    const client = { 'x-forwarded-for': '192.0.2.1' };
    const answers: Answer[] = [];
    for (let i = 0; i < 7; i++) answers.push(await call(i % 2 ? b.url : a.url, '/api/posts', { headers: client }));
    assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200, 200, 429, 429]);
    assert.deepEqual(answers.slice(0, 5).map((r) => r.headers['x-ratelimit-remaining']), ['4', '3', '2', '1', '0']);
    assert.ok(Number(answers[5]!.headers['retry-after']) >= 1);
    assert.equal(answers[0]!.headers['x-ratelimit-reset'], answers[4]!.headers['x-ratelimit-reset']);
    // At once too (the hits of one turn are sent as one increment): of 12 from a new client, exactly 5 pass.
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => call(i % 2 ? b.url : a.url, '/api/languages', { headers: { 'x-forwarded-for': '192.0.2.9' } })));
    const passed = burst.filter((r) => r.status === 200);
    assert.equal(passed.length, 5);
    assert.deepEqual(passed.map((r) => r.headers['x-ratelimit-remaining']).sort(), ['0', '1', '2', '3', '4']);
  });

  test('a legacy MCP session opened on A receives the answer to a POST sent to B; /status on B counts A\'s stream', async () => {
    const stream = openStream(a.url, '/mcp/sse');
    await stream.until(() => stream.events.some((e) => e.event === 'endpoint'));
    const endpoint = stream.events.find((e) => e.event === 'endpoint')!.data;
    const sent = await call(b.url, endpoint, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.2' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) });
    assert.equal(sent.status, 202, sent.body);
    await stream.until(() => stream.events.some((e) => e.event === 'message' && (JSON.parse(e.data) as { id?: number }).id === 7));
    const status = JSON.parse((await call(b.url, '/status', { headers: { 'x-forwarded-for': '192.0.2.3' } })).body) as { active_streams: number };
    assert.ok(status.active_streams >= 1, 'B counts the stream A holds');
    stream.close();
    const unknown = await call(b.url, '/mcp/messages?sessionId=nobody', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.4' }, body: '{}' });
    assert.equal(unknown.status, 404);
  });

  test('stream events from A and B verify with the same key', async () => {
    for (const [i, base] of [a.url, b.url].entries()) {
      const r = await call(base, '/api/stream/search?q=web', { headers: { accept: 'text/event-stream', 'x-forwarded-for': `192.0.2.${10 + i}` } });
      const datas = r.body.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
      assert.ok(datas.length >= 2);
      for (const d of datas) assert.ok(await verifyPayload(d, SECRET), base);
    }
  });

  test('a second process without EVENT_SIGNING_SECRET serves everything but its streams (503), and says so once', async () => {
    const c = await startServer({ REDIS_URL: redis.url, EVENT_SIGNING_SECRET: '', RATE_LIMIT: '0' });
    try {
      assert.equal((await call(c.url, '/')).status, 200);
      assert.equal((await call(c.url, '/api/search?q=web')).status, 200);
      const stream = await call(c.url, '/api/stream/search?q=web', { headers: { accept: 'text/event-stream' } });
      assert.equal(stream.status, 503);
      assert.match((JSON.parse(stream.body) as { error: string }).error, /EVENT_SIGNING_SECRET/);
      assert.equal(c.output().match(/EVENT_SIGNING_SECRET is not set/g)?.length, 1);
    } finally {
      await c.stop();
    }
  });

  test('a process killed with open streams: the others stop counting them within the share TTL', async () => {
    // A client address per call: B's rate limit is 5.
    let asked = 0;
    const count = async () => (JSON.parse((await call(b.url, '/status', { headers: { 'x-forwarded-for': `203.0.113.${++asked}` } })).body) as { active_streams: number }).active_streams;
    const before = await count();
    const c = await startServer({ REDIS_URL: redis.url, EVENT_SIGNING_SECRET: SECRET, RATE_LIMIT: '0', TRUST_PROXY: '1' });
    const N = 20;
    // A client address each: the per-client session cap is not what is tested.
    const streams = Array.from({ length: N }, (_, i) => openStream(c.url, '/mcp/sse', { 'x-forwarded-for': `198.51.100.${i + 1}` }));
    await Promise.all(streams.map((s) => s.until(() => s.events.some((e) => e.event === 'endpoint'))));
    assert.equal(await count(), before + N, 'B counts the streams C holds');
    c.kill('SIGKILL');
    await c.exited;
    const killed = Date.now();
    let now = await count();
    while (now !== before && Date.now() - killed < STREAM_SHARE_TTL_MS + 2_000) {
      await new Promise((r) => setTimeout(r, 200));
      now = await count();
    }
    assert.equal(now, before, `C's streams still counted ${Date.now() - killed} ms after it died`);
    streams.forEach((s) => s.close());
  });

  test('a legacy MCP session whose process was killed: a message for it is 404 at once on the others', async () => {
    const c = await startServer({ REDIS_URL: redis.url, EVENT_SIGNING_SECRET: SECRET, RATE_LIMIT: '0', TRUST_PROXY: '1' });
    const stream = openStream(c.url, '/mcp/sse');
    try {
      await stream.until(() => stream.events.some((e) => e.event === 'endpoint'));
      const endpoint = stream.events.find((e) => e.event === 'endpoint')!.data;
      c.kill('SIGKILL');
      await c.exited;
      const post = (id: number) => call(b.url, endpoint, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${40 + id}` }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }) });
      // Its key would live on for up to 60 s: the owner's subscription is what is asked.
      const first = await post(1);
      assert.equal(first.status, 404, first.body);
      assert.match(JSON.parse(first.body).error, /Unknown or closed MCP session/);
      assert.equal((await post(2)).status, 404);
    } finally {
      stream.close();
      c.kill('SIGKILL');
    }
  });

  test('a process of two workers killed holding leased counts: the window loses at most 1/1024 of the limit', async () => {
    const LIMIT = 100_000;
    const client = '192.0.2.77';
    const c = await startServer({ REDIS_URL: redis.url, EVENT_SIGNING_SECRET: SECRET, RATE_LIMIT: String(LIMIT), ...ONE_WINDOW, TRUST_PROXY: '1', WORKERS: '2' });
    const store = new Redis(redis.url);
    try {
      // Connections of their own, so the kernel spreads them over both workers; each worker takes
      // a run of counts at its first hit. Killed well within the 0.5 s before unused runs go back.
      let answered = 0;
      for (let i = 0; i < 16; i++) if ((await call(c.url, '/api/posts', { headers: { 'x-forwarded-for': client } })).status === 200) answered++;
      c.kill('SIGKILL');
      await c.exited;
      const [count] = await store.keys(`folio:rate:*:${client}`);
      const given = await store.lrange(`${count}:back`, 0, -1);
      const back = given.map((r) => r.split(':').map(Number)).reduce((n, [first, last]) => n + last! - first! + 1, 0);
      const lost = Number(await store.get(count!)) - back - answered;
      assert.equal(answered, 16);
      assert.ok(lost <= Math.floor(LIMIT / 1024), `${lost} counts lost of ${LIMIT}`);
    } finally {
      store.disconnect();
      c.kill('SIGKILL');
    }
  });

  test('a frozen store (SIGSTOP: socket open, no answers): every request answers within its bound, /status says so, and it recovers after SIGCONT', async () => {
    // The bound is 50 ms for a count and 50 ms for /status's stream count; the circuit then stops
    // asking. DEADLINE is generous for a loaded machine; without bounds these wait for as long as
    // the store is frozen (FROZEN_MS, longer than DEADLINE).
    const DEADLINE = 4_000;
    const FROZEN_MS = 7_000;
    let n = 0;
    const timed = async (base: string, path: string) => {
      const started = Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${path} on ${base}: no answer within ${DEADLINE} ms of a frozen store`)), DEADLINE)));
      try {
        const r = await Promise.race([call(base, path, { headers: { 'x-forwarded-for': `198.18.${Math.floor(++n / 250)}.${n % 250}` } }), late]);
        return { ...r, ms: Date.now() - started };
      } finally {
        clearTimeout(timer);
      }
    };
    const before = { a: a.output().length, b: b.output().length };
    redis.freeze();
    const frozen = Date.now();
    try {
      const slowest: number[] = [];
      while (Date.now() - frozen < FROZEN_MS - DEADLINE) {
        const round = await Promise.all([a.url, b.url].flatMap((base) => ['/status', '/api/posts', '/api/search?q=web', '/the-slow-web'].map((path) => timed(base, path))));
        for (const r of round) assert.equal(r.status, 200, r.body);
        slowest.push(Math.max(...round.map((r) => r.ms)));
      }
      const status = JSON.parse((await timed(a.url, '/status')).body) as { store?: { state: string; failed: number; skipped: number } };
      assert.equal(status.store?.state, 'away', JSON.stringify(status));
      assert.ok(status.store!.failed >= 1 && status.store!.skipped >= 1, JSON.stringify(status));
      // One line when the circuit opens, not one per request.
      assert.equal(a.output().slice(before.a).match(/not asked again until it answers/g)?.length, 1, a.output().slice(before.a));
      assert.ok(slowest.length >= 2, `${slowest.length} rounds`);
    } finally {
      redis.thaw();
    }
    let back: { store?: { state: string } } = {};
    let counted = false;
    for (const until = Date.now() + 10_000; Date.now() < until && !(back.store?.state === 'up' && counted); ) {
      back = JSON.parse((await timed(a.url, '/status')).body) as typeof back;
      counted = (await timed(a.url, '/api/posts')).headers['x-ratelimit-remaining'] !== undefined;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(back.store?.state, 'up', 'the probe finds the store back');
    assert.ok(counted, 'requests are counted again');
    assert.match(a.output().slice(before.a), /answering again/);
  });

  test('the store away: published reads still served, sessions a clear 503, and counting again once it returns', async () => {
    await redis.down();
    const page = await call(a.url, '/api/posts/the-slow-web', { headers: { 'x-forwarded-for': '192.0.2.20' } });
    assert.equal(page.status, 200, 'published content is still served');
    assert.equal((await call(b.url, '/the-slow-web', { headers: { 'x-forwarded-for': '192.0.2.20' } })).status, 200);
    const message = await call(b.url, '/mcp/messages?sessionId=x', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.21' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    assert.equal(message.status, 503);
    assert.match(JSON.parse(message.body).error, /unavailable/);
    await redis.up();
    let counted = false;
    for (let i = 0; i < 50 && !counted; i++) {
      const r = await call(a.url, '/api/posts', { headers: { 'x-forwarded-for': `192.0.2.${30 + (i % 100)}` } });
      counted = r.headers['x-ratelimit-remaining'] !== undefined;
      if (!counted) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(counted, 'the rate limit counts again once Redis is back');
  });
});
